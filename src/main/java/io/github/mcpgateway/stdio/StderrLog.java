package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * A child's stderr, line by line, to the gateway's log ({@code INFO}, logger
 * {@code io.github.mcpgateway.stdio.StderrLog}), bounded: each line cut to
 * {@link StdioLimits#maxStderrLineBytes()} bytes (held, however long the line) and shown
 * as UTF-8 with control characters replaced (a line cannot forge another log line), at
 * most {@link StdioLimits#maxStderrLines()} lines a process, then one line saying the
 * rest is dropped. The stream is read to its end either way, so that a chatty process
 * never blocks on a full pipe.
 */
final class StderrLog {

	private static final Log logger = LogFactory.getLog(StderrLog.class);

	private final String name;

	private final StdioLimits limits;

	StderrLog(String name, StdioLimits limits) {
		this.name = name;
		this.limits = limits;
	}

	void drain(InputStream stderr) {
		int logged = 0;
		LineFramer lines = LineFramer.cutting(stderr, this.limits.maxStderrLineBytes());
		try (stderr) {
			byte[] line;
			while ((line = lines.next()) != null) {
				if (logged < this.limits.maxStderrLines()) {
					logger.info("[" + this.name + "] " + shown(line));
				}
				else if (logged == this.limits.maxStderrLines()) {
					logger.info("[" + this.name + "] stderr past " + logged + " lines: the rest is dropped");
				}
				if (logged <= this.limits.maxStderrLines()) {
					logged++;
				}
			}
		}
		catch (IOException ex) {
			// The process ended and its pipe closed under the reader: nothing more to
			// log.
		}
	}

	private static String shown(byte[] line) {
		String text = new String(line, StandardCharsets.UTF_8);
		StringBuilder shown = new StringBuilder(text.length());
		text.codePoints().forEach((c) -> shown.appendCodePoint(Character.isISOControl(c) ? '?' : c));
		return shown.toString();
	}

}
