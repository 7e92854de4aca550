package io.github.mcpgateway.tracing;

import java.net.ConnectException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mockito;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A watched exporter: its export's result reaches the failure log and the caller
 * unchanged, every other method reaches the exporter, a failure it throws is its own.
 */
@ExtendWith(OutputCaptureExtension.class)
class WatchedExporterTest {

	private final MutableClock clock = new MutableClock();

	private final List<String> calls = new ArrayList<>();

	@Test
	void exportWhenItFailsThenLoggedAndTheSameResultReturned(CapturedOutput output) {
		CompletableResultCode failure = CompletableResultCode
			.ofExceptionalFailure(new ConnectException("refused by http://user:s3cr3t@collector/"));
		SpanExporter watched = WatchedExporter.watch(SpanExporter.class, new Spans(failure),
				new ExportFailureLog("Span export", "span(s)", this.clock));

		CompletableResultCode result = watched
			.export(List.of(Mockito.mock(SpanData.class), Mockito.mock(SpanData.class)));

		assertThat(result).isSameAs(failure);
		assertThat(output.getOut()).contains("Span export failed, 2 span(s) dropped (ConnectException")
			.doesNotContain("s3cr3t");
	}

	@Test
	void otherMethodsWhenCalledThenReachTheExporter() {
		LogRecordExporter watched = WatchedExporter.watch(LogRecordExporter.class, new Logs(),
				new ExportFailureLog("Log record export", "log record(s)", this.clock));

		watched.export(List.of(Mockito.mock(LogRecordData.class)));
		watched.flush();
		watched.shutdown();

		assertThat(this.calls).containsExactly("export 1", "flush", "shutdown");
		assertThat(watched).isInstanceOf(WatchedExporter.class).hasToString("WatchedExporter{logs}");
		assertThat(watched).isEqualTo(watched).isNotEqualTo(new Logs());
	}

	@Test
	void methodWhenExporterThrowsThenItsOwnExceptionReachesTheCaller() {
		SpanExporter watched = WatchedExporter.watch(SpanExporter.class, new Spans(null),
				new ExportFailureLog("Span export", "span(s)", this.clock));

		assertThatIllegalStateException().isThrownBy(watched::flush).withMessage("flush failed");
	}

	private final class Spans implements SpanExporter {

		private final CompletableResultCode result;

		Spans(CompletableResultCode result) {
			this.result = result;
		}

		@Override
		public CompletableResultCode export(Collection<SpanData> spans) {
			return this.result;
		}

		@Override
		public CompletableResultCode flush() {
			throw new IllegalStateException("flush failed");
		}

		@Override
		public CompletableResultCode shutdown() {
			return CompletableResultCode.ofSuccess();
		}

	}

	private final class Logs implements LogRecordExporter {

		@Override
		public CompletableResultCode export(Collection<LogRecordData> logs) {
			WatchedExporterTest.this.calls.add("export " + logs.size());
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode flush() {
			WatchedExporterTest.this.calls.add("flush");
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public CompletableResultCode shutdown() {
			WatchedExporterTest.this.calls.add("shutdown");
			return CompletableResultCode.ofSuccess();
		}

		@Override
		public String toString() {
			return "logs";
		}

	}

}
