package io.github.mcpgateway.quota;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.RateLimit;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The limits of a server that one request consumes, with the bucket each draws on: the
 * one rule of which limits apply, for the quota stage and for explain.
 *
 * @param limits the applying limits, in file order
 * @param buckets their buckets, in the same order
 */
record QuotaPlan(List<RateLimit> limits, List<QuotaBucket> buckets) {

	private static final QuotaPlan NONE = new QuotaPlan(List.of(), List.of());

	/**
	 * The limits of {@code server} a request of {@code principal} consumes: with
	 * {@code tool} for a {@code tools/call}, {@code null} for any other request.
	 */
	static QuotaPlan of(McpServerPolicy server, @Nullable McpPrincipal principal, @Nullable String tool) {
		List<RateLimit> all = server.limits();
		if (all.isEmpty()) {
			return NONE;
		}
		List<RateLimit> limits = null;
		List<QuotaBucket> buckets = null;
		for (RateLimit limit : all) {
			if (!limit.appliesTo(principal, tool)) {
				continue;
			}
			if (limits == null) {
				limits = new ArrayList<>(2);
				buckets = new ArrayList<>(2);
			}
			limits.add(limit);
			buckets.add(new QuotaBucket(key(server, limit, principal), limit.interval().toNanos(), limit.burst()));
		}
		return (limits != null) ? new QuotaPlan(limits, buckets) : NONE;
	}

	boolean isEmpty() {
		return this.limits.isEmpty();
	}

	/**
	 * {@code <server identity>|<limit>|<rate>|<who>}: who is {@code p:<human>/<agent>},
	 * {@code t:<team>} or {@code s} (the whole server, and every caller of a server
	 * without verified principals). The rate is in the key so that a reload that changes
	 * a limit's rate starts it with full buckets, in the new rate's terms.
	 */
	static String key(McpServerPolicy server, RateLimit limit, @Nullable McpPrincipal principal) {
		return server.identityKey() + "|" + limit.name() + "|" + limit.tokens() + "/" + limit.period().toSeconds()
				+ "s/" + limit.burst() + "|" + who(limit.per(), principal);
	}

	private static String who(RateLimit.Per per, @Nullable McpPrincipal principal) {
		if (principal == null || per == RateLimit.Per.SERVER) {
			return "s";
		}
		if (per == RateLimit.Per.TEAM && principal.team() != null) {
			return "t:" + principal.team();
		}
		return "p:" + principal.human() + "/" + ((principal.agent() != null) ? principal.agent() : "");
	}

}
