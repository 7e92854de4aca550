package io.github.mcpgateway.revocation;

import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * An immutable snapshot of what is revoked. Source format (JSON): {@code {"sessions":
 * ["<Mcp-Session-Id>", ...], "principals": [{"human": "alice"}, {"team": "red"}]}}; both
 * members are optional, unknown members are an error.
 *
 * @param sessions revoked session ids
 * @param principals revoked principals
 */
public record RevocationList(@Nullable Set<String> sessions, @Nullable List<RevokedPrincipal> principals) {

	public static final RevocationList EMPTY = new RevocationList(Set.of(), List.of());

	public RevocationList {
		sessions = (sessions != null) ? Set.copyOf(sessions) : Set.of();
		principals = (principals != null) ? List.copyOf(principals) : List.of();
	}

	public boolean revokesSession(String sessionId) {
		return this.sessions.contains(sessionId);
	}

	public boolean revokesPrincipal(McpPrincipal principal) {
		for (RevokedPrincipal revoked : this.principals) {
			if (revoked.matches(principal)) {
				return true;
			}
		}
		return false;
	}

}
