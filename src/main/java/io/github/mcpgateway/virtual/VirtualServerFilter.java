package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.request.RequestBodyReader;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.session.SessionStoreException;

/**
 * Serves the virtual servers (ADR 0021): after identity, a request on a virtual server's
 * path is read and parsed once here and answered by {@link VirtualMethods}, which sends
 * what a member must decide through that member's own pipeline. Any other path goes on
 * down the chain untouched.
 */
public final class VirtualServerFilter extends OncePerRequestFilter {

	private final ServerLocator servers;

	private final RequestBodyReader bodies;

	private final JsonRpcMessageParser parser;

	private final VirtualMethods methods;

	private final GatewayErrorRenderer renderer;

	VirtualServerFilter(ServerLocator servers, RequestBodyReader bodies, JsonRpcMessageParser parser,
			VirtualMethods methods, GatewayErrorRenderer renderer) {
		this.servers = servers;
		this.bodies = bodies;
		this.parser = parser;
		this.methods = methods;
		this.renderer = renderer;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		VirtualServerPolicy virtual = this.servers.virtualServerOf(request);
		Policy policy = this.servers.policyOf(request);
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		if (virtual == null || policy == null) {
			chain.doFilter(request, response);
			return;
		}
		if (!(authentication instanceof McpAuthentication caller)) {
			refuse(response, GatewayErrors.UNAUTHENTICATED, null);
			return;
		}
		switch (request.getMethod()) {
			case "POST" -> post(request, response, policy, virtual, caller);
			case "DELETE" -> end(request, response, virtual, caller);
			default -> {
				// No stream of the virtual server's own yet (ADR 0021): 405, as MCP
				// allows.
				response.setHeader("Allow", "POST, DELETE");
				refuse(response, GatewayErrors.METHOD_NOT_ALLOWED, null);
			}
		}
	}

	private void end(HttpServletRequest request, HttpServletResponse response, VirtualServerPolicy virtual,
			McpAuthentication caller) throws IOException, ServletException {
		try {
			this.methods.end(request, response, virtual, caller.getPrincipal());
		}
		catch (SessionStoreException ex) {
			refuse(response, GatewayErrors.SESSION_STORE_UNAVAILABLE, null);
		}
	}

	private void post(HttpServletRequest request, HttpServletResponse response, Policy policy,
			VirtualServerPolicy virtual, McpAuthentication caller) throws IOException, ServletException {
		byte[] body;
		JsonRpcMessage message;
		try {
			body = this.bodies.read(request);
			message = this.parser.parse(body);
		}
		catch (GatewayErrorException ex) {
			refuse(response, ex.error(), null);
			return;
		}
		GatewayError refusal;
		try {
			refusal = this.methods
				.answer(new VirtualRequest(request, response, policy, virtual, caller.getPrincipal(), message, body));
		}
		catch (SessionStoreException ex) {
			// The virtual session store cannot answer (Redis down): the session store's
			// refusal, 503 and retry, never a 500. Only a look-up throws, before the
			// client's reply has begun.
			refusal = GatewayErrors.SESSION_STORE_UNAVAILABLE;
		}
		if (refusal != null) {
			refuse(response, refusal, message);
		}
	}

	private void refuse(HttpServletResponse response, GatewayError error, @Nullable JsonRpcMessage message)
			throws IOException {
		if (response.isCommitted()) {
			return;
		}
		this.renderer.render(response, error, (message != null) ? message.id() : null);
	}

}
