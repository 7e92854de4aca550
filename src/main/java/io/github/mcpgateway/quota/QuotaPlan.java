package io.github.mcpgateway.quota;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.RateLimit;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The limits of a server that one request consumes, with the bucket each draws on: the
 * one rule of which limits apply, for the quota stage and for explain. A member request
 * that came through a virtual server ({@link VirtualQuota}) consumes the member's limits
 * first, then the virtual server's, whose {@code tools} patterns match the exposed name.
 *
 * @param limits the applying limits, in file order
 * @param buckets their buckets, in the same order
 * @param servers the {@code namespace/name} of the server (or virtual server) whose limit
 * each is, in the same order: the {@code server} tag of its meters
 */
record QuotaPlan(List<RateLimit> limits, List<QuotaBucket> buckets, List<String> servers) {

	private static final QuotaPlan NONE = new QuotaPlan(List.of(), List.of(), List.of());

	/**
	 * What a virtual server's bucket keys start with in place of a server's
	 * {@code identityKey} ({@code uid:} or {@code name:}), so that no virtual server's
	 * bucket is ever a server's.
	 */
	private static final String VIRTUAL_KEY = "virtual-uid:";

	/**
	 * The limits of {@code server} a request of {@code principal} consumes: with
	 * {@code tool} for a {@code tools/call}, {@code null} for any other request.
	 */
	static QuotaPlan of(McpServerPolicy server, @Nullable McpPrincipal principal, @Nullable String tool) {
		return of(server, principal, tool, null);
	}

	/**
	 * As {@link #of(McpServerPolicy, McpPrincipal, String)}, and then the limits of the
	 * virtual server the request came {@code through}, if any.
	 */
	static QuotaPlan of(McpServerPolicy server, @Nullable McpPrincipal principal, @Nullable String tool,
			@Nullable VirtualQuota through) {
		QuotaPlan plan = NONE.plus(server.qualifiedName(), server.identityKey(), server.limits(), principal, tool);
		return (through != null) ? plan.plus(through, principal) : plan;
	}

	/**
	 * The virtual server's own limits alone that a request routed {@code through} it
	 * consumes.
	 */
	static QuotaPlan of(VirtualQuota through, @Nullable McpPrincipal principal) {
		return NONE.plus(through, principal);
	}

	private QuotaPlan plus(VirtualQuota through, @Nullable McpPrincipal principal) {
		VirtualServerPolicy virtual = through.virtual();
		return plus(virtual.qualifiedName(), VIRTUAL_KEY + virtual.uid(), virtual.limits(), principal, through.tool());
	}

	/** This plan and then those of {@code all} that apply, of the owner named. */
	private QuotaPlan plus(String server, String owner, List<RateLimit> all, @Nullable McpPrincipal principal,
			@Nullable String tool) {
		if (all.isEmpty()) {
			return this;
		}
		List<RateLimit> limits = new ArrayList<>(this.limits);
		List<QuotaBucket> buckets = new ArrayList<>(this.buckets);
		List<String> servers = new ArrayList<>(this.servers);
		for (RateLimit limit : all) {
			if (limit.appliesTo(principal, tool)) {
				limits.add(limit);
				buckets.add(bucket(owner, limit, principal));
				servers.add(server);
			}
		}
		return (limits.size() == this.limits.size()) ? this : new QuotaPlan(limits, buckets, servers);
	}

	private static QuotaBucket bucket(String owner, RateLimit limit, @Nullable McpPrincipal principal) {
		return new QuotaBucket(key(owner, limit, principal), limit.interval().toNanos(), limit.burst());
	}

	boolean isEmpty() {
		return this.limits.isEmpty();
	}

	/**
	 * The bucket's key: its owner's identity (a server's {@code identityKey}, or
	 * {@value #VIRTUAL_KEY} and a virtual server's UID), the limit's name and rate, and
	 * who shares the bucket ({@code s} for the whole server and every caller of a server
	 * without verified principals, {@code t} and the team, or {@code p}, the human and
	 * the agent). Every field a caller or the policy file chooses is written
	 * {@code <length>:<text>} (an absent agent as {@code -}), so that no two buckets get
	 * one key however their names read: human {@code alice} with agent {@code ci/deploy}
	 * and human {@code alice/ci} with agent {@code deploy} are two buckets (issue 36).
	 * The rate is in the key so that a reload that changes a limit's rate starts it with
	 * full buckets, in the new rate's terms.
	 */
	static String key(String owner, RateLimit limit, @Nullable McpPrincipal principal) {
		StringBuilder key = new StringBuilder(96).append("q2|");
		field(key, owner);
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
