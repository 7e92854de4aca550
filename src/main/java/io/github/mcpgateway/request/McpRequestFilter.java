package io.github.mcpgateway.request;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpRequestContext.Decision;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * First gateway stage after Spring Security: opens the {@link McpRequestContext} of a
 * request on a server path, and hands one {@link McpAuditEvent} to every
 * {@link McpAuditListener} when the request is done.
 *
 * <p>
 * It takes the server pinned for the request ({@link ServerLocator}; a path no server is
 * on passes through and gets the gateway's 404), reads and parses a POST body once,
 * checks the MCP routing headers against it and records the result on the context. Every
 * refusal goes through {@link Refusals}; a later stage may change the error a refusal is
 * answered with ({@link RequestRefusalCustomizer}). Decisions about grants, sessions and
 * idempotency are made by later filters.
 */
public final class McpRequestFilter extends OncePerRequestFilter {

	private static final Log logger = LogFactory.getLog(McpRequestFilter.class);

	private static final Set<String> METHODS = Set.of("POST", "GET", "DELETE");

	private final ServerLocator servers;

	private final RequestBodyReader bodyReader;

	private final JsonRpcMessageParser parser;

	private final McpHeaderValidator headerValidator = new McpHeaderValidator();

	private final Refusals refusals;

	private final List<RequestRefusalCustomizer> refusalCustomizers;

	private final List<McpAuditListener> auditListeners;

	private final Clock clock;

	public McpRequestFilter(ServerLocator servers, RequestProperties properties, JsonRpcMessageParser parser,
			Refusals refusals, List<RequestRefusalCustomizer> refusalCustomizers, List<McpAuditListener> auditListeners,
			Clock clock) {
		Assert.notNull(servers, "servers must not be null");
		Assert.notNull(properties, "properties must not be null");
		Assert.notNull(parser, "parser must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(refusalCustomizers, "refusalCustomizers must not be null");
		Assert.notNull(auditListeners, "auditListeners must not be null");
		Assert.notNull(clock, "clock must not be null");
		this.servers = servers;
		this.bodyReader = new RequestBodyReader(properties.maxBodySize());
		this.parser = parser;
		this.refusals = refusals;
		this.refusalCustomizers = List.copyOf(refusalCustomizers);
		this.auditListeners = List.copyOf(auditListeners);
		this.clock = clock;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		McpServerPolicy server = this.servers.serverOf(request);
		if (server == null) {
			chain.doFilter(request, response);
			return;
		}
		McpRequestContext context = McpRequestContext.open(request, server, principal(), System.nanoTime());
		try {
			HttpServletRequest forwarded = prepare(request, context);
			chain.doFilter(forwarded, response);
		}
		catch (GatewayErrorException ex) {
			GatewayError error = ex.error();
			for (RequestRefusalCustomizer customizer : this.refusalCustomizers) {
				error = customizer.customize(request, error);
			}
			this.refusals.refuse(request, response, Decision.INVALID, error);
		}
		catch (IOException | ServletException | RuntimeException ex) {
			if (response.isCommitted()) {
				// Nothing can be rendered any more; let the container abandon the
				// connection.
				throw ex;
			}
			logger.error("Unhandled failure on " + server.qualifiedName() + " (" + ex.getClass().getName() + ")");
			this.refusals.refuse(request, response, Decision.INVALID, GatewayErrors.INTERNAL_ERROR);
		}
		finally {
			publishAudit(context, request, response);
		}
	}

	private HttpServletRequest prepare(HttpServletRequest request, McpRequestContext context) throws IOException {
		checkHeaders(request);
		String sessionId = sessionId(request);
		context.parsed(sessionId, null);
		if (!METHODS.contains(request.getMethod())) {
			throw new GatewayErrorException(GatewayErrors.METHOD_NOT_ALLOWED);
		}
		if (!"POST".equals(request.getMethod())) {
			return request;
		}
		byte[] body = this.bodyReader.read(request);
		JsonRpcMessage message = this.parser.parse(body);
		context.parsed(sessionId, message);
		this.headerValidator.validate(request, message);
		return new CachedBodyRequest(request, body);
	}

	/**
	 * Reads every header once, so that a value Spring Security's HTTP firewall refuses
	 * (control characters, for example) is answered here as a bad request, not thrown
	 * later from deep in the proxy as a server error. A refused {@code Idempotency-Key}
	 * is an invalid key.
	 */
	private static void checkHeaders(HttpServletRequest request) {
		List<String> names;
		try {
			names = Collections.list(request.getHeaderNames());
		}
		catch (RequestRejectedException ex) {
			throw new GatewayErrorException(GatewayErrors.HEADER_INVALID);
		}
		for (String name : names) {
			try {
				Collections.list(request.getHeaders(name));
			}
			catch (RequestRejectedException ex) {
				throw new GatewayErrorException(McpHeaders.IDEMPOTENCY_KEY.equalsIgnoreCase(name)
						? GatewayErrors.IDEMPOTENCY_KEY_INVALID : GatewayErrors.HEADER_INVALID);
			}
		}
	}

	/**
	 * The session id; an empty header counts as none (MCP session ids are 1 or more
	 * characters), and one with characters the HTTP firewall refuses is a bad request. A
	 * request of a stateless revision (2026-07-28) has none: that revision has no
	 * sessions and its servers ignore the header, so the gateway neither checks it nor
	 * sends it on.
	 */
	private static @Nullable String sessionId(HttpServletRequest request) {
		if (McpRevisions.isStateless(request)) {
			return null;
		}
		try {
			String sessionId = request.getHeader(McpHeaders.SESSION_ID);
			return (sessionId == null || sessionId.isBlank()) ? null : sessionId;
		}
		catch (RequestRejectedException ex) {
			throw new GatewayErrorException(GatewayErrors.HEADER_INVALID);
		}
	}

	private static @Nullable McpPrincipal principal() {
		Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
		return (authentication instanceof McpAuthentication mcp) ? mcp.getPrincipal() : null;
	}

	private void publishAudit(McpRequestContext context, HttpServletRequest request, HttpServletResponse response) {
		McpPrincipal principal = context.principal();
		JsonRpcMessage message = context.message();
		String method = (message == null) ? request.getMethod()
				: (message.method() != null) ? message.method() : "response";
		Decision decision = context.decision();
		if (decision == Decision.PENDING) {
			decision = (response.getStatus() < 400) ? Decision.ALLOWED : Decision.UPSTREAM_ERROR;
		}
		McpServerPolicy server = context.server();
		audit(new McpAuditEvent(this.clock.instant(), (principal != null) ? principal.human() : null,
				(principal != null) ? principal.agent() : null, (principal != null) ? principal.team() : null,
				context.sessionId(), server.namespace(), server.name(), server.uid(), method,
				(message != null && message.toolName() != null) ? message.toolName() : context.taskTool(),
				decision.name().toLowerCase(Locale.ROOT), context.errorCode(), context.reason(), response.getStatus(),
				Duration.ofNanos(System.nanoTime() - context.startNanos()), context.dispatched(),
				context.idempotencyOutcome(), context.idempotencyKeyHash(), context.upstreamAuth(),
				context.upstreamAuthOutcome(), context.taskOutcome(), context.taskIdHash()));
	}

	private void audit(McpAuditEvent event) {
		for (McpAuditListener listener : this.auditListeners) {
			try {
				listener.onRequest(event);
			}
			catch (RuntimeException ex) {
				logger.warn("Audit listener " + listener.getClass().getName() + " failed: " + ex.getClass().getName());
			}
		}
	}

}
