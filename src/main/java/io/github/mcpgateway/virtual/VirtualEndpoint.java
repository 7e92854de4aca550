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
import io.github.mcpgateway.request.McpRequestHeaders;
import io.github.mcpgateway.session.SessionStoreException;

/**
 * A virtual server's endpoint as HTTP sees it: a POST is read once
 * ({@link VirtualRequestReader}) and answered by {@link VirtualMethods}; what either
 * refuses is rendered as every gateway error on an MCP path is (a JSON-RPC error with the
 * request's id when known), and recorded in the request's {@link VirtualOutcome} for its
 * audit line.
 */
record VirtualEndpoint(VirtualRequestReader reader, VirtualMethods methods, GatewayErrorRenderer renderer) {

	void post(HttpServletRequest request, HttpServletResponse response, Policy policy, VirtualServerPolicy virtual,
			McpPrincipal principal) throws IOException, ServletException {
		VirtualRequestReader.Read read;
		try {
			read = this.reader.read(request);
		}
		catch (GatewayErrorException ex) {
			refuse(request, response, ex.error(), null);
			return;
		}
		VirtualOutcome outcome = VirtualOutcome.find(request);
		if (outcome != null) {
			outcome.read(read.message());
		}
		GatewayError refusal;
		try {
			McpRequestHeaders.check(request, read.message());
			refusal = this.methods
				.answer(new VirtualRequest(request, response, policy, virtual, principal, read.message(), read.body()));
		}
		catch (GatewayErrorException ex) {
			refusal = ex.error();
		}
		catch (SessionStoreException ex) {
			// The virtual session store cannot answer (Redis down): the session store's
			// refusal, 503 and retry, never a 500. Only a look-up throws, before the
			// client's reply has begun.
			refusal = GatewayErrors.SESSION_STORE_UNAVAILABLE;
		}
		if (refusal != null) {
			refuse(request, response, refusal, read.message());
		}
	}

	/** A DELETE: ends the caller's virtual session. */
	void end(HttpServletRequest request, HttpServletResponse response, VirtualServerPolicy virtual,
			McpPrincipal principal) throws IOException, ServletException {
		try {
			this.methods.end(request, response, virtual, principal);
		}
		catch (SessionStoreException ex) {
			refuse(request, response, GatewayErrors.SESSION_STORE_UNAVAILABLE, null);
		}
	}

	/** A GET: the client's stream, its members' streams merged. */
	void stream(HttpServletRequest request, HttpServletResponse response, Policy policy, VirtualServerPolicy virtual,
			McpPrincipal principal) throws IOException {
		GatewayError refusal;
		try {
			refusal = this.methods.stream(request, response, policy, virtual, principal);
		}
		catch (SessionStoreException ex) {
			refusal = GatewayErrors.SESSION_STORE_UNAVAILABLE;
		}
		if (refusal != null) {
			refuse(request, response, refusal, null);
		}
	}

	/** Any other HTTP method: 405. */
	void notAllowed(HttpServletRequest request, HttpServletResponse response) throws IOException {
		response.setHeader("Allow", "GET, POST, DELETE");
		refuse(request, response, GatewayErrors.METHOD_NOT_ALLOWED, null);
	}

	void refuse(HttpServletRequest request, HttpServletResponse response, GatewayError error,
			@Nullable JsonRpcMessage message) throws IOException {
		VirtualOutcome outcome = VirtualOutcome.find(request);
		if (outcome != null) {
			outcome.refused(error);
		}
		this.renderer.render(response, error, (message != null) ? message.id() : null);
	}

}
