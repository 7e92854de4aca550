package io.github.mcpgateway.tracing;

import java.util.Collection;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import io.github.mcpgateway.clock.GatewayClock;

/** A span exporter whose failures are logged by an {@link ExportFailureLog}. */
final class SpanExportFailureLog implements SpanExporter {

	private final SpanExporter delegate;

	private final ExportFailureLog log;

	SpanExportFailureLog(SpanExporter delegate, GatewayClock clock) {
		this.delegate = delegate;
		this.log = new ExportFailureLog("Span export", "span(s)", clock);
	}

	@Override
	public CompletableResultCode export(Collection<SpanData> spans) {
		return this.log.watch(this.delegate.export(spans), spans.size());
	}

	@Override
	public CompletableResultCode flush() {
		return this.delegate.flush();
	}

	@Override
	public CompletableResultCode shutdown() {
		return this.delegate.shutdown();
	}

	@Override
	public void close() {
		this.delegate.close();
	}

	@Override
	public String toString() {
		return "SpanExportFailureLog{" + this.delegate + "}";
	}

}
