package io.github.mcpgateway.policy;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.PatternMatchUtils;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;

/**
 * Allows the principals matching {@link #principal()} to call the tools matching
 * {@link #tools()} (exact names or patterns where {@code *} matches any run of
 * characters).
 *
 * @param principal who the grant applies to; omitted means every verified principal
 * @param tools tool names or patterns, at least one
 */
public record Grant(@Nullable PrincipalPattern principal, List<String> tools) {

	public Grant {
		principal = (principal != null) ? principal : new PrincipalPattern(null, null, null);
		if (tools == null || tools.isEmpty()) {
			throw new IllegalArgumentException("a grant must list at least one tool");
		}
		for (String tool : tools) {
			if (tool == null || tool.isBlank()) {
				throw new IllegalArgumentException("a tool name or pattern must not be blank");
			}
		}
		tools = List.copyOf(tools);
	}

	/**
	 * Whether this grant applies to {@code principal}; {@code null} (no verified
	 * principal) always applies.
	 */
	public boolean appliesTo(@Nullable McpPrincipal principal) {
		return principal == null || this.principal.matches(principal);
	}

	public boolean allowsTool(String tool) {
		for (String pattern : this.tools) {
			if (PatternMatchUtils.simpleMatch(pattern, tool)) {
				return true;
			}
		}
		return false;
	}

}
