package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.SessionStoreException;

/**
 * A virtual server's endpoint as HTTP sees it: a POST is read once
 * ({@link VirtualRequestReader}) and answered by {@link VirtualMethods}; what either
 * refuses is rendered as every gateway error on an MCP path is (a JSON-RPC error with the
 * request's id when known).
 */
record VirtualEndpoint(VirtualRequestReader reader, VirtualMethods methods, GatewayErrorRenderer renderer) {

	void post(HttpServletRequest request, HttpServletResponse response, Policy policy, VirtualServerPolicy virtual,
			McpPrincipal principal) throws IOException, ServletException {
		VirtualRequestReader.Read read;
		try {
			read = this.reader.read(request);
		}
		catch (GatewayErrorException ex) {
			refuse(response, ex.error(), null);
			return;
		}
		GatewayError refusal;
		try {
			refusal = this.methods
				.answer(new VirtualRequest(request, response, policy, virtual, principal, read.message(), read.body()));
		}
		catch (SessionStoreException ex) {
			// The virtual session store cannot answer (Redis down): the session store's
			// refusal, 503 and retry, never a 500. Only a look-up throws, before the
			// client's reply has begun.
			refusal = GatewayErrors.SESSION_STORE_UNAVAILABLE;
		}
		if (refusal != null) {
			refuse(response, refusal, read.message());
		}
	}

	/** A DELETE: ends the caller's virtual session. */
	void end(HttpServletRequest request, HttpServletResponse response, VirtualServerPolicy virtual,
			McpPrincipal principal) throws IOException, ServletException {
		try {
			this.methods.end(request, response, virtual, principal);
		}
		catch (SessionStoreException ex) {
			refuse(response, GatewayErrors.SESSION_STORE_UNAVAILABLE, null);
		}
	}

	/** A GET: no stream of the virtual server's own yet (ADR 0021), 405 as MCP allows. */
	void noStream(HttpServletResponse response) throws IOException {
		response.setHeader("Allow", "POST, DELETE");
		refuse(response, GatewayErrors.METHOD_NOT_ALLOWED, null);
	}

	void refuse(HttpServletResponse response, GatewayError error, @Nullable JsonRpcMessage message) throws IOException {
		this.renderer.render(response, error, (message != null) ? message.id() : null);
	}

}
