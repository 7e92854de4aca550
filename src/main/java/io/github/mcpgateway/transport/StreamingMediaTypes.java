package io.github.mcpgateway.transport;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;
import org.springframework.util.Assert;

/**
 * The media types the gateway relays as streams
 * ({@code spring.cloud.gateway.server.webmvc.streaming-media-types}, by default
 * {@code text/event-stream} and {@code application/x-ndjson}): their status and headers
 * go to the client as soon as the upstream's arrive, every read is flushed, and a keyed
 * reply of one of them is delivered once and never stored for replay (it is a stream in
 * the sense of the Idempotency-Key contract).
 */
public final class StreamingMediaTypes {

	private final List<MediaType> types;

	public StreamingMediaTypes(List<MediaType> types) {
		Assert.notNull(types, "types must not be null");
		this.types = List.copyOf(types);
	}

	/**
	 * Whether a {@code Content-Type} value is {@code text/event-stream} (whatever the
	 * configured streaming types); a malformed one is not.
	 */
	public static boolean isEventStream(@Nullable String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			return MediaType.TEXT_EVENT_STREAM.equalsTypeAndSubtype(MediaType.parseMediaType(contentType));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * Whether a reply's {@code Content-Type} value is JSON ({@code application/json}, any
	 * parameters); a malformed one is not. The one reply form that is never a stream.
	 */
	public static boolean isJson(@Nullable String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			return MediaType.APPLICATION_JSON.isCompatibleWith(MediaType.parseMediaType(contentType));
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	/**
	 * Whether a {@code Content-Type} value names a streaming type; a malformed one does
	 * not.
	 */
	public boolean isStreaming(@Nullable String contentType) {
		if (contentType == null) {
			return false;
		}
		try {
			MediaType type = MediaType.parseMediaType(contentType);
			return this.types.stream().anyMatch(type::equalsTypeAndSubtype);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

}
