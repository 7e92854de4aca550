package io.github.mcpgateway.transport;

import java.io.ByteArrayOutputStream;

/**
 * A copy of a reply body up to a cap; past it, only the fact that the cap was passed, so
 * that memory per reply is at most the cap. Used where the gateway holds a reply to read
 * it whole (a keyed reply to store, a JSON {@code tools/list} to filter). Not
 * thread-safe.
 */
public final class CappedBuffer {

	private final int maxBytes;

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	private boolean overflowed;

	public CappedBuffer(int maxBytes) {
		this.maxBytes = maxBytes;
	}

	/** Keeps {@code length} bytes, unless they pass the cap: then keeps nothing more. */
	public void write(byte[] buffer, int offset, int length) {
		if (this.overflowed) {
			return;
		}
		if (this.bytes.size() + length > this.maxBytes) {
			this.overflowed = true;
			this.bytes.reset();
			return;
		}
		this.bytes.write(buffer, offset, length);
	}

	/** Forgets everything, the overflow included. */
	public void reset() {
		this.bytes.reset();
		this.overflowed = false;
	}

	public boolean overflowed() {
		return this.overflowed;
	}

	public int size() {
		return this.bytes.size();
	}

	public byte[] toByteArray() {
		return this.bytes.toByteArray();
	}

}
