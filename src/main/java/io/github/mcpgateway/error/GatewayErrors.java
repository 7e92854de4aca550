package io.github.mcpgateway.error;

import java.time.Duration;
import java.util.Map;

import org.springframework.http.HttpStatus;

import io.github.mcpgateway.error.GatewayError.Category;

/**
 * The catalogue of gateway-made errors. Every code here is listed in
 * {@code docs/errors.md}; add a code there when you add one here.
 */
public final class GatewayErrors {

	public static final GatewayError INVALID_REQUEST = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"invalid_request", "The request is not a valid JSON-RPC 2.0 request object");

	public static final GatewayError REQUEST_ID_MISSING = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"request_id_missing",
			"A request needs a string or number id; only notifications/* methods may be sent without one");

	public static final GatewayError BATCH_NOT_SUPPORTED = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"batch_not_supported", "JSON-RPC batches are not supported; send one message per request");

	public static final GatewayError HEADER_MISMATCH = of(HttpStatus.BAD_REQUEST, Category.HEADER_MISMATCH,
			"header_mismatch",
			"An MCP routing header (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) is missing, repeated or disagrees with the request body");

	public static final GatewayError HEADER_INVALID = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"header_invalid", "A header is repeated or contains characters the gateway does not accept");

	public static final GatewayError UNSUPPORTED_MEDIA_TYPE = of(HttpStatus.UNSUPPORTED_MEDIA_TYPE,
			Category.INVALID_REQUEST, "unsupported_media_type",
			"MCP messages must be sent as application/json in UTF-8");

	public static final GatewayError METHOD_NOT_ALLOWED = of(HttpStatus.METHOD_NOT_ALLOWED, Category.INVALID_REQUEST,
			"method_not_allowed", "Only POST, GET and DELETE are accepted on an MCP endpoint");

	public static final GatewayError REQUEST_TOO_LARGE = of(HttpStatus.CONTENT_TOO_LARGE, Category.TOO_LARGE,
			"request_too_large", "The request body is larger than the gateway accepts");

	public static final GatewayError REQUEST_BODY_TIMEOUT = of(HttpStatus.REQUEST_TIMEOUT, Category.INVALID_REQUEST,
			"request_body_timeout", "The request body did not arrive in time; the connection is closed");

	public static final GatewayError UNAUTHENTICATED = of(HttpStatus.UNAUTHORIZED, Category.UNAUTHENTICATED,
			"unauthenticated", "A valid bearer token is required");

	public static final GatewayError INVALID_TOKEN = of(HttpStatus.UNAUTHORIZED, Category.UNAUTHENTICATED,
			"invalid_token", "The bearer token is invalid, expired or not issued for this resource");

	public static final GatewayError CERTIFICATE_REQUIRED = of(HttpStatus.UNAUTHORIZED, Category.UNAUTHENTICATED,
			"certificate_required", "A trusted client certificate that names a principal is required");

	public static final GatewayError PRINCIPAL_REVOKED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"principal_revoked", "Access for this principal has been revoked");

	public static final GatewayError NOT_FOUND = of(HttpStatus.NOT_FOUND, Category.NOT_FOUND, "not_found",
			"No MCP server or endpoint at this path");

	public static final GatewayError SESSION_NOT_FOUND = of(HttpStatus.NOT_FOUND, Category.NOT_FOUND,
			"session_not_found", "Unknown or ended MCP session; initialize a new one");

	public static final GatewayError SESSION_ID_MISSING = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"session_id_missing", "This request needs the Mcp-Session-Id its session's initialize answered with");

	public static final GatewayError PROTOCOL_VERSION_UNSUPPORTED = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"protocol_version_unsupported",
			"The MCP-Protocol-Version header names no protocol revision this endpoint speaks");

	public static final GatewayError SESSION_STORE_UNAVAILABLE = of(HttpStatus.SERVICE_UNAVAILABLE,
			Category.UNAVAILABLE, "session_store_unavailable", "The session store cannot be reached; retry shortly")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError SHUTTING_DOWN = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"shutting_down", "This gateway replica is shutting down; open the stream again")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError SERVER_NOT_GRANTED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"server_not_granted", "No grant allows this principal to use this MCP server");

	public static final GatewayError TOOL_NOT_GRANTED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN, "tool_not_granted",
			"No grant allows this principal to call this tool");

	public static final GatewayError PROMPT_NOT_GRANTED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"prompt_not_granted", "No grant allows this principal to get this prompt");

	public static final GatewayError RESOURCE_NOT_GRANTED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"resource_not_granted", "No grant allows this principal to read this resource");

	public static final GatewayError TOOL_ARGUMENTS_DENIED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"tool_arguments_denied", "The grants that list this tool do not allow a call with these arguments");

	public static final GatewayError PROMPT_ARGUMENTS_DENIED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"prompt_arguments_denied", "The grants that list this prompt do not allow it with these arguments");

	public static final GatewayError RESOURCE_PARAMS_DENIED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"resource_params_denied", "The grants that list this resource do not allow this request for it");

	public static final GatewayError RATE_LIMITED = of(HttpStatus.TOO_MANY_REQUESTS, Category.CAPACITY, "rate_limited",
			"A limit of this server is reached for this caller; retry after the time Retry-After gives");

	public static final GatewayError CONDITION_BUDGET_EXHAUSTED = of(HttpStatus.TOO_MANY_REQUESTS, Category.CAPACITY,
			"condition_budget_exhausted",
			"This caller has spent its share of grant condition evaluation time; retry after the time Retry-After gives");

	public static final GatewayError TOO_MANY_REQUESTS = of(HttpStatus.TOO_MANY_REQUESTS, Category.CAPACITY,
			"too_many_requests", "Too many requests of this caller are in flight; retry after one finishes")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError TOO_MANY_STREAMS = of(HttpStatus.TOO_MANY_REQUESTS, Category.CAPACITY,
			"too_many_streams", "This caller has too many listen streams open; close one first")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError STREAM_CAPACITY = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"stream_capacity", "This gateway replica holds as many listen streams as it may; retry later")
		.withRetryAfter(Duration.ofSeconds(5));

	public static final GatewayError QUOTA_STORE_UNAVAILABLE = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"quota_store_unavailable", "The quota store cannot be reached; retry shortly")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError TASK_NOT_FOUND = of(HttpStatus.BAD_REQUEST, Category.INVALID_PARAMS,
			"task_not_found", "Task not found");

	public static final GatewayError TASK_CURSOR_INVALID = of(HttpStatus.BAD_REQUEST, Category.INVALID_PARAMS,
			"task_cursor_invalid", "Invalid cursor");

	public static final GatewayError TASK_CAPACITY = of(HttpStatus.TOO_MANY_REQUESTS, Category.CAPACITY,
			"task_capacity", "Too many live tasks for this caller; call without a task, or wait for tasks to expire");

	public static final GatewayError TASK_STORE_UNAVAILABLE = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"task_store_unavailable", "The task store cannot be reached; retry shortly")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError ACCESS_DENIED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN, "access_denied",
			"Access denied");

	public static final GatewayError OPERATOR_REQUIRED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"operator_required", "Only operators (gateway.identity.operators) may use this endpoint");

	public static final GatewayError UPSTREAM_UNAVAILABLE = of(HttpStatus.BAD_GATEWAY, Category.UPSTREAM_FAILED,
			"upstream_unavailable", "The upstream MCP server could not be reached");

	public static final GatewayError UPSTREAM_FAILED = of(HttpStatus.BAD_GATEWAY, Category.UPSTREAM_FAILED,
			"upstream_failed", "The upstream MCP server failed while answering");

	public static final GatewayError UPSTREAM_TIMEOUT = of(HttpStatus.GATEWAY_TIMEOUT, Category.UPSTREAM_TIMEOUT,
			"upstream_timeout", "The upstream MCP server did not answer in time");

	public static final GatewayError UPSTREAM_REPLY_UNFILTERABLE = of(HttpStatus.BAD_GATEWAY, Category.UPSTREAM_FAILED,
			"upstream_reply_unfilterable",
			"The upstream tools/list reply could not be filtered by policy, so it was withheld");

	/**
	 * An upstream answered a request whose reply was already going out as an event stream
	 * (a silent 2026-07-28 reply) with something that is not a JSON-RPC response: an
	 * error status and a body a client cannot read in an event.
	 */
	public static final GatewayError UPSTREAM_HTTP_ERROR = of(HttpStatus.BAD_GATEWAY, Category.UPSTREAM_FAILED,
			"upstream_http_error", "The upstream MCP server answered with an HTTP error and no JSON-RPC response");

	public static final GatewayError CIRCUIT_OPEN = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"upstream_circuit_open", "The upstream MCP server is failing; calls are paused");

	public static final GatewayError BULKHEAD_FULL = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"upstream_overloaded", "Too many concurrent calls to this MCP server")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError UPSTREAM_TOKEN_REFUSED = of(HttpStatus.FORBIDDEN, Category.FORBIDDEN,
			"upstream_token_refused",
			"The authorization server refused a token for this MCP server's upstream on this caller's behalf");

	public static final GatewayError UPSTREAM_TOKEN_UNAVAILABLE = of(HttpStatus.SERVICE_UNAVAILABLE,
			Category.UNAVAILABLE, "upstream_token_unavailable",
			"The authorization server that issues this MCP server's upstream tokens cannot be reached");

	public static final GatewayError IDEMPOTENCY_UNSUPPORTED_REQUEST = of(HttpStatus.BAD_REQUEST,
			Category.INVALID_REQUEST, "idempotency_unsupported_request",
			"An Idempotency-Key (header or params._meta) is only supported on a JSON-RPC tools/call request");

	public static final GatewayError IDEMPOTENCY_KEY_INVALID = of(HttpStatus.BAD_REQUEST, Category.INVALID_REQUEST,
			"idempotency_key_invalid",
			"An Idempotency-Key is 1 to 255 visible ASCII characters: one header, or a string in params._meta (both only if equal)");

	public static final GatewayError IDEMPOTENCY_REQUIRES_VERIFIED_IDENTITY = of(HttpStatus.BAD_REQUEST,
			Category.INVALID_REQUEST, "idempotency_requires_verified_identity",
			"Idempotency-Key needs a caller the gateway verified; this server has none");

	public static final GatewayError IDEMPOTENCY_UNAVAILABLE = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"idempotency_unavailable", "Idempotency-Key cannot be honoured for this server now");

	/**
	 * The shared Idempotency-Key store lost data (a restart without persistence, a flush,
	 * a failover that lost writes) and does not hold this key: it may be the retry of a
	 * call the store forgot, so it does not run until the fence ends (ADR 0025);
	 * {@code Retry-After} says when.
	 */
	public static final GatewayError IDEMPOTENCY_STORE_RECOVERING = of(HttpStatus.SERVICE_UNAVAILABLE,
			Category.UNAVAILABLE, "idempotency_store_recovering",
			"The Idempotency-Key store lost data; a key it does not hold cannot run until its fence ends");

	public static final GatewayError IDEMPOTENCY_KEY_CONFLICT = of(HttpStatus.CONFLICT, Category.IDEMPOTENCY_CONFLICT,
			"idempotency_key_conflict", "This Idempotency-Key was used for a different request");

	public static final GatewayError IDEMPOTENCY_IN_FLIGHT = of(HttpStatus.CONFLICT, Category.IDEMPOTENCY_CONFLICT,
			"idempotency_in_flight", "A request with this Idempotency-Key is still running")
		.withRetryAfter(Duration.ofSeconds(1));

	public static final GatewayError IDEMPOTENCY_OUTCOME_UNKNOWN = of(HttpStatus.CONFLICT,
			Category.IDEMPOTENCY_CONFLICT, "idempotency_outcome_unknown",
			"The first request with this Idempotency-Key may or may not have run; it will not run again");

	public static final GatewayError IDEMPOTENCY_RESPONSE_NOT_REPLAYABLE = of(HttpStatus.CONFLICT,
			Category.IDEMPOTENCY_CONFLICT, "idempotency_response_not_replayable",
			"The request with this Idempotency-Key ran, but its reply cannot be replayed");

	public static final GatewayError IDEMPOTENCY_CAPACITY = of(HttpStatus.TOO_MANY_REQUESTS,
			Category.IDEMPOTENCY_CAPACITY, "idempotency_capacity",
			"Too many Idempotency-Key entries for this caller; retry later or send without a key");

	public static final GatewayError IDENTITY_UNAVAILABLE = of(HttpStatus.SERVICE_UNAVAILABLE, Category.INTERNAL,
			"identity_unavailable", "The gateway cannot verify tokens right now (the issuer's keys are unreachable)")
		.withRetryAfter(Duration.ofSeconds(5));

	public static final GatewayError VIRTUAL_METHOD_UNSUPPORTED = of(HttpStatus.BAD_REQUEST, Category.METHOD_NOT_FOUND,
			"virtual_method_unsupported", "A virtual server does not serve this method yet");

	public static final GatewayError TOOL_UNKNOWN = of(HttpStatus.BAD_REQUEST, Category.INVALID_PARAMS, "tool_unknown",
			"No tool of this name is served here: its prefix names no member, or the member's tool is not selected");

	public static final GatewayError LIST_CURSOR_INVALID = of(HttpStatus.BAD_REQUEST, Category.INVALID_PARAMS,
			"list_cursor_invalid", "Invalid cursor");

	public static final GatewayError PROMPT_UNKNOWN = of(HttpStatus.BAD_REQUEST, Category.INVALID_PARAMS,
			"prompt_unknown",
			"No prompt of this name is served here: its prefix names no member, or the member's prompt is not selected");

	public static final GatewayError RESOURCE_UNKNOWN = of(HttpStatus.BAD_REQUEST, Category.INVALID_PARAMS,
			"resource_unknown", "No member of this virtual server lists this resource or a template it matches");

	public static final GatewayError MEMBER_UNAVAILABLE = of(HttpStatus.BAD_GATEWAY, Category.UPSTREAM_FAILED,
			"member_unavailable", "The member server that serves this request could not open a session");

	public static final GatewayError STREAM_ALREADY_OPEN = of(HttpStatus.CONFLICT, Category.INVALID_REQUEST,
			"stream_already_open", "This session's GET stream is already open; one at a time");

	public static final GatewayError STDIO_PROCESS_CAPACITY = of(HttpStatus.SERVICE_UNAVAILABLE, Category.UNAVAILABLE,
			"stdio_process_capacity",
			"This stdio server, or this gateway replica, runs as many processes as it may; retry later")
		.withRetryAfter(Duration.ofSeconds(5));

	public static final GatewayError STDIO_PROCESSES_PER_PRINCIPAL = of(HttpStatus.TOO_MANY_REQUESTS, Category.CAPACITY,
			"stdio_processes_per_principal",
			"This caller has as many sessions (processes) of this stdio server as it may; end one (DELETE) first")
		.withRetryAfter(Duration.ofSeconds(5));

	public static final GatewayError INTERNAL_ERROR = of(HttpStatus.INTERNAL_SERVER_ERROR, Category.INTERNAL,
			"internal_error", "The gateway failed to handle the request");

	private GatewayErrors() {
	}

	private static GatewayError of(HttpStatus status, Category category, String code, String message) {
		return new GatewayError(status, category, code, message, null, Map.of());
	}

}
