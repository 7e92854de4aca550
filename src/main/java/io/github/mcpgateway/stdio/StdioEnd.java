package io.github.mcpgateway.stdio;

import org.jspecify.annotations.Nullable;

/**
 * How a child process ended: told once to its {@link StdioListener}.
 *
 * @param reason why it ended
 * @param exitCode the process's exit status ({@code null} when it had not exited when the
 * end was told, which the signals make rare)
 */
public record StdioEnd(Reason reason, @Nullable Integer exitCode) {

	/** Why a child process ended. */
	public enum Reason {

		/** It exited on its own (closed its stdout, or crashed). */
		EXITED,

		/** The gateway stopped it ({@link StdioProcess#stop()}). */
		STOPPED,

		/** Its stdout held a line longer than {@link StdioLimits#maxLineBytes()}. */
		LINE_TOO_LONG,

		/** Its stdout held a line that is not one JSON object. */
		NOT_JSON

	}

}
