package io.github.mcpgateway.stdio;

import java.time.Duration;

import org.springframework.util.Assert;

/**
 * The bounds of one child process.
 *
 * @param maxLineBytes the longest message line read from stdout, newline excluded; a
 * longer one ends the process
 * @param maxStderrLineBytes the most bytes of one stderr line that reach the log (the
 * rest is cut)
 * @param maxStderrLines the most stderr lines of one process that reach the log; after
 * them one line says that the rest is dropped
 * @param stopGrace how long the process has to exit after its stdin closed, and again
 * after SIGTERM, before it (and what it started) is killed
 */
public record StdioLimits(int maxLineBytes, int maxStderrLineBytes, int maxStderrLines, Duration stopGrace) {

	/**
	 * The longest stdout line by default: 4 MiB, the gateway's default request body cap.
	 */
	public static final int DEFAULT_MAX_LINE_BYTES = 4 * 1024 * 1024;

	public static final int DEFAULT_MAX_STDERR_LINE_BYTES = 1024;

	public static final int DEFAULT_MAX_STDERR_LINES = 1000;

	public static final Duration DEFAULT_STOP_GRACE = Duration.ofSeconds(5);

	public static final StdioLimits DEFAULTS = new StdioLimits(DEFAULT_MAX_LINE_BYTES, DEFAULT_MAX_STDERR_LINE_BYTES,
			DEFAULT_MAX_STDERR_LINES, DEFAULT_STOP_GRACE);

	public StdioLimits {
		Assert.isTrue(maxLineBytes > 0, "maxLineBytes must be positive");
		Assert.isTrue(maxStderrLineBytes > 0, "maxStderrLineBytes must be positive");
		Assert.isTrue(maxStderrLines >= 0, "maxStderrLines must not be negative");
		Assert.notNull(stopGrace, "stopGrace must not be null");
		Assert.isTrue(!stopGrace.isNegative(), "stopGrace must not be negative");
	}

}
