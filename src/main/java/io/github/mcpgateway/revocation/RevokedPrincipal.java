package io.github.mcpgateway.revocation;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * A revocation entry for principals: every part given must equal the principal's (exact
 * match, no patterns); parts left out match anything. At least one part is required, so
 * an empty entry can never revoke everybody by accident.
 *
 * @param human the human to revoke, or {@code null}
 * @param agent the agent to revoke, or {@code null}
 * @param team the team to revoke, or {@code null}
 */
public record RevokedPrincipal(@Nullable String human, @Nullable String agent, @Nullable String team) {

	public RevokedPrincipal {
		if (blank(human) && blank(agent) && blank(team)) {
			throw new IllegalArgumentException("a revoked principal needs a human, an agent or a team");
		}
	}

	public boolean matches(McpPrincipal principal) {
		return part(this.human, principal.human()) && part(this.agent, principal.agent())
				&& part(this.team, principal.team());
	}

	private static boolean part(@Nullable String revoked, @Nullable String actual) {
		return blank(revoked) || revoked.equals(actual);
	}

	private static boolean blank(@Nullable String value) {
		return value == null || value.isBlank();
	}

}
