package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.TestJsonRpc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property-based checks with seeded generators (the seed is in each assertion message, so
 * a failure can be replayed): key validation, request-hash invariance and sensitivity,
 * framing.
 */
class IdempotencyPropertiesTest {

	private static final long SEED = 20261130L;

	private static final McpPrincipal PRINCIPAL = new McpPrincipal("alice", "bot", "blue");

	private final JsonRpcMessageParser parser = TestJsonRpc.parser();

	@Test
	void keyValidationAcceptsExactlyOneTo255VisibleAsciiCharacters() {
		Random random = new Random(SEED);
		for (int i = 0; i < 20_000; i++) {
			int length = random.nextInt(300);
			StringBuilder key = new StringBuilder();
			boolean visible = true;
			for (int c = 0; c < length; c++) {
				char ch = (random.nextInt(4) == 0) ? (char) random.nextInt(0x300) : (char) (0x21 + random.nextInt(94));
				visible &= ch >= 0x21 && ch <= 0x7E;
				key.append(ch);
			}
			boolean expected = length >= 1 && length <= 255 && visible;
			assertThat(IdempotencyKey.isValid(key.toString())).as("seed %d sample %d", SEED, i).isEqualTo(expected);
		}
	}

	@Test
	void requestHashIgnoresMemberOrderAndWhitespaceAndChangesWithEveryValue() {
		Random random = new Random(SEED);
		for (int i = 0; i < 500; i++) {
			Node arguments = Node.object(random, 3);
			String hash = hash("k", "t", "1", arguments.render(random, false, false));

			assertThat(hash("k", "t", "1", arguments.render(random, true, true))).as("seed %d sample %d", SEED, i)
				.isEqualTo(hash);
			Node mutated = arguments.mutate(random);
			assertThat(hash("k", "t", "1", mutated.render(random, false, false))).as("mutated, sample %d", i)
				.isNotEqualTo(hash);
			assertThat(hash("k2", "t", "1", arguments.render(random, false, false))).isNotEqualTo(hash);
			assertThat(hash("k", "u", "1", arguments.render(random, false, false))).isNotEqualTo(hash);
			assertThat(hash("k", "t", "2", arguments.render(random, false, false))).isNotEqualTo(hash);
			assertThat(hash("k", "t", "\"1\"", arguments.render(random, false, false))).isNotEqualTo(hash);
		}
	}

	@Test
	void framingNeverLetsTwoDifferentFieldListsCollide() {
		Random random = new Random(SEED);
		for (int i = 0; i < 5_000; i++) {
			String joined = randomText(random, 1 + random.nextInt(12));
			int cut = random.nextInt(joined.length() + 1);
			int otherCut = random.nextInt(joined.length() + 1);
			if (cut == otherCut) {
				continue;
			}
			assertThat(IdempotencyHasher.sha256("t", joined.substring(0, cut), joined.substring(cut)))
				.as("seed %d sample %d", SEED, i)
				.isNotEqualTo(IdempotencyHasher.sha256("t", joined.substring(0, otherCut), joined.substring(otherCut)));
		}
	}

	private String hash(String key, String tool, String id, String arguments) {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
				+ "\",\"arguments\":" + arguments + "}}";
		JsonRpcMessage message = this.parser.parse(body.getBytes(StandardCharsets.UTF_8));
		return IdempotencyHasher.entry(key, PRINCIPAL, "s", "uid", message).requestHash();
	}

	private static String randomText(Random random, int length) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < length; i++) {
			text.append((char) ('a' + random.nextInt(3)));
		}
		return text.toString();
	}

	/**
	 * A random JSON value that can be rendered in any member order and spacing, and
	 * mutated.
	 */
	private record Node(String scalar, List<String> names, List<Node> children, boolean array) {

		static Node object(Random random, int depth) {
			List<String> names = new ArrayList<>();
			List<Node> children = new ArrayList<>();
			int size = 1 + random.nextInt(4);
			for (int i = 0; i < size; i++) {
				names.add("m" + i + randomText(random, 2));
				children.add(value(random, depth - 1));
			}
			return new Node(null, names, children, false);
		}

		static Node value(Random random, int depth) {
			int kind = random.nextInt((depth > 0) ? 6 : 4);
			return switch (kind) {
				case 0 -> new Node("\"" + randomText(random, random.nextInt(6)) + "\"", null, null, false);
				case 1 -> new Node(Long.toString(random.nextLong() >> random.nextInt(60)), null, null, false);
				case 2 -> new Node(random.nextBoolean() ? "true" : "null", null, null, false);
				case 3 -> new Node(random.nextInt(1000) + "." + (1 + random.nextInt(999)), null, null, false);
				case 4 -> object(random, depth);
				default -> {
					List<Node> items = new ArrayList<>();
					for (int i = 0; i < 1 + random.nextInt(3); i++) {
						items.add(value(random, depth - 1));
					}
					yield new Node(null, null, items, true);
				}
			};
		}

		String render(Random random, boolean shuffle, boolean spaces) {
			if (this.scalar != null) {
				return this.scalar;
			}
			String gap = spaces ? " \n\t".substring(0, 1 + random.nextInt(3)) : "";
			List<Integer> order = new ArrayList<>();
			for (int i = 0; i < this.children.size(); i++) {
				order.add(i);
			}
			if (shuffle && !this.array) {
				Collections.shuffle(order, random);
			}
			StringBuilder out = new StringBuilder(this.array ? "[" : "{").append(gap);
			for (int i = 0; i < order.size(); i++) {
				int index = order.get(i);
				if (i > 0) {
					out.append(gap).append(',').append(gap);
				}
				if (!this.array) {
					out.append('"').append(this.names.get(index)).append('"').append(gap).append(':').append(gap);
				}
				out.append(this.children.get(index).render(random, shuffle, spaces));
			}
			return out.append(gap).append(this.array ? "]" : "}").toString();
		}

		/** The same value with one leaf changed to something else. */
		Node mutate(Random random) {
			if (this.scalar != null) {
				return new Node(this.scalar.equals("\"x-mutated\"") ? "\"y-mutated\"" : "\"x-mutated\"", null, null,
						false);
			}
			List<Node> changed = new ArrayList<>(this.children);
			int index = random.nextInt(changed.size());
			changed.set(index, changed.get(index).mutate(random));
			return new Node(null, this.names, changed, this.array);
		}

	}

}
