package io.github.mcpgateway.transport;

import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;

import static org.assertj.core.api.Assertions.assertThat;

class ListResultFilterTest {

	private static final JsonMapper json = JsonMapper.builder().build();

	private final ListResultFilter tasks = new ListResultFilter(new StrictJsonReader(JsonReadLimits.DEFAULTS, 1 << 20),
			json, "tasks", "taskId", (ids) -> Set.of("mine"));

	private final ListResultFilter sealing = this.tasks.withCursors((cursor) -> "sealed(" + cursor + ")");

	@Test
	void withoutACursorRewriteTheUpstreamCursorIsKept() {
		MessageFilter.Verdict verdict = this.tasks.filter(bytes("""
				{"jsonrpc":"2.0","id":1,"result":{"tasks":[{"taskId":"mine"}],"nextCursor":"theirs"}}"""));

		assertThat(verdict).isEqualTo(MessageFilter.Verdict.PASS);
	}

	@Test
	void withACursorRewriteEveryStringCursorIsReplacedEvenOnAPageLeftWhole() {
		MessageFilter.Verdict verdict = this.sealing.filter(bytes("""
				{"jsonrpc":"2.0","id":1,"result":{"tasks":[{"taskId":"mine"}],"nextCursor":"theirs"}}"""));

		assertThat(verdict.kind()).isEqualTo(MessageFilter.Kind.REWRITE);
		assertThat(json.readTree(verdict.rewritten()).at("/result/nextCursor").asString()).isEqualTo("sealed(theirs)");
	}

	@Test
	void filteredPageGetsItsCursorReplacedAndAPageWithoutOneNone() {
		MessageFilter.Verdict filtered = this.sealing.filter(
				bytes("""
						{"jsonrpc":"2.0","id":1,"result":{"tasks":[{"taskId":"mine"},{"taskId":"theirs"}],"nextCursor":"theirs"}}"""));
		MessageFilter.Verdict last = this.sealing.filter(bytes("""
				{"jsonrpc":"2.0","id":1,"result":{"tasks":[{"taskId":"mine"}]}}"""));

		assertThat(new String(filtered.rewritten(), StandardCharsets.UTF_8)).doesNotContain("\"theirs\"")
			.contains("sealed(theirs)");
		assertThat(last).isEqualTo(MessageFilter.Verdict.PASS);
	}

	@Test
	void cursorThatIsNotAStringOrHasNoListToReadItByIsWithheld() {
		assertThat(this.sealing.filter(bytes("""
				{"jsonrpc":"2.0","id":1,"result":{"tasks":[],"nextCursor":{"id":"theirs"}}}""")))
			.isEqualTo(MessageFilter.Verdict.WITHHOLD);
		assertThat(this.sealing.filter(bytes("""
				{"jsonrpc":"2.0","id":1,"result":{"nextCursor":"theirs"}}""")))
			.isEqualTo(MessageFilter.Verdict.WITHHOLD);
		assertThat(this.tasks.filter(bytes("""
				{"jsonrpc":"2.0","id":1,"result":{"nextCursor":"theirs"}}"""))).isEqualTo(MessageFilter.Verdict.PASS);
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
