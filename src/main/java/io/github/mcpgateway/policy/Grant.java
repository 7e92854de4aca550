package io.github.mcpgateway.policy;

import java.util.List;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.util.PatternMatchUtils;

import io.github.mcpgateway.policy.condition.Condition;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;

/**
 * Allows the principals matching {@link #principal()} to call the tools matching
 * {@link #tools()} but none matching {@link #except()}, and, where the grants of a server
 * list them, to get the prompts matching {@link #prompts()} and read the resources whose
 * URI matches {@link #resources()} (exact names or patterns where {@code *} matches any
 * run of characters).
 *
 * <p>
 * An exception narrows its own grant only: another grant that applies and lists the tool
 * still allows it. Grants only ever allow; there is no rule that denies across grants.
 * Prompts and resources are governed one by one on a server only when one of its grants
 * lists some ({@link McpServerPolicy#governs}); otherwise anyone a grant applies to may
 * use them all, as before.
 *
 * @param principal who the grant applies to; omitted means every verified principal
 * @param tools tool names or patterns; at least one, unless the grant lists prompts or
 * resources
 * @param except tool names or patterns this grant does not allow although {@code tools}
 * matches them; omitted means none
 * @param prompts prompt names or patterns ({@code prompts/get}); omitted means none
 * @param resources resource URIs or patterns ({@code resources/read},
 * {@code resources/subscribe}; a template is matched as written); omitted means none
 * @param name the grant's name in refusals, audit and explain ({@code ledger-eur}); 1 to
 * 64 letters, digits, {@code .}, {@code _} or {@code -}; omitted means none
 * @param when a condition (CEL) the request must meet for this grant to allow it; omitted
 * means none
 */
public record Grant(@Nullable PrincipalPattern principal, List<String> tools, @Nullable List<String> except,
		@Nullable List<String> prompts, @Nullable List<String> resources, @Nullable String name,
		@Nullable Condition when) {

	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

	public Grant {
		if (name != null && !NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("name must be 1 to 64 letters, digits, '.', '_' or '-'");
		}
		principal = (principal != null) ? principal : new PrincipalPattern(null, null, null);
		prompts = (prompts != null) ? List.copyOf(requireNames(prompts, "prompts", "a prompt name")) : List.of();
		resources = (resources != null) ? List.copyOf(requireNames(resources, "resources", "a resource URI"))
				: List.of();
		if ((tools == null || tools.isEmpty()) && prompts.isEmpty() && resources.isEmpty()) {
			throw new IllegalArgumentException("a grant must list at least one tool (or prompts or resources)");
		}
		tools = (tools != null) ? List.copyOf(requireNames(tools, "tools", "a tool name")) : List.of();
		except = (except != null) ? List.copyOf(requireNames(except, "except", "a tool name")) : List.of();
	}

	public Grant(@Nullable PrincipalPattern principal, List<String> tools, @Nullable List<String> except,
			@Nullable List<String> prompts, @Nullable List<String> resources) {
		this(principal, tools, except, prompts, resources, null, null);
	}

	public Grant(@Nullable PrincipalPattern principal, List<String> tools, @Nullable List<String> except) {
		this(principal, tools, except, null, null);
	}

	public Grant(@Nullable PrincipalPattern principal, List<String> tools) {
		this(principal, tools, null);
	}

	private static List<String> requireNames(List<String> names, String field, String what) {
		for (String name : names) {
			if (name == null || name.isBlank()) {
				throw new IllegalArgumentException(field + ": " + what + " or pattern must not be blank");
			}
		}
		return names;
	}

	/**
	 * The grant as refusals, audit and explain name it: its name, or {@code grants[i]}.
	 */
	public String label(int index) {
		return (this.name != null) ? this.name : "grants[" + index + "]";
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
	 * Whether this grant lists {@code item} of {@code kind}; its condition, if any, is
	 * the evaluator's to decide ({@link GrantEvaluator}).
	 */
	public boolean allows(Item kind, String item) {
		return switch (kind) {
			case TOOL -> allowsTool(item);
			case PROMPT -> matchesAny(this.prompts, item);
			case RESOURCE -> matchesAny(this.resources, item);
		};
	}

	/** The items a grant lists: what a request may name one of. */
	public enum Item {

		/** A tool ({@code tools/call}, {@code params.name}). */
		TOOL,

		/** A prompt ({@code prompts/get}, {@code params.name}). */
		PROMPT,

		/**
		 * A resource ({@code resources/read}, {@code resources/subscribe},
		 * {@code params.uri}).
		 */
		RESOURCE;

		/**
		 * The kind of the one item a request names, given as its tool, prompt or resource
		 * (at most one not {@code null}; a tool, or none, when both are {@code null}).
		 */
		public static Item of(@Nullable String prompt, @Nullable String resource) {
			return (prompt != null) ? PROMPT : (resource != null) ? RESOURCE : TOOL;
		}

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

	/**
	 * Whether {@code item} matches one of {@code patterns} ({@code *}: any run of
	 * characters).
	 */
	static boolean matchesAny(List<String> patterns, String item) {
		for (String pattern : patterns) {
			if (PatternMatchUtils.simpleMatch(pattern, item)) {
				return true;
			}
		}
		return false;
	}

}
