package io.github.mcpgateway.transport;

import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

/**
 * Which MCP revision a request follows, as the gateway tells them apart: by its
 * {@code MCP-Protocol-Version} header (revisions are dates, so they order as strings).
 * 2026-07-28 and later are <em>stateless</em>: no sessions, no GET stream, routing
 * headers required, closing a response stream cancels its request, a retry carries a new
 * JSON-RPC id. Anything else (no header, 2025-03-26 through 2025-11-25, a value that is
 * not a revision date) is handled as the 2025 revisions are.
 */
public final class McpRevisions {

	/** The first stateless revision. */
	public static final String STATELESS = "2026-07-28";

	/**
	 * Where a 2026-07-28 request carries its protocol version in {@code params._meta}.
	 */
	public static final String META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";

	/**
	 * The revisions the gateway speaks where it answers as a server itself (a virtual
	 * server): every published one up to the current.
	 */
	public static final Set<String> KNOWN = Set.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", STATELESS);

	private McpRevisions() {
	}

	/** Whether {@code request} follows a stateless revision (2026-07-28 or later). */
	public static boolean isStateless(HttpServletRequest request) {
		return isStateless(request.getHeader(McpHeaders.PROTOCOL_VERSION));
	}

	/** Whether {@code version} names a stateless revision (2026-07-28 or later). */
	public static boolean isStateless(@Nullable String version) {
		return version != null && isRevisionDate(version) && version.compareTo(STATELESS) >= 0;
	}

	private static boolean isRevisionDate(String version) {
		if (version.length() != 10 || version.charAt(4) != '-' || version.charAt(7) != '-') {
			return false;
		}
		for (int i = 0; i < version.length(); i++) {
			if (i != 4 && i != 7 && (version.charAt(i) < '0' || version.charAt(i) > '9')) {
				return false;
			}
		}
		return true;
	}

}
