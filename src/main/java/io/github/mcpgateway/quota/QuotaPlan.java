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
	 * The bucket's key: the server's identity, the limit's name and rate, and who shares
	 * the bucket ({@code s} for the whole server and every caller of a server without
	 * verified principals, {@code t} and the team, or {@code p}, the human and the
	 * agent). Every field a caller or the policy file chooses is written
	 * {@code <length>:<text>} (an absent agent as {@code -}), so that no two buckets get
	 * one key however their names read: human {@code alice} with agent {@code ci/deploy}
	 * and human {@code alice/ci} with agent {@code deploy} are two buckets (issue 36).
	 * The rate is in the key so that a reload that changes a limit's rate starts it with
	 * full buckets, in the new rate's terms.
	 */
	static String key(McpServerPolicy server, RateLimit limit, @Nullable McpPrincipal principal) {
		StringBuilder key = new StringBuilder(96).append("q2|");
		field(key, server.identityKey());
		field(key, limit.name());
		key.append(limit.tokens()).append('/').append(limit.period().toSeconds()).append("s/").append(limit.burst());
		key.append('|');
		if (principal == null || limit.per() == RateLimit.Per.SERVER) {
			return key.append('s').toString();
		}
		if (limit.per() == RateLimit.Per.TEAM && principal.team() != null) {
			key.append('t');
			field(key, principal.team());
			return key.toString();
		}
		key.append('p');
		field(key, principal.human());
		if (principal.agent() == null) {
			return key.append('-').toString();
		}
		field(key, principal.agent());
		return key.toString();
	}

	/**
	 * Appends {@code <length>:<text>}: the length says where the text ends, whatever it
	 * holds.
	 */
	private static void field(StringBuilder key, String text) {
		key.append(text.length()).append(':').append(text);
	}

}
