package io.github.mcpgateway.transport;

import org.jspecify.annotations.Nullable;

/**
 * Sees a reply as the proxy relays it, and decides whether it is held back until the
 * request completes. The proxy's extension point: a stage records a tap on the request's
 * context before the proxy runs, and the proxy shows it every byte of the reply, whether
 * or not the client is still there. The Idempotency-Key stage records keyed replies this
 * way.
 */
public interface ReplyTap {

	/** Sees {@code length} bytes of the body as they are relayed. */
	void write(byte[] buffer, int offset, int length);

	/** The response buffer was reset: forget what was seen. */
	void reset();

	/**
	 * Whether a reply of this {@code Content-Type} stays in the response buffer (no
	 * flush, no declared length reaches the client) until the request completes.
	 */
	boolean holdsBack(@Nullable String contentType);

}
