package io.github.mcpgateway.idempotency;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.transport.McpMetaKeys;

/**
 * The hashes of the contract, each SHA-256 over length-prefixed fields so that no two
 * different field lists share an input (a field is a 4-byte big-endian length and its
 * UTF-8 bytes; an absent value has length -1, so {@code null} and {@code ""} differ).
 * Each input starts with a domain tag, so a hash of one kind can never equal a hash of
 * another.
 * <ul>
 * <li>entry key: the key, the principal (human, agent, team), the session id, the server
 * UID;</li>
 * <li>request hash: the key, the JSON-RPC method, the tool name, the id with its type
 * ({@code 1} and {@code "1"} differ) and the canonical params
 * ({@link CanonicalJson});</li>
 * <li>the request hash of a stateless request (2026-07-28), whose retries carry a new
 * JSON-RPC id by rule: the key, the method, the tool name and the canonical params
 * without what differs between attempts of one operation ({@link #PER_ATTEMPT_META} in
 * {@code _meta}, and the multi round-trip members {@link #ROUND_TRIP}); a domain tag of
 * its own;</li>
 * <li>the request hash of a key sent in {@code params._meta} (ADR 0020), whose caller
 * retries by calling again: as a stateless request's, and without the key member too,
 * under a domain tag of its own;</li>
 * <li>scope, principal and human ids: the quota levels of the store. The scope is the
 * principal and the session; without a session, the principal and the server UID. The
 * human id covers the human alone, across every agent and team (ADR 0019).</li>
 * </ul>
 */
final class IdempotencyHasher {

	/**
	 * {@code params._meta} members that belong to one attempt, not to the operation: the
	 * progress token (a new one per attempt) and the trace context (SEP-414: a new span
	 * per attempt).
	 */
	static final List<String> PER_ATTEMPT_META = List.of("progressToken", "traceparent", "tracestate", "baggage");

	/**
	 * {@code params} members a multi round-trip follow-up adds to the original request
	 * (2026-07-28 {@code basic/patterns/mrtr}): the follow-up continues the same
	 * operation.
	 */
	static final List<String> ROUND_TRIP = List.of("inputResponses", "requestState");

	private IdempotencyHasher() {
	}

	static IdempotencyEntry entry(String key, McpPrincipal principal, @Nullable String sessionId, String serverUid,
			JsonRpcMessage message) {
		return entry(key, principal, sessionId, serverUid, message, true);
	}

	/**
	 * @param withId whether the request hash covers the JSON-RPC id (the contract);
	 * without it ({@code request-hash: without-jsonrpc-id}) the hash has a domain tag of
	 * its own, so the two kinds never equal
	 */
	static IdempotencyEntry entry(String key, McpPrincipal principal, @Nullable String sessionId, String serverUid,
			JsonRpcMessage message, boolean withId) {
		return entry(key, principal, sessionId, serverUid, message, withId ? Hash.WITH_ID : Hash.WITHOUT_ID);
	}

	static IdempotencyEntry entry(String key, McpPrincipal principal, @Nullable String sessionId, String serverUid,
			JsonRpcMessage message, Hash hash) {
		String entryKey = sha256("entry/v1", key, principal.human(), principal.agent(), principal.team(), sessionId,
				serverUid);
		String requestHash = switch (hash) {
			case WITH_ID -> sha256("request/v1", key, message.method(), message.toolName(), id(message.id()),
					canonical(message.params()));
			case WITHOUT_ID ->
				sha256("request/v1-without-id", key, message.method(), message.toolName(), canonical(message.params()));
			case STATELESS -> sha256("request/v2026", key, message.method(), message.toolName(),
					canonical(operation(message.params())));
			case IN_MESSAGE -> sha256("request/v1-meta", key, message.method(), message.toolName(),
					canonical(operation(message.params())));
		};
		String scopeId = (sessionId != null)
				? sha256("scope/v1", principal.human(), principal.agent(), principal.team(), sessionId)
				: sha256("scope/v1-server", principal.human(), principal.agent(), principal.team(), serverUid);
		String principalId = sha256("principal/v1", principal.human(), principal.agent(), principal.team());
		String humanId = sha256("human/v1", principal.human());
		return new IdempotencyEntry(entryKey, requestHash, scopeId, principalId, humanId);
	}

	private static @Nullable String canonical(@Nullable JsonNode params) {
		return (params != null) ? CanonicalJson.of(params) : null;
	}

	/**
	 * {@code params} without what differs between attempts of one operation, and without
	 * the key's own member, which the key field already covers.
	 */
	private static @Nullable JsonNode operation(@Nullable JsonNode params) {
		if (!(params instanceof ObjectNode object)) {
			return params;
		}
		ObjectNode operation = object.deepCopy();
		operation.remove(ROUND_TRIP);
		if (operation.get("_meta") instanceof ObjectNode meta) {
			meta.remove(PER_ATTEMPT_META);
			meta.remove(McpMetaKeys.IDEMPOTENCY_KEY);
		}
		return operation;
	}

	/** What a request hash covers. */
	enum Hash {

		/** The contract: the JSON-RPC id too. */
		WITH_ID,
		/** {@code request-hash: without-jsonrpc-id}. */
		WITHOUT_ID,
		/** A stateless (2026-07-28) request: neither the id nor per-attempt members. */
		STATELESS,
		/**
		 * A key sent in {@code _meta}: as {@link #STATELESS}, under a tag of its own.
		 */
		IN_MESSAGE

	}

	/**
	 * The identity of a keyed call that a {@code notifications/cancelled} can name: the
	 * caller's scope (principal and session), the server UID and the JSON-RPC id with its
	 * type.
	 */
	static String callIdentity(McpPrincipal principal, @Nullable String sessionId, String serverUid, JsonNode id) {
		return sha256("call/v1", principal.human(), principal.agent(), principal.team(), sessionId, serverUid, id(id));
	}

	/** The id with its JSON type: {@code n:1}, {@code s:1} or {@code null}. */
	private static @Nullable String id(@Nullable JsonNode id) {
		if (id == null || id.isNull()) {
			return null;
		}
		// The id exactly as sent (1 and 1.0 differ): it is echoed in the reply a retry
		// replays.
		return id.isString() ? "s:" + id.stringValue() : "n:" + numberText(id);
	}

	/**
	 * A number id's text as JSON writes it (what {@code JsonNode.toString()} gives,
	 * without a serializer per call): integers as digits, and decimals, which the parser
	 * reads exactly, as their {@code BigDecimal} text.
	 */
	static String numberText(JsonNode number) {
		return number.numberValue().toString();
	}

	static String sha256(String tag, @Nullable String... fields) {
		return Sha256.hex((digest) -> {
			update(digest, tag);
			for (String field : fields) {
				update(digest, field);
			}
		});
	}

	private static void update(MessageDigest digest, @Nullable String field) {
		if (field == null) {
			digest.update(ByteBuffer.allocate(4).putInt(-1).array());
			return;
		}
		byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
		digest.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
		digest.update(bytes);
	}

}
