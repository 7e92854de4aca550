package io.github.mcpgateway.policy;

import java.time.Duration;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.PatternMatchUtils;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;

/**
 * A quota on one server, next to its grants: at most {@link #tokens()} requests per
 * {@link #period()} on average, and never more than {@link #burst()} at once (a token
 * bucket that holds {@code burst} tokens and gains {@code tokens} per {@code period}).
 *
 * <p>
 * It applies to the principals {@link #principal()} matches, as a grant's pattern does
 * (every principal when omitted; on a server without verified principals, every caller),
 * and counts either {@code tools/call} messages ({@code tool-calls}, the default;
 * optionally only those whose tool matches {@link #tools()}) or every request on the
 * server ({@code requests}). {@link #per()} says who shares one bucket.
 *
 * @param name the limit's name, unique on its server: in refusals, audit lines, metrics
 * and explain
 * @param principal who the limit applies to; omitted means every caller
 * @param per who shares a bucket: {@code principal} (the default), {@code team} or
 * {@code server}
 * @param counts what consumes a token: {@code tool-calls} (the default) or
 * {@code requests}
 * @param tools tool names or patterns ({@code *} matches any run of characters) whose
 * calls count; omitted means every tool; only with {@code tool-calls}
 * @param tokens how many requests the bucket gains per period, at least 1
 * @param period the period, such as {@code 1m}, {@code 30s}, {@code 1h} (from 1s to 1d)
 * @param burst how many requests the bucket holds at once; {@code tokens} when omitted
 */
public record RateLimit(String name, @Nullable PrincipalPattern principal, @Nullable Per per, @Nullable Counts counts,
		@Nullable List<String> tools, int tokens, Duration period, @Nullable Integer burst) {

	private static final Duration MIN_PERIOD = Duration.ofSeconds(1);

	private static final Duration MAX_PERIOD = Duration.ofDays(1);

	public RateLimit {
		if (name == null || !name.matches("[A-Za-z0-9._-]{1,64}")) {
			throw new IllegalArgumentException(
					"name is required: 1 to 64 letters, digits, '.', '_' or '-' (it is a metric label)");
		}
		principal = (principal != null) ? principal : new PrincipalPattern(null, null, null);
		per = (per != null) ? per : Per.PRINCIPAL;
		counts = (counts != null) ? counts : Counts.TOOL_CALLS;
		if (tools != null && counts != Counts.TOOL_CALLS) {
			throw new IllegalArgumentException("tools: only a tool-calls limit names tools");
		}
		if (tools != null && (tools.isEmpty() || tools.stream().anyMatch((tool) -> tool == null || tool.isBlank()))) {
			throw new IllegalArgumentException("tools: list tool names or patterns, none blank, or omit it");
		}
		tools = (tools != null) ? List.copyOf(tools) : List.of();
		if (tokens < 1) {
			throw new IllegalArgumentException("tokens must be at least 1");
		}
		if (period == null) {
			throw new IllegalArgumentException("period is required, such as 1m, 30s or 1h");
		}
		if (period.compareTo(MIN_PERIOD) < 0 || period.compareTo(MAX_PERIOD) > 0) {
			throw new IllegalArgumentException("period must be between 1s and 1d");
		}
		if (burst != null && burst < 1) {
			throw new IllegalArgumentException("burst must be at least 1");
		}
		burst = (burst != null) ? burst : tokens;
	}

	/** The time the bucket takes to gain one token. */
	public Duration interval() {
		return this.period.dividedBy(this.tokens);
	}

	/**
	 * Whether a request of {@code principal} ({@code null}: no verified principal), with
	 * {@code tool} when it is a {@code tools/call} ({@code null} otherwise), consumes a
	 * token of this limit.
	 */
	public boolean appliesTo(@Nullable McpPrincipal principal, @Nullable String tool) {
		if (principal != null && !this.principal.matches(principal)) {
			return false;
		}
		if (this.counts == Counts.REQUESTS) {
			return true;
		}
		if (tool == null) {
			return false;
		}
		return this.tools.isEmpty()
				|| this.tools.stream().anyMatch((pattern) -> PatternMatchUtils.simpleMatch(pattern, tool));
	}

	/**
	 * A period as the policy file writes it: {@code 30s}, {@code 1m}, {@code 1h},
	 * {@code 1d} (Spring Boot's simple duration style).
	 */
	public static Duration parsePeriod(String text) {
		try {
			return DurationStyle.SIMPLE.parse(text.trim());
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("period \"" + text + "\" is not a duration such as 1m, 30s or 1h");
		}
	}

	/** Who shares one bucket of a limit. */
	public enum Per {

		/** Each principal (human and agent) has a bucket of its own. */
		@JsonProperty("principal")
		PRINCIPAL,

		/** The principals of a team share one; a principal without a team has its own. */
		@JsonProperty("team")
		TEAM,

		/** Every caller the limit applies to shares one bucket on the server. */
		@JsonProperty("server")
		SERVER

	}

	/** What consumes a token of a limit. */
	public enum Counts {

		/** Each {@code tools/call} message (of the listed tools). */
		@JsonProperty("tool-calls")
		TOOL_CALLS,

		/** Each request on the server: every JSON-RPC message, stream and DELETE. */
		@JsonProperty("requests")
		REQUESTS

	}

}
