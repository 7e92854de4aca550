package io.github.mcpgateway.idempotency;

import java.io.ByteArrayOutputStream;

import io.github.mcpgateway.proxy.ClientAwareResponse.BodyTap;

/**
 * Keeps a copy of the reply body up to the size cap; past it, only that the cap was
 * passed. Memory per keyed request is therefore at most the cap.
 */
final class ReplyRecorder implements BodyTap {

	private final int maxBytes;

	private final ByteArrayOutputStream body = new ByteArrayOutputStream();

	private boolean overflowed;

	ReplyRecorder(int maxBytes) {
		this.maxBytes = maxBytes;
	}

	@Override
	public synchronized void write(byte[] buffer, int offset, int length) {
		if (this.overflowed) {
			return;
		}
		if (this.body.size() + length > this.maxBytes) {
			this.overflowed = true;
			this.body.reset();
			return;
		}
		this.body.write(buffer, offset, length);
	}

	@Override
	public synchronized void reset() {
		this.body.reset();
		this.overflowed = false;
	}

	synchronized boolean overflowed() {
		return this.overflowed;
	}

	synchronized byte[] body() {
		return this.body.toByteArray();
	}

}
