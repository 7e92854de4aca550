package io.github.mcpgateway.request;

import java.time.Duration;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import tools.jackson.databind.JsonNode;

/**
 * What the pipeline has learned about one MCP request, one object per request, shared by
 * every stage.
 *
 * <p>
 * The rule of use: a stage reads the context when it needs a value, never a copy it took
 * earlier, and records what it decided on the context itself. There is one instance per
 * request, so whatever a later stage records ({@link #dispatched()}, for example) is what
 * an earlier stage sees once the chain returns. What is fixed when the request enters the
 * pipeline (the server from the policy snapshot of the request, the principal, the start
 * time) is final; the rest is recorded once by the stage that owns it:
 * <ul>
 * <li>the request stage: {@link #message()} and {@link #sessionId()};</li>
 * <li>every stage that refuses or allows: {@link #decide(Decision, GatewayError)}, with a
 * {@link #reason()} where the error code alone does not say why;</li>
 * <li>the upstream guard: {@link #dispatched()} and {@link #replyCutShort()};</li>
 * <li>the Idempotency-Key stage: {@link #idempotencyOutcome()} and
 * {@link #idempotencyKeyHash()};</li>
 * <li>the upstream credentials stage: {@link #upstreamAuth()} and
 * {@link #upstreamAuthOutcome()};</li>
 * <li>the task stage: {@link #taskOutcome()}, {@link #taskIdHash()}, {@link #taskTool()}
 * and {@link #createdTaskLifetime()}.</li>
 * </ul>
 * Not thread-safe: a request is handled on one thread.
 */
public final class McpRequestContext {

	private static final String ATTRIBUTE = McpRequestContext.class.getName();

	private final McpServerPolicy server;

	private final @Nullable McpPrincipal principal;

	private final long startNanos;

	private @Nullable JsonRpcMessage message;

	private @Nullable String sessionId;

	private Decision decision = Decision.PENDING;

	private @Nullable String errorCode;

	private @Nullable String reason;

	private boolean dispatched;

	private boolean replyCutShort;

	private @Nullable String idempotencyOutcome;

	private @Nullable String idempotencyKeyHash;

	private @Nullable String upstreamAuth;

	private @Nullable String upstreamAuthOutcome;

	private @Nullable String taskOutcome;

	private @Nullable String taskIdHash;

	private @Nullable String taskTool;

	private @Nullable Duration createdTaskLifetime;

	private McpRequestContext(McpServerPolicy server, @Nullable McpPrincipal principal, long startNanos) {
		Assert.notNull(server, "server must not be null");
		this.server = server;
		this.principal = principal;
		this.startNanos = startNanos;
	}

	/**
	 * Opens the context of {@code request}: the server and principal it is decided for,
	 * and {@link System#nanoTime()} when it entered the pipeline.
	 */
	static McpRequestContext open(ServletRequest request, McpServerPolicy server, @Nullable McpPrincipal principal,
			long startNanos) {
		McpRequestContext context = new McpRequestContext(server, principal, startNanos);
		request.setAttribute(ATTRIBUTE, context);
		return context;
	}

	/** The context of {@code request}, or {@code null} when it is not an MCP request. */
	public static @Nullable McpRequestContext find(ServletRequest request) {
		return (McpRequestContext) request.getAttribute(ATTRIBUTE);
	}

	/**
	 * The context of {@code request}; fails if the request did not pass
	 * {@link McpRequestFilter}.
	 */
	public static McpRequestContext require(ServletRequest request) {
		McpRequestContext context = find(request);
		Assert.state(context != null, "Not an MCP request: no McpRequestContext");
		return context;
	}

	/** The MCP server from the policy snapshot the request is decided against. */
	public McpServerPolicy server() {
		return this.server;
	}

	/**
	 * The verified caller, {@code null} when there is none (delegated-header servers).
	 */
	public @Nullable McpPrincipal principal() {
		return this.principal;
	}

	/** The parsed JSON-RPC message of a POST, {@code null} for GET and DELETE. */
	public @Nullable JsonRpcMessage message() {
		return this.message;
	}

	/** The {@code Mcp-Session-Id} the client sent, or {@code null}. */
	public @Nullable String sessionId() {
		return this.sessionId;
	}

	public long startNanos() {
		return this.startNanos;
	}

	public Decision decision() {
		return this.decision;
	}

	/** The code of the gateway error answered or recorded, if any. */
	public @Nullable String errorCode() {
		return this.errorCode;
	}

	/** Why, where the error code alone does not say (for the audit line only). */
	public @Nullable String reason() {
		return this.reason;
	}

