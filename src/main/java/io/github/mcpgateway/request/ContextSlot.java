package io.github.mcpgateway.request;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.springframework.util.Assert;

/**
 * A typed slot of the {@link McpRequestContext}: where one capability records what it
 * learned about a request (an outcome, a credential, a reply tap) for the stages after
 * it, the proxy and the audit line to read.
 *
 * <p>
 * Contract: a capability declares its slot as a constant in its own package, or, when an
 * earlier stage must read it, in that earlier package (a stage never uses a later one).
 * Anyone holding the slot may {@link McpRequestContext#get read} it; only the holder of
 * its one {@link Writer} may write it: {@link #writer()} can be claimed once, by the
 * capability that alone records the value (usually in a {@code private static final}
 * field of the class that does). A slot nobody wrote reads {@code null}.
 *
 * @param <T> the type of the value
 */
public final class ContextSlot<T> {

	private static final AtomicInteger declared = new AtomicInteger();

	private final String name;

	private final int index;

	private final AtomicBoolean claimed = new AtomicBoolean();

	private ContextSlot(String name) {
		this.name = name;
		this.index = declared.getAndIncrement();
	}

	/**
	 * Declares a slot.
	 * @param name what it holds, for messages only
	 */
	public static <T> ContextSlot<T> declare(String name) {
		Assert.hasText(name, "name must not be empty");
		return new ContextSlot<>(name);
	}

	/** Claims the slot's one writer; fails when it was claimed before. */
	public Writer<T> writer() {
		Assert.state(this.claimed.compareAndSet(false, true), () -> "The writer of slot " + this.name + " is taken");
		return new Writer<>(this);
	}

	int index() {
		return this.index;
	}

	@Override
	public String toString() {
		return "ContextSlot[" + this.name + "]";
	}

	/**
	 * Writes one slot: held by the one capability that records its value.
	 *
	 * @param <T> the type of the value
	 */
	public static final class Writer<T> {

		private final ContextSlot<T> slot;

		private Writer(ContextSlot<T> slot) {
			this.slot = slot;
		}

		/** Records {@code value} in the slot of {@code context}, replacing any value. */
		public void put(McpRequestContext context, T value) {
			Assert.notNull(value, "value must not be null");
			context.slots.put(this.slot, value);
		}

	}

}
