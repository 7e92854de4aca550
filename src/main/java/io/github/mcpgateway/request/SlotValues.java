package io.github.mcpgateway.request;

import java.util.Arrays;
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

	/**
	 * The values that add fields to the audit line, in their order: an immutable list
	 * (which {@code List.copyOf} keeps as it is). Runs once per request, so without a
	 * list to grow, a comparator or a sort for the one or two contributions a request
	 * has.
	 */
	List<AuditContribution> contributions() {
		@Nullable Object[] values = this.values;
		if (values == null) {
			return List.of();
		}
		int count = 0;
		for (Object value : values) {
			if (value instanceof AuditContribution) {
				count++;
			}
		}
		if (count == 0) {
			return List.of();
		}
		AuditContribution[] contributions = new AuditContribution[count];
		int filled = 0;
		for (Object value : values) {
			if (value instanceof AuditContribution contribution) {
				// Insertion by position, after any of the same position (stable).
				int at = filled++;
				while (at > 0 && contributions[at - 1].position() > contribution.position()) {
					contributions[at] = contributions[at - 1];
					at--;
				}
				contributions[at] = contribution;
			}
		}
		return List.of(contributions);
	}

}
