package io.github.mcpgateway.stdio;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A stdio server's process started or ended, published for the audit log. Names the
 * session and the human, never a command line, an environment value or a message.
 *
 * @param time when it happened
 * @param type what happened
 * @param serverKey the server ({@code namespace/name})
 * @param sessionId the session the process served, {@code null} for a server's shared
 * process
 * @param human the session's human, {@code null} on a server without a verified principal
 * @param cause why it ended ({@code exited}, {@code deleted}, {@code idle},
 * {@code policy}, {@code session_ended}, {@code shutdown}, {@code line_too_long},
 * {@code not_json}); {@code null} for a start
 * @param exitCode the process's exit status, when it ended and had exited
 * @param pid the operating system's process id
 */
public record StdioProcessEvent(Instant time, Type type, String serverKey, @Nullable String sessionId,
		@Nullable String human, @Nullable String cause, @Nullable Integer exitCode, long pid) {

	/** What happened to the process. */
	public enum Type {

		STARTED, ENDED

	}

}
