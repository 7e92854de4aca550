package io.github.mcpgateway.request;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The values of one request's {@link ContextSlot}s, by the slots' indexes: an array,
 * allocated when the first value is recorded, as a request fills a handful of slots at
 * most.
 */
final class SlotValues {

	private @Nullable Object @Nullable [] values;

	@SuppressWarnings("unchecked")
	<T> @Nullable T get(ContextSlot<T> slot) {
		@Nullable Object[] values = this.values;
		return (values != null && slot.index() < values.length) ? (T) values[slot.index()] : null;
	}

	void put(ContextSlot<?> slot, Object value) {
		@Nullable Object[] values = this.values;
		if (values == null || slot.index() >= values.length) {
			int length = Math.max(8, slot.index() + 1);
			values = (values == null) ? new Object[length] : Arrays.copyOf(values, Math.max(length, values.length * 2));
			this.values = values;
		}
		values[slot.index()] = value;
	}

	/** The values that add fields to the audit line, in their order. */
	List<AuditContribution> contributions() {
		List<AuditContribution> contributions = new ArrayList<>(4);
		if (this.values != null) {
			for (Object value : this.values) {
				if (value instanceof AuditContribution contribution) {
					contributions.add(contribution);
				}
			}
			contributions.sort(Comparator.comparingInt(AuditContribution::position));
		}
		return contributions;
	}

}
