package io.github.mcpgateway.idempotency;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.transport.CappedBuffer;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * Keeps a copy of the reply body up to the size cap; past it, only that the cap was
 * passed. Memory per keyed request is therefore at most the cap. Holds back every reply
 * but a stream until its outcome is recorded; a stream is relayed as it comes (it is
 * never replayed).
 */
final class ReplyRecorder implements ReplyTap {

	private final CappedBuffer body;

	private final StreamingMediaTypes streamingMediaTypes;

	ReplyRecorder(int maxBytes, StreamingMediaTypes streamingMediaTypes) {
		this.body = new CappedBuffer(maxBytes);
		this.streamingMediaTypes = streamingMediaTypes;
	}

	@Override
	public boolean holdsBack(@Nullable String contentType) {
		return !this.streamingMediaTypes.isStreaming(contentType);
	}

	@Override
	public synchronized void write(byte[] buffer, int offset, int length) {
		this.body.write(buffer, offset, length);
	}

	@Override
	public synchronized void reset() {
		this.body.reset();
	}

	synchronized boolean overflowed() {
		return this.body.overflowed();
	}

	synchronized byte[] body() {
		return this.body.toByteArray();
	}

}
