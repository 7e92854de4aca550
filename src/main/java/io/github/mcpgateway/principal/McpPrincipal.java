package io.github.mcpgateway.principal;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A verified caller: the human on whose behalf the call is made, the agent (the software
 * acting for them) and the team they act for. Only the human is required; an absent agent
 * or team is {@code null}, never an empty string.
 *
 * @param human the human subject, never blank
 * @param agent the agent, or {@code null}
 * @param team the team, or {@code null}
 */
public record McpPrincipal(String human, @Nullable String agent, @Nullable String team) {

	public McpPrincipal {
		Assert.hasText(human, "human must not be blank");
		agent = blankToNull(agent);
		team = blankToNull(team);
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

	@Override
	public String toString() {
		return "human=" + this.human + ",agent=" + this.agent + ",team=" + this.team;
	}

}
