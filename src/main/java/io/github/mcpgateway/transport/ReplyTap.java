package io.github.mcpgateway.transport;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * Sees a reply as the proxy relays it, and decides whether it is held back until the
 * request completes. The proxy's extension point: a stage attaches a tap to the request
 * before the proxy runs ({@link #attach(ServletRequest, ReplyTap)}), and the proxy shows
 * it every byte of the reply, whether or not the client is still there. The
 * Idempotency-Key stage records keyed replies this way.
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

	/** Attaches {@code tap} to {@code request}, for the proxy to find. */
	static void attach(ServletRequest request, ReplyTap tap) {
		request.setAttribute(ReplyTap.class.getName(), tap);
	}

	/** The tap attached to {@code request}, or {@code null}. */
	static @Nullable ReplyTap find(ServletRequest request) {
		return (ReplyTap) request.getAttribute(ReplyTap.class.getName());
	}

}
