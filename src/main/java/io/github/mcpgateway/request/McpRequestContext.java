package io.github.mcpgateway.request;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.identity.McpPrincipal;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import tools.jackson.databind.JsonNode;

/**
 * What the pipeline has learned about one MCP request, carried from filter to filter.
 *
 * <p>
 * Created by {@link McpRequestFilter} once the server is resolved and the body parsed;
 * each later stage publishes a new value with a {@code with*} method (the record is
 * immutable, the request attribute is replaced). Only one place reads and parses the
 * body; everything after reuses {@link #message()}.
 *
 * @param server the MCP server from the live policy, as it was when the request arrived
 * @param principal the verified caller, {@code null} when there is none (delegated-header
 * servers)
 * @param message the parsed JSON-RPC message of a POST, {@code null} for GET and DELETE
 * @param sessionId the {@code Mcp-Session-Id} the client sent, or {@code null}
 * @param startNanos {@link System#nanoTime()} when the request entered the MCP pipeline
 * @param decision what the gateway decided, {@link Decision#PENDING} until a stage
 * decides
 * @param errorCode the gateway error code answered, if any
 * @param dispatched whether the request was handed to the upstream; the idempotency layer
 * relies on this to tell "never executed" from "maybe executed"
 */
public record McpRequestContext(McpServerPolicy server, @Nullable McpPrincipal principal,
		@Nullable JsonRpcMessage message, @Nullable String sessionId, long startNanos, Decision decision,
		@Nullable String errorCode, boolean dispatched, @Nullable Idempotency idempotency) {

	private static final String ATTRIBUTE = McpRequestContext.class.getName();

	public McpRequestContext {
		Assert.notNull(server, "server must not be null");
		Assert.notNull(decision, "decision must not be null");
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

	/** Publishes this context on {@code request} for the stages after the caller. */
	public McpRequestContext bind(ServletRequest request) {
		request.setAttribute(ATTRIBUTE, this);
		return this;
	}

	public McpRequestContext withDecision(Decision decision, @Nullable String errorCode) {
		return new McpRequestContext(this.server, this.principal, this.message, this.sessionId, this.startNanos,
				decision, errorCode, this.dispatched, this.idempotency);
	}

	public McpRequestContext withDispatched(boolean dispatched) {
		return new McpRequestContext(this.server, this.principal, this.message, this.sessionId, this.startNanos,
				this.decision, this.errorCode, dispatched, this.idempotency);
	}

	public McpRequestContext withIdempotency(IdempotencyOutcome outcome, @Nullable String keyHash) {
		return new McpRequestContext(this.server, this.principal, this.message, this.sessionId, this.startNanos,
				this.decision, this.errorCode, this.dispatched, new Idempotency(outcome, keyHash));
	}

	/**
	 * The JSON-RPC id to echo in an error, {@code null} when the request has none or was
	 * not parsed.
	 */
	public @Nullable JsonNode requestId() {
		return (this.message != null) ? this.message.id() : null;
	}

	public @Nullable String method() {
		return (this.message != null) ? this.message.method() : null;
	}

	/**
	 * The Idempotency-Key trace of a keyed request.
	 *
	 * @param outcome what the stage did
	 * @param keyHash the first 16 hex characters of the scoped key hash, {@code null}
	 * when the key was refused before it could be scoped
	 */
	public record Idempotency(IdempotencyOutcome outcome, @Nullable String keyHash) {
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
