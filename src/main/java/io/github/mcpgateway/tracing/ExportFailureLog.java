package io.github.mcpgateway.tracing;

import java.time.Duration;

import io.opentelemetry.sdk.common.CompletableResultCode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.redact.ShownText;

/**
 * What the gateway logs about a failing OpenTelemetry exporter (spans, or log records):
 * one {@code WARN} line a minute, not one {@code ERROR} with a stack trace per batch.
 * OpenTelemetry's own report (the {@code io.opentelemetry.exporter.internal} loggers,
 * through java.util.logging) is switched off in {@code application.yaml}; this says
 * instead what failed, why (the innermost cause's class and message, credentials removed)
 * and how many exports failed since its last line.
 *
 * <p>
 * Contract: the first failure after a success (or start-up) is logged at once; further
 * failures are counted and logged at most once per {@link #INTERVAL}, with their count,
 * when the next failure comes after it; the first success after failures is logged at
 * {@code INFO} with the count of failures. The SDK drops a failed batch (it does not
 * retry); the export's result is returned unchanged.
 */
final class ExportFailureLog {

	/** At most one line per this interval while exports keep failing. */
	static final Duration INTERVAL = Duration.ofMinutes(1);

	private static final Log logger = LogFactory.getLog(ExportFailureLog.class);

	private final String what;

	private final String items;

	private final GatewayClock clock;

	private final Object lock = new Object();

	/** Failures since the last line. */
	private long unreported;

	/** Failures since the last success. */
	private long failing;

	/** When the last warning was written ({@link GatewayClock#nanoTime()}). */
	private long warnedAt;

	/**
	 * @param what the export, as a line starts ({@code Span export})
	 * @param items what a batch holds ({@code span(s)})
	 */
	ExportFailureLog(String what, String items, GatewayClock clock) {
		this.what = what;
		this.items = items;
		this.clock = clock;
	}

	/** Logs {@code result} once it completes; returns it. */
	CompletableResultCode watch(CompletableResultCode result, int batchSize) {
		result.whenComplete(() -> {
			if (result.isSuccess()) {
				succeeded();
			}
			else {
				failed(batchSize, result.getFailureThrowable());
			}
		});
		return result;
	}

	private void succeeded() {
		long failures;
		synchronized (this.lock) {
			failures = this.failing;
			this.failing = 0;
			this.unreported = 0;
		}
		if (failures > 0) {
			logger.info(this.what + " works again after " + failures + " failed export(s)");
		}
	}

	private void failed(int batchSize, @Nullable Throwable failure) {
		long now = this.clock.nanoTime();
		long failures;
		boolean first;
		synchronized (this.lock) {
			first = this.failing == 0;
			this.failing++;
			this.unreported++;
			if (!first && now - this.warnedAt < INTERVAL.toNanos()) {
				return;
			}
			failures = this.unreported;
			this.unreported = 0;
			this.warnedAt = now;
		}
		logger.warn((first ? this.what + " failed, " + batchSize + " " + this.items + " dropped"
				: failures + " " + this.what.toLowerCase(java.util.Locale.ROOT) + "(s) failed in the last "
						+ INTERVAL.toMinutes() + " minute(s)")
				+ " (" + reason(failure) + "); the next line comes at most " + INTERVAL.toMinutes()
				+ " minute(s) from now");
	}

	/** The innermost cause, as its class and message, without credentials. */
	static String reason(@Nullable Throwable failure) {
		if (failure == null) {
			return "no reason given";
		}
		Throwable root = failure;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		String message = (root.getMessage() != null) ? ": " + root.getMessage() : "";
		return ShownText.of(root.getClass().getSimpleName() + message);
	}

}
