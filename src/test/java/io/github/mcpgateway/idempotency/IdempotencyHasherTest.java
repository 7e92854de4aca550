package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.TestJsonRpc;

import static org.assertj.core.api.Assertions.assertThat;

class IdempotencyHasherTest {

	private static final McpPrincipal ALICE = new McpPrincipal("alice", "bot", "blue");

	private final JsonRpcMessageParser parser = TestJsonRpc.parser();

	/**
	 * The framing of the stored hashes, pinned: each field a 4-byte big-endian length and
	 * its UTF-8 bytes, -1 for an absent one. Entries in Redis were written with it.
	 */
	@Test
	void sha256WhenFieldsThenLengthPrefixedDigestAsStored() {
		assertThat(IdempotencyHasher.sha256("entry/v1", "key-1", null, "", "\u00fc"))
			.isEqualTo("35dc6662cb235fc14941d821783dbfbf6b47cb9162d90e389ce05026dc90953a");
	}

	@Test
	void requestHashIgnoresMemberOrderAndWhitespaceAtEveryDepth() {
		String a = hash("k", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\","
				+ "\"arguments\":{\"b\":[1,{\"y\":2,\"x\":1}],\"a\":\"s\"}}}");
		String b = hash("k", "{ \"params\" : { \"arguments\" : { \"a\" : \"s\" , \"b\" : [ 1 , { \"x\" : 1 , "
				+ "\"y\" : 2 } ] } , \"name\" : \"t\" } , \"method\" : \"tools/call\" , \"id\" : 1 , \"jsonrpc\":\"2.0\" }");

		assertThat(a).isEqualTo(b);
	}

	@Test
	void requestHashChangesWithKeyIdIdTypeToolAndAnyParamsValue() {
		String base = call("1", "t", "{\"n\":1}");
		String hash = hash("k", base);

		assertThat(hash("k2", base)).isNotEqualTo(hash);
		assertThat(hash("k", call("2", "t", "{\"n\":1}"))).isNotEqualTo(hash);
		assertThat(hash("k", call("\"1\"", "t", "{\"n\":1}"))).as("id type").isNotEqualTo(hash);
		assertThat(hash("k", call("1", "u", "{\"n\":1}"))).isNotEqualTo(hash);
		assertThat(hash("k", call("1", "t", "{\"n\":2}"))).isNotEqualTo(hash);
		assertThat(hash("k", call("1", "t", "{\"n\":\"1\"}"))).isNotEqualTo(hash);
		assertThat(hash("k", call("1", "t", "{\"n\":1,\"m\":null}"))).isNotEqualTo(hash);
	}

	@Test
	void requestHashKeepsNumbersExactWhereADoubleWouldRound() {
		assertThat(hash("k", call("1", "t", "{\"amount\":9007199254740993}")))
			.isNotEqualTo(hash("k", call("1", "t", "{\"amount\":9007199254740992}")));
		assertThat(hash("k", call("1", "t", "{\"amount\":0.10000000000000001}")))
			.isNotEqualTo(hash("k", call("1", "t", "{\"amount\":0.1}")));
		assertThat(hash("k", call("1", "t", "{\"amount\":1.0}")))
			.isEqualTo(hash("k", call("1", "t", "{\"amount\":1}")));
	}

	@Test
	void fieldsAreFramedSoConcatenationsCannotCollide() {
		assertThat(IdempotencyHasher.sha256("t", "ab", "c")).isNotEqualTo(IdempotencyHasher.sha256("t", "a", "bc"));
		assertThat(IdempotencyHasher.sha256("t", "", "x")).isNotEqualTo(IdempotencyHasher.sha256("t", null, "x"));
		assertThat(IdempotencyHasher.sha256("t", "a")).isNotEqualTo(IdempotencyHasher.sha256("u", "a"));
	}

	@Test
	void entryKeyIsScopedToPrincipalSessionAndServer() {
		JsonRpcMessage message = parse(call("1", "t", "{}"));
		String key = IdempotencyHasher.entry("k", ALICE, "s", "uid", message).entryKey();

		assertThat(IdempotencyHasher.entry("k", new McpPrincipal("bob", "bot", "blue"), "s", "uid", message).entryKey())
			.isNotEqualTo(key);
		assertThat(
				IdempotencyHasher.entry("k", new McpPrincipal("alice", null, "blue"), "s", "uid", message).entryKey())
			.isNotEqualTo(key);
		assertThat(IdempotencyHasher.entry("k", ALICE, "s2", "uid", message).entryKey()).isNotEqualTo(key);
		assertThat(IdempotencyHasher.entry("k", ALICE, null, "uid", message).entryKey()).isNotEqualTo(key);
		assertThat(IdempotencyHasher.entry("k", ALICE, "s", "uid2", message).entryKey()).isNotEqualTo(key);
		assertThat(key).hasSize(64).doesNotContain("alice");
	}

	/**
	 * The id's text in the request hash is what it was when the hash was the node's JSON
	 * text, so entries written by an earlier version (a shared Redis store during a
	 * rolling upgrade) still match their retries.
	 */
	@Test
	void numberIdTextIsTheIdsJsonText() {
		for (String id : new String[] { "1", "0", "-7", "1.0", "1.50", "1e3", "1E+3", "-2.5e-10", "0.000001",
				"12345678901234567890123", "9223372036854775807", "-0", "0.0" }) {
			JsonRpcMessage message = parse(call(id, "t", "{}"));
			assertThat(IdempotencyHasher.numberText(message.id())).as(id).isEqualTo(message.id().toString());
		}
		assertThat(hash("k", call("1e3", "t", "{}"))).isNotEqualTo(hash("k", call("1000", "t", "{}")));
		assertThat(hash("k", call("1.0", "t", "{}"))).isNotEqualTo(hash("k", call("1", "t", "{}")));
	}

	private String hash(String key, String body) {
		return IdempotencyHasher.entry(key, ALICE, "s", "uid", parse(body)).requestHash();
	}

	private JsonRpcMessage parse(String body) {
		return this.parser.parse(body.getBytes(StandardCharsets.UTF_8));
	}

	private static String call(String id, String tool, String arguments) {
		return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
				+ "\",\"arguments\":" + arguments + "}}";
	}

	@Test
	void callIdentityThatACancellationNamesDependsOnPrincipalSessionServerAndIdWithItsType() {
		JsonNode one = this.parser.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).id();
		JsonNode oneAsText = this.parser.parse(bytes("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"method\":\"ping\"}")).id();
		String identity = IdempotencyHasher.callIdentity(ALICE, "s-1", "uid-1", one);

		assertThat(IdempotencyHasher.callIdentity(ALICE, "s-1", "uid-1", one)).isEqualTo(identity);
		assertThat(List.of(IdempotencyHasher.callIdentity(new McpPrincipal("bob", "bot", "blue"), "s-1", "uid-1", one),
				IdempotencyHasher.callIdentity(ALICE, "s-2", "uid-1", one),
				IdempotencyHasher.callIdentity(ALICE, null, "uid-1", one),
				IdempotencyHasher.callIdentity(ALICE, "s-1", "uid-2", one),
				IdempotencyHasher.callIdentity(ALICE, "s-1", "uid-1", oneAsText)))
			.doesNotContain(identity)
			.doesNotHaveDuplicates();
	}

	private static byte[] bytes(String json) {
		return json.getBytes(StandardCharsets.UTF_8);
	}

}
