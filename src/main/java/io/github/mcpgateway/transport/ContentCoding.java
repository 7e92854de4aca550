package io.github.mcpgateway.transport;

import org.jspecify.annotations.Nullable;

/**
 * What a {@code Content-Encoding} value means to a stage that reads or stores a reply.
 */
public final class ContentCoding {

	private ContentCoding() {
	}

	/**
	 * Whether a reply with this {@code Content-Encoding} is encoded (RFC 9110 section
	 * 8.4): anything but absent, blank or {@code identity}. The gateway neither decodes
	 * such a reply nor stores it.
	 */
	public static boolean isEncoded(@Nullable String contentEncoding) {
		return contentEncoding != null && !contentEncoding.isBlank()
				&& !"identity".equalsIgnoreCase(contentEncoding.trim());
	}

}
