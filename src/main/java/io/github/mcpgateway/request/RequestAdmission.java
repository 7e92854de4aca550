package io.github.mcpgateway.request;

import java.io.IOException;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.security.web.firewall.RequestRejectedException;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * The request stage: admits a request on a server path as an MCP request or refuses it as
 * malformed. Reads every header once, takes the session id, reads and parses a POST body
 * once (the request every later stage and the proxy read it from is a
 * {@link CachedBodyRequest}) and checks the MCP routing headers against it; records the
 * result on the context. A refusal is thrown as a {@link GatewayErrorException}.
 */
final class RequestAdmission {

	private static final Set<String> METHODS = Set.of("POST", "GET", "DELETE");

	private final RequestBodyReader bodyReader;

	private final JsonRpcMessageParser parser;

	private final McpHeaderValidator headerValidator = new McpHeaderValidator();

	RequestAdmission(RequestBodyReader bodyReader, JsonRpcMessageParser parser) {
		this.bodyReader = bodyReader;
		this.parser = parser;
	}

	/** The request the rest of the pipeline reads, its context filled in. */
	HttpServletRequest admit(HttpServletRequest request, McpRequestContext context) throws IOException {
		checkHeaders(request);
		boolean stateless = McpRevisions.isStateless(request);
		String sessionId = stateless ? null : sessionId(request);
		context.parsed(sessionId, null, stateless);
		if (!METHODS.contains(request.getMethod())) {
			throw new GatewayErrorException(GatewayErrors.METHOD_NOT_ALLOWED);
		}
		if (!"POST".equals(request.getMethod())) {
			return request;
		}
		byte[] body = this.bodyReader.read(request);
		JsonRpcMessage message = this.parser.parse(body);
		context.parsed(sessionId, message, stateless);
		this.headerValidator.validate(request, message);
		return new CachedBodyRequest(request, body);
	}

	/**
	 * Reads every header once, so that a value Spring Security's HTTP firewall refuses
	 * (control characters, for example) is answered here as a bad request, not thrown
	 * later from deep in the proxy as a server error. A refused {@code Idempotency-Key}
	 * is an invalid key. A header the gateway decides on must come once
	 * ({@link SingleValuedHeaders}).
	 */
	static void checkHeaders(HttpServletRequest request) {
		List<String> names;
		try {
			names = Collections.list(request.getHeaderNames());
		}
		catch (RequestRejectedException ex) {
			throw new GatewayErrorException(GatewayErrors.HEADER_INVALID);
		}
		for (String name : names) {
			List<String> values;
			try {
				values = Collections.list(request.getHeaders(name));
			}
			catch (RequestRejectedException ex) {
				throw new GatewayErrorException(McpHeaders.IDEMPOTENCY_KEY.equalsIgnoreCase(name)
						? GatewayErrors.IDEMPOTENCY_KEY_INVALID : GatewayErrors.HEADER_INVALID);
			}
			GatewayError repeated = SingleValuedHeaders.refusal(name, values.size());
			if (repeated != null) {
				throw new GatewayErrorException(repeated);
			}
		}
	}

	/**
	 * The session id; an empty header counts as none (MCP session ids are 1 or more
	 * characters), and one with characters the HTTP firewall refuses is a bad request. A
	 * request of a stateless revision (2026-07-28) has none: that revision has no
	 * sessions and its servers ignore the header, so the gateway neither checks it nor
	 * sends it on.
	 */
	private static @Nullable String sessionId(HttpServletRequest request) {
		try {
			String sessionId = request.getHeader(McpHeaders.SESSION_ID);
			return (sessionId == null || sessionId.isBlank()) ? null : sessionId;
		}
		catch (RequestRejectedException ex) {
			throw new GatewayErrorException(GatewayErrors.HEADER_INVALID);
		}
	}

}
