package io.github.mcpgateway.error;

/**
 * The HTTP status of a gateway refusal of a JSON-RPC request (one with an id): the
 * error's own status, or 200 with the same JSON-RPC error body. See ADR 0014.
 */
public enum RefusalStatus {

	/**
	 * HTTP 200 with the JSON-RPC error: the MCP transport delivers a JSON-RPC error
	 * response like any response, and the official SDKs then raise a protocol error
	 * carrying {@code error.code} and {@code error.data} (with {@code data.status}, the
	 * status the error would otherwise have had). A non-2xx status makes them raise a
	 * transport error instead, which hides {@code data.code}.
	 */
	JSON_RPC,

	/** The error's own HTTP status (403, 409, ...), as the catalogue names it. */
	HTTP

}
