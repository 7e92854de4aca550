package io.github.mcpgateway.idempotency;

import java.io.ByteArrayOutputStream;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.proxy.ClientAwareResponse.BodyTap;
import io.github.mcpgateway.proxy.StreamingMediaTypes;

/**
 * Keeps a copy of the reply body up to the size cap; past it, only that the cap was
 * passed. Memory per keyed request is therefore at most the cap. Holds back every reply
 * but a stream until its outcome is recorded; a stream is relayed as it comes (it is
 * never replayed).
 */
final class ReplyRecorder implements BodyTap {

	private final int maxBytes;

	private final StreamingMediaTypes streamingMediaTypes;

	private final ByteArrayOutputStream body = new ByteArrayOutputStream();

	private boolean overflowed;

	ReplyRecorder(int maxBytes, StreamingMediaTypes streamingMediaTypes) {
		this.maxBytes = maxBytes;
		this.streamingMediaTypes = streamingMediaTypes;
	}

	@Override
	public boolean holdsBack(@Nullable String contentType) {
		return !this.streamingMediaTypes.isStreaming(contentType);
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
