package io.github.mcpgateway.tracing;

import java.util.Collection;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.logs.data.LogRecordData;
import io.opentelemetry.sdk.logs.export.LogRecordExporter;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * A log-record exporter (OTLP logging export) whose failures are logged by an
 * {@link ExportFailureLog}: its exporter reports through the same switched-off loggers as
 * the span exporter's.
 */
final class LogRecordExportFailureLog implements LogRecordExporter {

	private final LogRecordExporter delegate;

	private final ExportFailureLog log;

	LogRecordExportFailureLog(LogRecordExporter delegate, GatewayClock clock) {
		this.delegate = delegate;
		this.log = new ExportFailureLog("Log record export", "log record(s)", clock);
	}

	@Override
	public CompletableResultCode export(Collection<LogRecordData> logs) {
		return this.log.watch(this.delegate.export(logs), logs.size());
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
		return "LogRecordExportFailureLog{" + this.delegate + "}";
	}

}
