package io.github.mcpgateway.request;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.web.firewall.RequestRejectedException;
import org.springframework.util.Assert;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.audit.McpAuditEvent;
import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.identity.McpAuthentication;
import io.github.mcpgateway.identity.McpPrincipal;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.request.McpRequestContext.Decision;

/**
 * First gateway stage after Spring Security: turns a request on a server path into an
 * {@link McpRequestContext}, and publishes one {@link McpAuditEvent} when the request is
 * done.
 *
 * <p>
 * It resolves the server from the live policy (a path no server is on passes through and
 * gets the ordinary 404), reads and parses a POST body once, checks the MCP routing
 * headers against it and binds the context. Every refusal on the way goes to the
 * {@link GatewayErrorRenderer}. Decisions about grants, sessions and idempotency are made
 * by later filters.
 */
public final class McpRequestFilter extends OncePerRequestFilter {

	private static final Log logger = LogFactory.getLog(McpRequestFilter.class);

	private static final Set<String> METHODS = Set.of("POST", "GET", "DELETE");

	private static final String SESSION_HEADER = "Mcp-Session-Id";

	private static final String IDEMPOTENCY_KEY = "Idempotency-Key";

	/**
	 * Refusals meaning "not one JSON-RPC request": with a key, that is an unsupported
	 * request.
	 */
	private static final Set<GatewayError> NOT_A_TOOL_CALL = Set.of(GatewayErrors.INVALID_REQUEST,
			GatewayErrors.BATCH_NOT_SUPPORTED, GatewayErrors.UNSUPPORTED_MEDIA_TYPE);

	private final LivePolicy livePolicy;

	private final RequestBodyReader bodyReader;

	private final JsonRpcMessageParser parser;

	private final McpHeaderValidator headerValidator = new McpHeaderValidator();

	private final GatewayErrorRenderer errorRenderer;

	private final ApplicationEventPublisher events;

	private final Clock clock;

	private final UrlPathHelper pathHelper = UrlPathHelper.defaultInstance;

	public McpRequestFilter(LivePolicy livePolicy, RequestProperties properties, JsonRpcMessageParser parser,
			GatewayErrorRenderer errorRenderer, ApplicationEventPublisher events, Clock clock) {
		Assert.notNull(livePolicy, "livePolicy must not be null");
		Assert.notNull(properties, "properties must not be null");
		Assert.notNull(parser, "parser must not be null");
		Assert.notNull(errorRenderer, "errorRenderer must not be null");
		Assert.notNull(events, "events must not be null");
		Assert.notNull(clock, "clock must not be null");
		this.livePolicy = livePolicy;
		this.bodyReader = new RequestBodyReader(properties.maxBodySize());
		this.parser = parser;
		this.errorRenderer = errorRenderer;
		this.events = events;
		this.clock = clock;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		McpServerPolicy server = this.livePolicy.current().serverAt(this.pathHelper.getPathWithinApplication(request));
		if (server == null) {
			chain.doFilter(request, response);
			return;
		}
		McpRequestContext context = new McpRequestContext(server, principal(), null, null, System.nanoTime(),
				Decision.PENDING, null, false, null)
			.bind(request);
		try {
			HttpServletRequest forwarded = prepare(request, context);
			chain.doFilter(forwarded, response);
		}
		catch (GatewayErrorException ex) {
			if (NOT_A_TOOL_CALL.contains(ex.error()) && request.getHeader(IDEMPOTENCY_KEY) != null) {
				// A keyed request that is not a single JSON tools/call: say so, rather
				// than a generic parse error, so the client knows no guarantee applied.
				McpRequestContext.require(request).withIdempotency(IdempotencyOutcome.REJECTED, null).bind(request);
				refuse(request, response, GatewayErrors.IDEMPOTENCY_UNSUPPORTED_REQUEST, Decision.INVALID);
			}
			else {
				refuse(request, response, ex.error(), Decision.INVALID);
			}
		}
		catch (IOException | ServletException | RuntimeException ex) {
			if (response.isCommitted()) {
				// Nothing can be rendered any more; let the container abandon the
				// connection.
				throw ex;
			}
			logger.error("Unhandled failure on " + server.qualifiedName() + " (" + ex.getClass().getName() + ")");
			refuse(request, response, GatewayErrors.INTERNAL_ERROR, Decision.INVALID);
		}
		finally {
			publishAudit(request, response);
		}
	}

	private HttpServletRequest prepare(HttpServletRequest request, McpRequestContext base) throws IOException {
		checkHeaders(request);
		McpRequestContext context = new McpRequestContext(base.server(), base.principal(), null, sessionId(request),
				base.startNanos(), base.decision(), null, false, null)
			.bind(request);
		if (!METHODS.contains(request.getMethod())) {
			throw new GatewayErrorException(GatewayErrors.METHOD_NOT_ALLOWED);
		}
		if (!"POST".equals(request.getMethod())) {
			return request;
		}
		byte[] body = this.bodyReader.read(request);
		JsonRpcMessage message = this.parser.parse(body);
		new McpRequestContext(context.server(), context.principal(), message, context.sessionId(), context.startNanos(),
				context.decision(), null, false, null)
			.bind(request);
		this.headerValidator.validate(request, message);
		return new CachedBodyRequest(request, body);
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, GatewayError error, Decision decision)
			throws IOException {
		McpRequestContext context = McpRequestContext.require(request);
		context.withDecision(decision, error.code()).bind(request);
		this.errorRenderer.render(response, error, context.requestId());
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
				throw new GatewayErrorException(IDEMPOTENCY_KEY.equalsIgnoreCase(name)
						? GatewayErrors.IDEMPOTENCY_KEY_INVALID : GatewayErrors.HEADER_INVALID);
			}
		}
	}

	/**
	 * The session id; an empty header counts as none (MCP session ids are 1 or more
	 * characters), and one with characters the HTTP firewall refuses is a bad request.
	 */
	private static @Nullable String sessionId(HttpServletRequest request) {
		try {
			String sessionId = request.getHeader(SESSION_HEADER);
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

	private void publishAudit(HttpServletRequest request, HttpServletResponse response) {
		McpRequestContext context = McpRequestContext.require(request);
		McpPrincipal principal = context.principal();
		JsonRpcMessage message = context.message();
		String method = (message == null) ? request.getMethod()
				: (message.method() != null) ? message.method() : "response";
		Decision decision = context.decision();
		if (decision == Decision.PENDING) {
			decision = (response.getStatus() < 400) ? Decision.ALLOWED : Decision.UPSTREAM_ERROR;
		}
		McpServerPolicy server = context.server();
		this.events.publishEvent(new McpAuditEvent(this.clock.instant(), (principal != null) ? principal.human() : null,
				(principal != null) ? principal.agent() : null, (principal != null) ? principal.team() : null,
				context.sessionId(), server.namespace(), server.name(), server.uid(), method,
				(message != null) ? message.toolName() : null, decision.name().toLowerCase(java.util.Locale.ROOT),
				context.errorCode(), response.getStatus(), Duration.ofNanos(System.nanoTime() - context.startNanos()),
				context.dispatched(), (context.idempotency() != null) ? context.idempotency().outcome().tag() : null,
				(context.idempotency() != null) ? context.idempotency().keyHash() : null));
	}

}
