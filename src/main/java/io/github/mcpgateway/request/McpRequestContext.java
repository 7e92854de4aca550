package io.github.mcpgateway.request;

import java.time.Duration;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * What the pipeline has learned about one MCP request, one object per request, shared by
 * every stage and by the proxy: the one request attribute of the gateway's own.
 *
 * <p>
 * The rule of use: a stage reads the context when it needs a value, never a copy it took
 * earlier, and records its result on the context itself. There is one instance per
 * request, so whatever a later stage records ({@link #dispatched()}, for example) is what
 * an earlier stage's {@link Completion} sees. What is fixed when the request enters the
 * pipeline (the server from the policy snapshot of the request, the principal, the start
 * time) is final; each other member is recorded by the one stage that owns it:
 * <ul>
 * <li>the request stage: {@link #message()}, {@link #sessionId()} and
 * {@link #stateless()};</li>
 * <li>the pipeline: {@link #decision()}, from the first refusal
 * ({@link #refused(GatewayError, String)}, the decision derived from the error) or
 * {@link #allowed()};</li>
 * <li>the Idempotency-Key stage: {@link #idempotency()} and the {@link #replyTap()} the
 * proxy shows the reply to;</li>
 * <li>the task stage: {@link #task()} and {@link #createdTaskLifetime()};</li>
 * <li>the upstream credentials stage: {@link #upstreamAuth()} and
 * {@link #upstreamCredential()};</li>
 * <li>the upstream guard and the proxy: {@link #dispatched()}, {@link #replyCutShort()}
 * and the {@link #upstreamCall()} a cancellation aborts.</li>
 * </ul>
 * Not thread-safe, but for {@link #upstreamCall()}: a request is handled on one thread.
 */
public final class McpRequestContext {

	private static final String ATTRIBUTE = McpRequestContext.class.getName();

	private final McpServerPolicy server;

	private final @Nullable McpPrincipal principal;

	private final long startNanos;

	private @Nullable JsonRpcMessage message;

	private @Nullable String sessionId;

	private boolean stateless;

	private Decision decision = Decision.PENDING;

	private @Nullable GatewayError error;

	private @Nullable String reason;

	private boolean dispatched;

	private boolean replyCutShort;

	private volatile @Nullable UpstreamCall upstreamCall;

	private @Nullable ReplyTap replyTap;

	private @Nullable Keyed idempotency;

	private int grantIndex = -1;

	private @Nullable DeferredCharge deferredCharge;

	private @Nullable Credential upstreamAuth;

	private @Nullable UpstreamCredential upstreamCredential;

	private @Nullable Task task;

	private @Nullable Duration createdTaskLifetime;

	private McpRequestContext(McpServerPolicy server, @Nullable McpPrincipal principal, long startNanos) {
		Assert.notNull(server, "server must not be null");
		this.server = server;
		this.principal = principal;
		this.startNanos = startNanos;
	}

	/**
	 * Opens the context of {@code request}: the server and principal it is decided for,
	 * and {@link io.github.mcpgateway.clock.GatewayClock#nanoTime()} when it entered the
	 * pipeline.
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
	 * {@link McpPipelineFilter}.
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

	/**
	 * Whether the request is of a stateless MCP revision (2026-07-28 or later, from its
	 * {@code MCP-Protocol-Version}).
	 */
	public boolean stateless() {
		return this.stateless;
	}

	public long startNanos() {
		return this.startNanos;
	}

	public Decision decision() {
		return this.decision;
	}

	/** The gateway error answered or recorded, if any. */
	public @Nullable GatewayError error() {
		return this.error;
	}

	/** The code of the gateway error answered or recorded, if any. */
	public @Nullable String errorCode() {
		return (this.error != null) ? this.error.code() : null;
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

	/**
	 * The upstream exchange once the proxy sent the request, or {@code null}; another
	 * thread (a cancellation, a shutdown) may abort it.
	 */
	public @Nullable UpstreamCall upstreamCall() {
		return this.upstreamCall;
	}

	/** What the proxy shows every byte of the reply to, or {@code null}. */
	public @Nullable ReplyTap replyTap() {
		return this.replyTap;
	}

	/**
	 * The index in the server's {@code grants} of the grant that allowed the request, or
	 * {@code -1} when the grant stage did not allow it (yet).
	 */
	public int grantIndex() {
		return this.grantIndex;
	}

	/** How the Idempotency-Key stage handled a keyed request, or {@code null}. */
	public @Nullable Keyed idempotency() {
		return this.idempotency;
	}

	/** How the upstream credential was obtained, {@code null} when none was needed. */
	public @Nullable Credential upstreamAuth() {
		return this.upstreamAuth;
	}

	/**
	 * What the upstream receives in place of the caller's credentials, or {@code null}.
	 */
	public @Nullable UpstreamCredential upstreamCredential() {
		return this.upstreamCredential;
	}

	/** How the task stage handled the request, {@code null} when it did not. */
	public @Nullable Task task() {
		return this.task;
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

	void parsed(@Nullable String sessionId, @Nullable JsonRpcMessage message, boolean stateless) {
		this.sessionId = sessionId;
		this.message = message;
		this.stateless = stateless;
	}

	/**
	 * Records that the request was refused (or, after dispatch, failed) with
	 * {@code error}; the {@link Decision} follows from the error.
	 * @param reason why, where the error code alone does not say
	 */
	public void refused(GatewayError error, @Nullable String reason) {
		Assert.notNull(error, "error must not be null");
		this.decision = Decision.of(error);
		this.error = error;
		this.reason = reason;
	}

	/** Records that every stage let the request through. */
	void allowed() {
		this.decision = Decision.ALLOWED;
	}

	public void dispatched(boolean dispatched) {
		this.dispatched = dispatched;
	}

	public void replyCutShort(boolean replyCutShort) {
		this.replyCutShort = replyCutShort;
	}

	public void upstreamCall(UpstreamCall call) {
		this.upstreamCall = call;
	}

	public void replyTap(ReplyTap tap) {
		this.replyTap = tap;
	}

	/**
	 * Leaves {@code charge} to run once the request is known to run ({@link #charge()}):
	 * the quota stage's charge of a keyed {@code tools/call}, which a replay must not
	 * consume.
	 */
	public void deferCharge(DeferredCharge charge) {
		this.deferredCharge = charge;
	}

	/**
	 * Runs the deferred charge, if one is left, once: the Idempotency-Key stage calls it
	 * when a keyed call is about to run (not a replay, not refused), and the pipeline
	 * before dispatch, for a request no stage charged.
	 * @return the refusal, or {@code null} when the request may run
	 */
	public StageDecision.@Nullable Refuse charge() {
		DeferredCharge charge = this.deferredCharge;
		this.deferredCharge = null;
		return (charge != null) ? charge.charge() : null;
	}

	/** Records which grant allowed the request. */
	public void granted(int grantIndex) {
		this.grantIndex = grantIndex;
	}

	/** Records how the Idempotency-Key stage handled the request. */
	public void idempotency(AuditTag outcome, @Nullable String keyHash) {
		this.idempotency = new Keyed(outcome, keyHash);
	}

	/** Records how the upstream credentials stage handled the request. */
	public void upstreamAuth(UpstreamAuth.Mode mode, AuditTag outcome, @Nullable UpstreamCredential credential) {
		this.upstreamAuth = new Credential(mode, outcome);
		this.upstreamCredential = credential;
	}

	/** Records how the task stage handled the request. */
	public void task(AuditTag outcome, @Nullable String taskIdHash, @Nullable String tool) {
		this.task = new Task(outcome, taskIdHash, tool);
	}

	/** Records that this call created a task that lives up to {@code lifetime}. */
	public void taskCreated(Duration lifetime) {
		this.createdTaskLifetime = lifetime;
	}

	/**
	 * The Idempotency-Key stage's result.
	 *
	 * @param outcome {@code first}, {@code replay}, ...
	 * @param keyHash the first 16 hex characters of the scoped key hash, when the key was
	 * scoped
	 */
	public record Keyed(AuditTag outcome, @Nullable String keyHash) {
	}

	/**
	 * The upstream credentials stage's result.
	 *
	 * @param mode the server's upstream credential mode ({@code token-exchange},
	 * {@code client-credentials})
	 * @param outcome {@code cached}, {@code fetched}, {@code refused} or
	 * {@code unavailable}
	 */
	public record Credential(UpstreamAuth.Mode mode, AuditTag outcome) {
	}

	/**
	 * The task stage's result.
	 *
	 * @param outcome {@code created}, {@code allowed}, {@code not_found}, ...
	 * @param taskIdHash the first 16 hex characters of the task id's hash, never the id
	 * @param tool the tool the request's task was created by, {@code null} for other
	 * requests or an unknown task
	 */
	public record Task(AuditTag outcome, @Nullable String taskIdHash, @Nullable String tool) {
	}

	/** The gateway's decision on a request, as audited and counted. */
	public enum Decision {

		/** No stage has decided yet. */
		PENDING,
		/** Allowed and forwarded upstream, or answered by a stage (a replay). */
		ALLOWED,
		/** Refused by identity, session, revocation, policy or a task's binding. */
		DENIED,
		/** Refused as malformed or unsupported. */
		INVALID,
		/**
		 * Refused before dispatch: to protect the upstream or the gateway (circuit
		 * breaker, bulkhead, connection pool, a store that cannot answer, a per-caller
		 * bound), or by the Idempotency-Key contract (conflict, in flight, tombstone,
		 * capacity).
		 */
		REFUSED,
		/**
		 * Forwarded, but the upstream failed, timed out or sent what cannot be relayed.
		 */
		UPSTREAM_ERROR;

		/** The decision a refusal with {@code error} stands for, from its category. */
		public static Decision of(GatewayError error) {
			return switch (error.category()) {
				case UNAUTHENTICATED, FORBIDDEN, NOT_FOUND, INVALID_PARAMS -> DENIED;
				case INVALID_REQUEST, TOO_LARGE, HEADER_MISMATCH -> INVALID;
				case UNAVAILABLE, IDEMPOTENCY_CONFLICT, IDEMPOTENCY_CAPACITY, CAPACITY -> REFUSED;
				case UPSTREAM_FAILED, UPSTREAM_TIMEOUT -> UPSTREAM_ERROR;
				// The gateway failed (500), or a service it depends on cannot answer
				// (503).
				case INTERNAL -> (error.status().value() == 503) ? REFUSED : INVALID;
			};
		}

		/** The lower-case name of the audit line and the meters. */
		public String tag() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

}
