package io.github.mcpgateway.idempotency;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.NullNode;

import io.github.mcpgateway.idempotency.IdempotencyStore.TombstoneKind;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * The keyed calls this process is running, by the identity a {@code
 * notifications/cancelled} can name: the caller's scope (principal and session), the
 * server's UID and the JSON-RPC id.
 *
 * <p>
 * Design notes. A call is settled exactly once, either by its own thread when the chain
 * returns or by a cancellation: {@link Call#claim()} decides which, so a response that
 * wins the race keeps its normal outcome, and a cancellation that wins leaves a tombstone
 * that the call's thread does not overwrite. A call leaves the map when its thread is
 * done, whoever settled it. A cancellation for a call of another scope or server finds
 * nothing: the scope and the server UID are part of the identity.
 */
final class InFlightCalls {

	private static final Log logger = LogFactory.getLog(InFlightCalls.class);

	private static final String CANCELLED = "notifications/cancelled";

	private final ConcurrentMap<String, Call> calls = new ConcurrentHashMap<>();

	/** Registers the keyed call of {@code context}, before it goes down the chain. */
	Call start(McpRequestContext context, IdempotencyEntry entry) {
		String identity = identity(context, context.requestId());
		Call call = new Call(identity, entry, context);
		this.calls.put(identity, call);
		return call;
	}

	/**
	 * Settles the keyed call a {@code notifications/cancelled} names, if it is in flight
	 * in the same scope (principal, session) and server: outcome unknown at once (the
	 * tool may have run part-way), its in-flight slot freed, its upstream exchange ended.
	 * A response that settled the call first keeps its outcome; a cancellation of another
	 * caller's call, or of nothing, changes nothing.
	 * @return the cancelled call's key hash (for the audit line), or {@code null}
	 */
	@Nullable String cancel(McpRequestContext context, IdempotencyStore store) {
		JsonNode requestId = cancelledId(context);
		if (requestId == null || context.principal() == null || context.server().uid() == null) {
			return null;
		}
		Call call = this.calls.get(identity(context, requestId));
		if (call == null || !call.claim()) {
			return null;
		}
		try {
			store.tombstone(call.entry(), TombstoneKind.OUTCOME_UNKNOWN);
		}
		catch (IdempotencyStoreException ex) {
			// The entry stays in flight until its lease lapses, then becomes an
			// outcome-unknown tombstone.
			logger.error("Could not record a cancelled Idempotency-Key call: " + ex.getMessage());
		}
		call.abortUpstream();
		return call.entry().entryKey().substring(0, 16);
	}

	/** The {@code requestId} of a {@code notifications/cancelled}, else {@code null}. */
	static @Nullable JsonNode cancelledId(McpRequestContext context) {
		JsonRpcMessage message = context.message();
		if (message == null || message.kind() != JsonRpcMessage.Kind.NOTIFICATION || !CANCELLED.equals(message.method())
				|| message.params() == null) {
			return null;
		}
		JsonNode id = message.params().get("requestId");
		return (id != null && (id.isString() || id.isNumber())) ? id : null;
	}

	private static String identity(McpRequestContext context, @Nullable JsonNode id) {
		McpPrincipal principal = context.principal();
		String uid = context.server().uid();
		if (principal == null || uid == null) {
			// Keyed calls always have both (the contract); nothing can name this one.
			return "";
		}
		return IdempotencyHasher.callIdentity(principal, context.sessionId(), uid,
				(id != null) ? id : NullNode.getInstance());
	}

	void finish(Call call) {
		this.calls.remove(call.identity, call);
	}

	/** One keyed call in flight. */
	static final class Call {

		private final String identity;

		private final IdempotencyEntry entry;

		private final McpRequestContext context;

		private final AtomicBoolean settled = new AtomicBoolean();

		private Call(String identity, IdempotencyEntry entry, McpRequestContext context) {
			this.identity = identity;
			this.entry = entry;
			this.context = context;
		}

		IdempotencyEntry entry() {
			return this.entry;
		}

		/** Whether the caller is the one to settle the call (true exactly once). */
		boolean claim() {
			return this.settled.compareAndSet(false, true);
		}

		/** Ends the call's upstream exchange, if it was sent. */
		void abortUpstream() {
			UpstreamCall upstream = this.context.upstream().call();
			if (upstream != null) {
				upstream.abort();
			}
		}

	}

}
