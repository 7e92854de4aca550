package io.github.mcpgateway.principal;

import org.jspecify.annotations.Nullable;

import org.springframework.util.PatternMatchUtils;

/**
 * Which principals a grant applies to. Each part is a pattern where {@code *} matches any
 * run of characters; an omitted part is {@code *}. A lone {@code *} also matches a
 * principal that has no agent or no team; any other pattern requires the part to be
 * present.
 *
 * @param human pattern for the human
 * @param agent pattern for the agent
 * @param team pattern for the team
 */
public record PrincipalPattern(@Nullable String human, @Nullable String agent, @Nullable String team) {

	public static final String ANY = "*";

	public PrincipalPattern {
		human = orAny(human);
		agent = orAny(agent);
		team = orAny(team);
	}

	public boolean matches(McpPrincipal principal) {
		return matches(this.human, principal.human()) && matches(this.agent, principal.agent())
				&& matches(this.team, principal.team());
	}

	private static boolean matches(@Nullable String pattern, @Nullable String value) {
		if (ANY.equals(pattern)) {
			return true;
		}
		return value != null && PatternMatchUtils.simpleMatch(pattern, value);
	}

	private static String orAny(@Nullable String pattern) {
		if (pattern == null) {
			return ANY;
		}
		if (pattern.isBlank()) {
			throw new IllegalArgumentException("a principal pattern must not be blank; omit it to match any");
		}
		return pattern;
	}

}
