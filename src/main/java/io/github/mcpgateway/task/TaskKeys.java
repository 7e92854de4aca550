package io.github.mcpgateway.task;

import java.nio.charset.StandardCharsets;

import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The hashes task bindings are stored and audited under: a store never holds a raw task
 * id (an upstream may treat task ids as bearer tokens), nor a principal's names as keys.
 */
final class TaskKeys {

	private TaskKeys() {
	}

	/**
	 * The store key of {@code taskId} on {@code server}: task ids are the upstream's, so
	 * two servers may hand out the same one.
	 */
	static String task(String server, String taskId) {
		return sha256("mcp-task/v1", server, taskId);
	}

	/** The first 16 hex characters of {@link #task}, as the audit line shows it. */
	static String audit(String server, String taskId) {
		return task(server, taskId).substring(0, 16);
	}

	/** The per-principal quota key. */
	static String principal(McpPrincipal principal) {
		return sha256("mcp-task-principal/v1", principal.human(), nullToEmpty(principal.agent()),
				nullToEmpty(principal.team()));
	}

	/** The first 16 hex characters of a session id's hash, for audit. */
	static String session(String sessionId) {
		return sha256("mcp-session/v1", sessionId).substring(0, 16);
	}

	private static String nullToEmpty(String value) {
		return (value != null) ? value : "";
	}

	private static String sha256(String domain, String... parts) {
		return Sha256.hex((digest) -> {
			digest.update(domain.getBytes(StandardCharsets.UTF_8));
			for (String part : parts) {
				// Length-prefixed, so that no two lists of parts hash alike.
				byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
				digest.update((byte) 0);
				digest.update(Integer.toString(bytes.length).getBytes(StandardCharsets.US_ASCII));
				digest.update((byte) ':');
				digest.update(bytes);
			}
		});
	}

}
