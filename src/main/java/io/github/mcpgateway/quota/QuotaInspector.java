package io.github.mcpgateway.quota;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.RateLimit;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Which limits a request would consume and what their buckets hold now, taking no token:
 * for {@code /actuator/explain}, with the quota stage's own rule ({@link QuotaPlan}).
 */
public final class QuotaInspector {

	private final QuotaStore store;

	QuotaInspector(QuotaStore store) {
		this.store = store;
	}

	/**
	 * The limits of {@code server} a request of {@code principal} consumes ({@code tool}
	 * for a {@code tools/call}, else {@code null}), in file order, with their buckets'
	 * tokens ({@code null} while the store cannot be asked).
	 */
	public List<LimitView> limits(McpServerPolicy server, @Nullable McpPrincipal principal, @Nullable String tool) {
		return views(QuotaPlan.of(server, principal, tool));
	}

	/**
	 * The virtual server's own limits that a request of {@code principal} routed
	 * {@code through} it consumes (the member's are {@link #limits}'s), as
	 * {@link #limits}.
	 */
	public List<LimitView> limits(VirtualQuota through, @Nullable McpPrincipal principal) {
		return views(QuotaPlan.of(through, principal));
	}

	private List<LimitView> views(QuotaPlan plan) {
		if (plan.isEmpty()) {
			return List.of();
		}
		List<QuotaStore.BucketLevel> levels;
		try {
			levels = this.store.peek(plan.buckets());
		}
		catch (QuotaStoreException ex) {
			levels = null;
		}
		List<LimitView> views = new ArrayList<>(plan.limits().size());
		for (int i = 0; i < plan.limits().size(); i++) {
			views.add(LimitView.of(plan.limits().get(i), (levels != null) ? levels.get(i) : null));
		}
		return List.copyOf(views);
	}

	/**
	 * A limit as the policy file writes it, and its bucket now.
	 *
	 * @param name the limit's name
	 * @param per {@code principal}, {@code team} or {@code server}
	 * @param counts {@code tool-calls} or {@code requests}
	 * @param tools the tool patterns it counts; empty for every tool
	 * @param tokens tokens gained per period
	 * @param period the period, in seconds
	 * @param burst the bucket's size
	 * @param remaining the tokens the caller's bucket holds now; {@code null} when the
	 * store cannot be asked
	 * @param nextTokenInMillis how long until the caller's bucket gains its next token
	 * (rounded up), {@code 0} when it is full; {@code null} when the store cannot be
	 * asked
	 */
	public record LimitView(String name, String per, String counts, List<String> tools, int tokens, long period,
			int burst, @Nullable Long remaining, @Nullable Long nextTokenInMillis) {

		static LimitView of(RateLimit limit, QuotaStore.@Nullable BucketLevel level) {
			return new LimitView(limit.name(), limit.per().name().toLowerCase(java.util.Locale.ROOT),
					(limit.counts() == RateLimit.Counts.TOOL_CALLS) ? "tool-calls" : "requests", limit.tools(),
					limit.tokens(), limit.period().toSeconds(), limit.burst(), (level != null) ? level.tokens() : null,
					(level != null) ? (level.nextToken().toNanos() + 999_999) / 1_000_000 : null);
		}

	}

}