	/**
	 * Whether the request was handed to the upstream; the idempotency stage relies on it
	 * to tell "never executed" from "maybe executed".
	 */
	public boolean dispatched() {
		return this.dispatched;
	}

	/** Whether the client left and the reply was therefore not read to its end. */
	public boolean replyCutShort() {
		return this.replyCutShort;
	}

	/** The Idempotency-Key outcome tag of a keyed request (audit and metrics). */
	public @Nullable String idempotencyOutcome() {
		return this.idempotencyOutcome;
	}

	/** The first 16 hex characters of the scoped key hash, when the key was scoped. */
	public @Nullable String idempotencyKeyHash() {
		return this.idempotencyKeyHash;
	}

	/**
	 * The server's upstream credential mode ({@code token-exchange},
	 * {@code client-credentials}), {@code null} when the upstream receives none.
	 */
	public @Nullable String upstreamAuth() {
		return this.upstreamAuth;
	}

	/**
	 * How the upstream credential was obtained: {@code cached}, {@code fetched},
	 * {@code refused} or {@code unavailable}.
	 */
	public @Nullable String upstreamAuthOutcome() {
		return this.upstreamAuthOutcome;
	}

	/**
	 * How the task stage handled the request ({@code created}, {@code allowed},
	 * {@code not_found}, ...), {@code null} when it did not.
	 */
	public @Nullable String taskOutcome() {
		return this.taskOutcome;
	}

	/** The first 16 hex characters of the task id's hash, never the id itself. */
	public @Nullable String taskIdHash() {
		return this.taskIdHash;
	}

	/**
	 * The tool a task request's task was created by, {@code null} for other requests or
	 * an unknown task.
	 */
	public @Nullable String taskTool() {
		return this.taskTool;
	}

	/**
	 * How long the task this {@code tools/call} created may live (its own ttl, capped),
	 * {@code null} when it created none. An Idempotency-Key entry of the call is kept as
	 * long, so that a retry within the task's life gets the same task.
	 */
	public @Nullable Duration createdTaskLifetime() {
		return this.createdTaskLifetime;
	}

	/**
	 * The JSON-RPC id to echo in an error, {@code null} when the request has none or was
	 * not parsed.
	 */
	public @Nullable JsonNode requestId() {
		return (this.message != null) ? this.message.id() : null;
	}

	void parsed(@Nullable String sessionId, @Nullable JsonRpcMessage message) {
		this.sessionId = sessionId;
		this.message = message;
	}

	/** Records the decision; {@code error} is the one answered or recorded, if any. */
	public void decide(Decision decision, @Nullable GatewayError error) {
		decide(decision, error, null);
	}

	/** Records the decision and why, when the error code alone does not say. */
	public void decide(Decision decision, @Nullable GatewayError error, @Nullable String reason) {
		Assert.notNull(decision, "decision must not be null");
		this.decision = decision;
		this.errorCode = (error != null) ? error.code() : null;
		this.reason = reason;
	}

	public void dispatched(boolean dispatched) {
		this.dispatched = dispatched;
	}

	public void replyCutShort(boolean replyCutShort) {
		this.replyCutShort = replyCutShort;
	}

	/** Records how the Idempotency-Key stage handled the request. */
	public void idempotency(String outcome, @Nullable String keyHash) {
		this.idempotencyOutcome = outcome;
		this.idempotencyKeyHash = keyHash;
	}

	/** Records how the upstream credentials stage handled the request. */
	public void upstreamAuth(String mode, String outcome) {
		this.upstreamAuth = mode;
		this.upstreamAuthOutcome = outcome;
	}

	/** Records how the task stage handled the request. */
	public void task(String outcome, @Nullable String taskIdHash, @Nullable String tool) {
		this.taskOutcome = outcome;
		this.taskIdHash = taskIdHash;
		this.taskTool = tool;
	}

	/** Records that this call created a task that lives up to {@code lifetime}. */
	public void taskCreated(Duration lifetime) {
		this.createdTaskLifetime = lifetime;
	}

	/** The gateway's decision on a request, as audited and counted. */
	public enum Decision {

		/** No stage has decided yet. */
		PENDING,
		/** Allowed and forwarded upstream. */
		ALLOWED,
		/** Refused by identity, session, revocation or policy. */
		DENIED,
		/** Refused as malformed or unsupported. */
		INVALID,
		/**
		 * Refused before dispatch: to protect the upstream (circuit breaker, bulkhead,
		 * connection pool), or by the Idempotency-Key contract (conflict, in flight,
		 * tombstone, capacity, store unavailable).
		 */
		REFUSED,
		/** Forwarded, but the upstream failed or timed out. */
		UPSTREAM_ERROR

	}

}
