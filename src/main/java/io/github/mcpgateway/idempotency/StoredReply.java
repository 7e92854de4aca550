package io.github.mcpgateway.idempotency;

import org.jspecify.annotations.Nullable;

/**
 * A completed reply kept for replay: only status, {@code Content-Type} and body, as the
 * contract says; upstream headers are not stored.
 *
 * @param status the upstream's HTTP status (2xx)
 * @param contentType the upstream's {@code Content-Type}, or {@code null}
 * @param body the body bytes, within the configured cap; never modified after
 * construction
 */
public record StoredReply(int status, @Nullable String contentType, byte[] body) {

	public int size() {
		return this.body.length;
	}

}
