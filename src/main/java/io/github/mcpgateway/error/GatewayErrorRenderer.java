package io.github.mcpgateway.error;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;

/**
 * The one place that writes a gateway-made error on an MCP path.
 *
 * <p>
 * Shape:
 * {@code {"jsonrpc":"2.0","id":<request id or null>,"error":{"code":<category>,"message":...,
 * "data":{"code":"<stable code>"}}}} with the error's HTTP status (or 200, with
 * {@code data.status} naming the error's own and {@code data.retryAfter} its
 * {@code Retry-After} in seconds, where {@link RefusalStatuses} says so for a refused
 * request), {@code Content-Type:
 * application/json}, {@code Cache-Control: no-store} and, when the error has one,
 * {@code Retry-After}. An already committed response cannot carry an error any more; it
 * is left as it is.
 */
public final class GatewayErrorRenderer {

	private final JsonMapper jsonMapper;

	private final RefusalStatuses statuses;

	/** Every error with its own HTTP status. */
	public GatewayErrorRenderer(JsonMapper jsonMapper) {
		this(jsonMapper, RefusalStatuses.HTTP);
	}

	public GatewayErrorRenderer(JsonMapper jsonMapper, RefusalStatuses statuses) {
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		Assert.notNull(statuses, "statuses must not be null");
		this.jsonMapper = jsonMapper;
		this.statuses = statuses;
	}

	/**
	 * The HTTP status {@code error} is answered with: its own, or 200 where it refuses a
	 * JSON-RPC request ({@code request}: one with an id) and the refusal statuses say so.
	 */
	public int statusOf(GatewayError error, boolean request) {
		return statusOf(error, request, false);
	}

	/**
	 * As {@link #statusOf(GatewayError, boolean)}, for a request whose Idempotency-Key
	 * came in its message ({@code keyInMessage}), which gets every refusal of the key as
	 * a JSON-RPC error (ADR 0020).
	 */
	public int statusOf(GatewayError error, boolean request, boolean keyInMessage) {
		return (request && this.statuses.asJsonRpc(error, keyInMessage)) ? HttpStatus.OK.value()
				: error.status().value();
	}

	/**
	 * Render {@code error} on {@code response}.
	 * @param id the JSON-RPC id of the request when it is known, else {@code null}
	 * @return {@code false} when the response was already committed and nothing was
	 * written
	 */
	public boolean render(HttpServletResponse response, GatewayError error, @Nullable JsonNode id) throws IOException {
		return render(response, error, id, false);
	}

	/**
	 * Render {@code error} on {@code response}, for a request whose Idempotency-Key came
	 * in its message when {@code keyInMessage}
	 * ({@link #statusOf(GatewayError, boolean, boolean)}).
	 * @param id the JSON-RPC id of the request when it is known, else {@code null}
	 * @return {@code false} when the response was already committed and nothing was
	 * written
	 */
	public boolean render(HttpServletResponse response, GatewayError error, @Nullable JsonNode id, boolean keyInMessage)
			throws IOException {
		if (response.isCommitted()) {
			return false;
		}
		response.resetBuffer();
		int status = statusOf(error, id != null, keyInMessage);
		boolean asJsonRpc = status != error.status().value();
		response.setStatus(status);
		response.setContentType(MediaType.APPLICATION_JSON_VALUE);
		response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
		response.setHeader(HttpHeaders.CONTENT_ENCODING, null);
		if (error.retryAfter() != null) {
			response.setHeader(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds(error)));
		}
		ObjectNode root = body(error, id);
		if (asJsonRpc) {
			// What the status would have said, where the application can read it: SDKs
			// hand it the message, never the status line or the headers.
			ObjectNode data = (ObjectNode) root.get("error").get("data");
			data.put("status", error.status().value());
			if (error.retryAfter() != null) {
				data.put("retryAfter", retryAfterSeconds(error));
			}
		}
		byte[] body = this.jsonMapper.writeValueAsBytes(root);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		response.flushBuffer();
		return true;
	}

	/** {@code Retry-After} in whole seconds, at least one. */
	private static long retryAfterSeconds(GatewayError error) {
		return Math.max(1, (error.retryAfter().toMillis() + 999) / 1000);
	}

	/**
	 * Render {@code error} as RFC 9457 problem details, for paths that are not MCP
	 * endpoints (Actuator): {@code application/problem+json} with {@code status},
	 * {@code title}, {@code detail} and the stable {@code code} member.
	 * @return {@code false} when the response was already committed and nothing was
	 * written
	 */
	public boolean renderProblem(HttpServletResponse response, GatewayError error) throws IOException {
		if (response.isCommitted()) {
			return false;
		}
		response.resetBuffer();
		response.setStatus(error.status().value());
		response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
		response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
		ObjectNode problem = this.jsonMapper.createObjectNode();
		problem.put("type", "about:blank");
		problem.put("title", error.status().getReasonPhrase());
		problem.put("status", error.status().value());
		problem.put("detail", error.message());
		problem.put("code", error.code());
		byte[] body = this.jsonMapper.writeValueAsBytes(problem);
		response.setContentLength(body.length);
		response.getOutputStream().write(body);
		response.flushBuffer();
		return true;
	}

	/**
	 * Marks {@code response} {@code Connection: close} when {@code request} declares a
	 * body the gateway answers without reading (a refusal before identity or before the
	 * body is read). Tomcat closes such a connection after the answer instead of reading
	 * the rest of the body ({@code server.tomcat.max-swallow-size: 0}); the header tells
	 * the client so, and a client that pools connections does not send its next request
	 * on one about to close.
	 */
	public static void closeIfBodyUnread(HttpServletRequest request, HttpServletResponse response) {
		if ((request.getContentLengthLong() > 0 || request.getHeader(HttpHeaders.TRANSFER_ENCODING) != null)
				&& !bodyRead(request)) {
			response.setHeader(HttpHeaders.CONNECTION, "close");
		}
	}

	private static boolean bodyRead(HttpServletRequest request) {
		try {
			return request.getInputStream().isFinished();
		}
		catch (IOException | IllegalStateException ex) {
			return false;
		}
	}

	/** Whether {@code path} is an Actuator path, where errors are problem details. */
	public static boolean isActuatorPath(String path) {
		return path.equals("/actuator") || path.startsWith("/actuator/");
	}

	/**
	 * {@code error} as the JSON-RPC error response the gateway answers on an MCP path,
	 * for a part of the gateway that hands its answer on as a body rather than writing it
	 * to the servlet response (a stdio server's transport).
	 */
	public byte[] jsonRpcBody(GatewayError error, @Nullable JsonNode id) {
		return this.jsonMapper.writeValueAsBytes(body(error, id));
	}

	ObjectNode body(GatewayError error, @Nullable JsonNode id) {
		ObjectNode root = this.jsonMapper.createObjectNode();
		root.put("jsonrpc", "2.0");
		if (id == null) {
			root.putNull("id");
		}
		else {
			root.set("id", id);
		}
		ObjectNode errorNode = root.putObject("error");
		errorNode.put("code", error.category().jsonRpcCode());
		errorNode.put("message", error.message());
		ObjectNode data = errorNode.putObject("data").put("code", error.code());
		error.details().forEach(data::put);
		return root;
	}

}
