package io.github.mcpgateway.policy;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.PatternMatchUtils;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;

/**
 * Allows the principals matching {@link #principal()} to call the tools matching
 * {@link #tools()} but none matching {@link #except()} (exact names or patterns where
 * {@code *} matches any run of characters).
 *
 * <p>
 * An exception narrows its own grant only: another grant that applies and lists the tool
 * still allows it. Grants only ever allow; there is no rule that denies across grants.
 *
 * @param principal who the grant applies to; omitted means every verified principal
 * @param tools tool names or patterns, at least one
 * @param except tool names or patterns this grant does not allow although {@code tools}
 * matches them; omitted means none
 */
public record Grant(@Nullable PrincipalPattern principal, List<String> tools, @Nullable List<String> except) {

	public Grant {
		principal = (principal != null) ? principal : new PrincipalPattern(null, null, null);
		if (tools == null || tools.isEmpty()) {
			throw new IllegalArgumentException("a grant must list at least one tool");
		}
		requireNames(tools, "tools");
		tools = List.copyOf(tools);
		except = (except != null) ? List.copyOf(requireNames(except, "except")) : List.of();
	}

	public Grant(@Nullable PrincipalPattern principal, List<String> tools) {
		this(principal, tools, null);
	}

	private static List<String> requireNames(List<String> names, String field) {
		for (String name : names) {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException(field + ": a tool name or pattern must not be blank");
			}
		}
		return names;
	}

	/**
	 * Whether this grant applies to {@code principal}; {@code null} (no verified
	 * principal) always applies.
	 */
	public boolean appliesTo(@Nullable McpPrincipal principal) {
		return principal == null || this.principal.matches(principal);
	}

	public boolean allowsTool(String tool) {
		return matchesAny(this.tools, tool) && excluding(tool) == null;
	}

	/**
	 * The {@link #except()} pattern that keeps this grant from allowing {@code tool},
	 * when {@link #tools()} matches it; {@code null} otherwise.
	 */
	public @Nullable String excluding(String tool) {
		if (this.except.isEmpty() || !matchesAny(this.tools, tool)) {
			return null;
		}
		for (String pattern : this.except) {
			if (PatternMatchUtils.simpleMatch(pattern, tool)) {
				return pattern;
			}
		}
		return null;
	}

	private static boolean matchesAny(List<String> patterns, String tool) {
		for (String pattern : patterns) {
			if (PatternMatchUtils.simpleMatch(pattern, tool)) {
				return true;
			}
		}
		return false;
	}

}
