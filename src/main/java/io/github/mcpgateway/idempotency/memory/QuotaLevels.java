package io.github.mcpgateway.idempotency.memory;

import java.util.HashMap;
import java.util.Map;

/**
 * The quota levels of one kind (scopes, principals or humans) by id. A level lives while
 * it counts an entry: {@link #forgetIfEmpty} drops it when its last entry goes, so the
 * map holds only levels in use. Used only under the store's monitor.
 */
final class QuotaLevels {

	private final Map<String, QuotaLevel> levels = new HashMap<>();

	/** The level of {@code id}, created empty when there is none. */
	QuotaLevel get(String id) {
		return this.levels.computeIfAbsent(id, (key) -> new QuotaLevel());
	}

	/** Attaches {@code level} to {@code id} again if an eviction dropped it. */
	void reattach(String id, QuotaLevel level) {
		this.levels.putIfAbsent(id, level);
	}

	/** Drops the level of {@code id} if it counts no entry. */
	void forgetIfEmpty(String id) {
		QuotaLevel level = this.levels.get(id);
		if (level != null && level.entries == 0) {
			this.levels.remove(id);
		}
	}

	/** The most tombstones plus in-flight entries that one level holds, 0 when none. */
	int fullestBudget() {
		int fullest = 0;
		for (QuotaLevel level : this.levels.values()) {
			fullest = Math.max(fullest, level.tombstones + level.inFlight);
		}
		return fullest;
	}

}
