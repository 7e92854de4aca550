package io.github.mcpgateway.request;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * What the pipeline has learned about one MCP request, shared by every stage and the
 * proxy: the core every request has (server, principal and start, fixed on entry;
 * message, session id and revision; decision; the upstream call) and the typed
 * {@link ContextSlot}s each capability alone writes. A stage reads a value when it needs
 * it, never a copy. Not thread-safe, but for the {@link UpstreamExchange#call()}.
 */
public final class McpRequestContext {

	private static final String ATTRIBUTE = McpRequestContext.class.getName();

	private static final String ORIGIN_ATTRIBUTE = ATTRIBUTE + ".origin";

	/**
	 * Where the request came from, when the gateway made it (see {@link #attachOrigin}).
	 */
	private static final ContextSlot<AuditContribution> ORIGIN = ContextSlot.declare("origin");

	private static final ContextSlot.Writer<AuditContribution> originWriter = ORIGIN.writer();

	private final McpServerPolicy server;

	private final @Nullable McpPrincipal principal;

	private final long startNanos;

	/** Written through {@link ContextSlot.Writer} only. */
	final SlotValues slots = new SlotValues();

	private @Nullable JsonRpcMessage message;

	private @Nullable String sessionId;

	private boolean stateless;

	private Decision decision = Decision.PENDING;

	private @Nullable GatewayError error;

	private @Nullable RefusalReason reason;

	private final UpstreamExchange upstream = new UpstreamExchange();

	private McpRequestContext(McpServerPolicy server, @Nullable McpPrincipal principal, long startNanos) {
		Assert.notNull(server, "server must not be null");
		this.server = server;
		this.principal = principal;
		this.startNanos = startNanos;
	}

	/** Opens the context of {@code request}; {@code startNanos} by the gateway clock. */
	static McpRequestContext open(ServletRequest request, McpServerPolicy server, @Nullable McpPrincipal principal,
			long startNanos) {
		McpRequestContext context = new McpRequestContext(server, principal, startNanos);
		request.setAttribute(ATTRIBUTE, context);
		if (request.getAttribute(ORIGIN_ATTRIBUTE) instanceof AuditContribution origin) {
			originWriter.put(context, origin);
		}
		return context;
	}

	/**
	 * Marks {@code request}, one the gateway makes in-process on a client's behalf (a
	 * virtual server's member request), with where it came from: the pipeline that runs
	 * it adds {@code origin}'s fields to its audit line, as any capability's. Call it
	 * before the pipeline runs the request. A request attribute, so that the maker
	 * depends on the pipeline and never the other way round; a client cannot set one.
	 */
	public static void attachOrigin(ServletRequest request, AuditContribution origin) {
		Assert.notNull(origin, "origin must not be null");
		request.setAttribute(ORIGIN_ATTRIBUTE, origin);
	}

	/** The context of {@code request}, or {@code null} when it is not an MCP request. */
	public static @Nullable McpRequestContext find(ServletRequest request) {
		return (McpRequestContext) request.getAttribute(ATTRIBUTE);
	}

	/** The context of {@code request}; fails if the pipeline did not open one. */
	public static McpRequestContext require(ServletRequest request) {
		McpRequestContext context = find(request);
		Assert.state(context != null, "Not an MCP request: no McpRequestContext");
		return context;
	}

	/** The server, from the policy snapshot the request is decided against. */
	public McpServerPolicy server() {
		return this.server;
	}

	/** The verified caller, {@code null} for none (delegated-header servers). */
	public @Nullable McpPrincipal principal() {
		return this.principal;
	}

	/** The parsed JSON-RPC message of a POST, {@code null} for GET and DELETE. */
	public @Nullable JsonRpcMessage message() {
		return this.message;
	}

	public @Nullable String sessionId() {
		return this.sessionId;
	}

	/** Whether the request is of a stateless MCP revision (2026-07-28 or later). */
	public boolean stateless() {
		return this.stateless;
	}

	public long startNanos() {
		return this.startNanos;
	}

	public Decision decision() {
		return this.decision;
	}

	public @Nullable String errorCode() {
		return (this.error != null) ? this.error.code() : null;
	}

	/** Why the request was refused, where the error code alone does not say. */
	public @Nullable RefusalReason reason() {
		return this.reason;
	}

	/** What the upstream guard and the proxy record about the upstream exchange. */
	public UpstreamExchange upstream() {
		return this.upstream;
	}

	/** The JSON-RPC id to echo in an error, {@code null} when there is none. */
	public @Nullable JsonNode requestId() {
		return (this.message != null) ? this.message.id() : null;
	}

	/** The value a capability recorded in {@code slot}, or {@code null}. */
	public <T> @Nullable T get(ContextSlot<T> slot) {
		return this.slots.get(slot);
	}

	void parsed(@Nullable String sessionId, @Nullable JsonRpcMessage message, boolean stateless) {
		this.sessionId = sessionId;
		this.message = message;
		this.stateless = stateless;
	}

	/** Records a refusal (or a failure after dispatch); the decision follows. */
	void refused(GatewayError error, @Nullable RefusalReason reason) {
		Assert.notNull(error, "error must not be null");
		this.decision = Decision.of(error);
		this.error = error;
		this.reason = reason;
	}

	void allowed() {
		this.decision = Decision.ALLOWED;
	}

}
