package io.github.mcpgateway.error;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpStatus;
import org.springframework.util.Assert;

/**
 * An error that the gateway itself answers on an MCP path.
 *
 * <p>
 * Rendered by {@link GatewayErrorRenderer} as a JSON-RPC 2.0 error response:
 * {@code error.code} is the coarse {@link Category}, in the implementation-defined range
 * -32000..-32019 (JSON-RPC 2.0 section 5.1) but for those that stand for a code a
 * specification names ({@link Category#INVALID_PARAMS},
 * {@link Category#HEADER_MISMATCH}), {@code error.data.code} is the stable, documented
 * {@link #code()} that clients switch on, and the HTTP status is {@link #status()}.
 * {@link #message()} is a fixed, human-readable sentence: it never carries upstream
 * exception text, tokens or payloads.
 *
 * @param status the HTTP status of the response
 * @param category the JSON-RPC error code family
 * @param code the stable machine-readable code, for example {@code tool_not_granted}
 * @param message a fixed human-readable sentence
 * @param retryAfter when set, sent as {@code Retry-After} in whole seconds (at least one)
 * @param details further members of {@code error.data}, such as the {@code limit} that
 * refused: names from the policy, never a token, key or payload
 */
public record GatewayError(HttpStatus status, Category category, String code, String message,
		@Nullable Duration retryAfter, Map<String, String> details) {

	public GatewayError {
		Assert.hasText(code, "code must not be empty");
		Assert.hasText(message, "message must not be empty");
		details = (details != null) ? Map.copyOf(details) : Map.of();
	}

	/** The same error with a {@code Retry-After} hint. */
	public GatewayError withRetryAfter(Duration retryAfter) {
		return new GatewayError(this.status, this.category, this.code, this.message, retryAfter, this.details);
	}

	/** The same error with {@code name: value} in {@code error.data}. */
	public GatewayError withDetail(String name, String value) {
		Map<String, String> details = new LinkedHashMap<>(this.details);
		details.put(name, value);
		return new GatewayError(this.status, this.category, this.code, this.message, this.retryAfter, details);
	}

	/**
	 * JSON-RPC {@code error.code} families. The numbers are part of the public contract
	 * (see {@code docs/errors.md}) and never change meaning.
	 */
	public enum Category {

		/** The request is not a valid MCP message for this gateway. */
		INVALID_REQUEST(-32000),
		/** No verified identity, or an identity the gateway cannot verify. */
		UNAUTHENTICATED(-32001),
		/** The identity is known but not allowed. */
		FORBIDDEN(-32002),
		/** The request body is over the configured size cap. */
		TOO_LARGE(-32003),
		/** The server path or session is unknown. */
		NOT_FOUND(-32004),
		/** The upstream MCP server could not be reached or failed while answering. */
		UPSTREAM_FAILED(-32005),
		/** The upstream MCP server did not answer in time. */
		UPSTREAM_TIMEOUT(-32006),
		/** The gateway refused before dispatch to protect the upstream or itself. */
		UNAVAILABLE(-32007),
		/** An Idempotency-Key conflicts with an earlier request or its outcome. */
		IDEMPOTENCY_CONFLICT(-32008),
		/** Idempotency capacity for this caller is exhausted. */
		IDEMPOTENCY_CAPACITY(-32009),
		/** The gateway itself failed, or a service it depends on is unavailable. */
		INTERNAL(-32010),
		/**
		 * A per-caller bound of the gateway other than the Idempotency-Key's is reached.
		 */
		CAPACITY(-32011),
		/**
		 * The MCP routing headers are missing or disagree with the body: MCP 2026-07-28's
		 * own HeaderMismatch (-32020, in the range MCP reserves for protocol errors).
		 */
		HEADER_MISMATCH(-32020),
		/**
		 * The request's params name something this caller cannot use: JSON-RPC's own
		 * Invalid params (-32602), the code an MCP server answers for an unknown task, so
		 * that a task the caller may not see looks exactly like one that does not exist.
		 */
		INVALID_PARAMS(-32602),
		/**
		 * The method is not one the endpoint serves: JSON-RPC's own Method not found
		 * (-32601), as an MCP server answers a method it does not implement.
		 */
		METHOD_NOT_FOUND(-32601);

		private final int jsonRpcCode;

		Category(int jsonRpcCode) {
			this.jsonRpcCode = jsonRpcCode;
		}

		public int jsonRpcCode() {
			return this.jsonRpcCode;
		}

	}

}
