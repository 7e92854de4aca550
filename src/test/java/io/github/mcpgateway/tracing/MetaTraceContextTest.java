package io.github.mcpgateway.tracing;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Trace context in {@code params._meta}: found in one pass whatever the member order,
 * replaced in place or not at all, and never an error for a body that is not what it
 * looks for.
 */
class MetaTraceContextTest {

	private static final String PARENT = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

	private static final String CHILD = "00-4bf92f3577b34da6a3ce929d0e0e4736-b7ad6b7169203331-01";

	@Test
	void findsTheContextAfterOtherMembersAndReplacesOnlyItsValue() {
		String body = "{\"id\":1,\"method\":\"tools/call\",\"params\":{\"arguments\":{\"_meta\":{\"traceparent\":\"x\"}},"
				+ "\"_meta\":{\"progressToken\":[1,{\"a\":2}],\"tracestate\":\"v=1\",\"traceparent\":\"" + PARENT
				+ "\"}},\"jsonrpc\":\"2.0\"}";

		MetaTraceContext context = MetaTraceContext.locate(bytes(body));

		assertThat(context).isNotNull();
		assertThat(context.traceparent()).isEqualTo(PARENT);
		assertThat(context.tracestate()).isEqualTo("v=1");
		assertThat(new String(context.rewrite(bytes(body), CHILD), StandardCharsets.UTF_8))
			.isEqualTo(body.replace(PARENT, CHILD));
	}

	@Test
	void aValueWrittenWithEscapesIsReadButNotReplaced() {
		String escaped = PARENT.replace("-", "\\u002d");
		byte[] body = bytes("{\"params\":{\"_meta\":{\"traceparent\":\"" + escaped + "\"}}}");

		MetaTraceContext context = MetaTraceContext.locate(body);

		assertThat(context.traceparent()).isEqualTo(PARENT);
		assertThat(context.rewrite(body, CHILD)).isSameAs(body);
	}

	@Test
	void aReplacementOfAnotherLengthLeavesTheBodyAsItWas() {
		byte[] body = bytes("{\"params\":{\"_meta\":{\"traceparent\":\"" + PARENT + "\"}}}");

		assertThat(MetaTraceContext.locate(body).rewrite(body, CHILD + "0")).isSameAs(body);
	}

	@Test
	void bodiesWithoutTheContextOrThatAreNotJsonYieldNothing() {
		assertThat(MetaTraceContext.locate(bytes("{\"params\":{\"_meta\":{\"traceparent\":7}}}"))).isNull();
		assertThat(MetaTraceContext.locate(bytes("{\"params\":{\"arguments\":{\"traceparent\":\"" + PARENT + "\"}}}")))
			.isNull();
		assertThat(MetaTraceContext.locate(bytes("{\"params\":{\"_meta\":{\"traceparent\":\"" + PARENT)))
			.as("truncated")
			.isNull();
		assertThat(MetaTraceContext.locate(bytes("[1,2]"))).isNull();
		assertThat(MetaTraceContext.locate(bytes("not json"))).isNull();
		assertThat(MetaTraceContext.locate(bytes("{\"params\":" + "[".repeat(100_000)))).as("nested past the limit")
			.isNull();
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
