package io.github.mcpgateway.transport;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;
import org.springframework.web.util.WebUtils;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;

/**
 * Which responses may turn into an event stream while their upstream is silent
 * ({@link SilentReply}), and the wrapper for them: a {@code POST} of a stateless
 * (2026-07-28) request whose client names {@code text/event-stream} in its {@code Accept}
 * (as the revision requires; a wildcard is not taken for it), whose reply goes to the
 * client (not held by the gateway to merge, {@link HeldReply}). Off when
 * {@code gateway.proxy.silent-reply-stream-after} is {@code 0}.
 */
public final class SilentReplies {

	/** Never wraps. */
	public static final SilentReplies OFF = new SilentReplies(null, null);

	private final @Nullable GatewayErrorRenderer errors;

	private final @Nullable JsonMapper json;

	private SilentReplies(@Nullable GatewayErrorRenderer errors, @Nullable JsonMapper json) {
		this.errors = errors;
		this.json = json;
	}

	/** Wraps the responses that qualify; the errors it sends come from {@code errors}. */
	public static SilentReplies on(GatewayErrorRenderer errors, JsonMapper json) {
		Assert.notNull(errors, "errors must not be null");
		Assert.notNull(json, "json must not be null");
		return new SilentReplies(errors, json);
	}

	/**
	 * The response the stages get for {@code message}: a {@link SilentReply} or as it is.
	 */
	public HttpServletResponse wrap(HttpServletRequest request, @Nullable JsonRpcMessage message,
			HttpServletResponse response) {
		GatewayErrorRenderer renderer = this.errors;
		JsonMapper mapper = this.json;
		if (renderer == null || mapper == null || message == null || message.kind() != JsonRpcMessage.Kind.REQUEST
				|| !"POST".equals(request.getMethod()) || !McpRevisions.isStateless(request)
				|| !acceptsEventStream(request) || WebUtils.getNativeResponse(response, HeldReply.class) != null) {
			return response;
		}
		SilentReplyBody body = new SilentReplyBody(response, message.id(),
				(status) -> renderer.jsonRpcBody(
						GatewayErrors.UPSTREAM_HTTP_ERROR.withDetail("upstreamStatus", Integer.toString(status)),
						message.id()),
				mapper);
		return new SilentReply(response, body);
	}

	/** Ends the stream of a {@link SilentReply}; nothing for any other response. */
	public static void finish(HttpServletResponse response) {
		if (response instanceof SilentReply reply) {
			reply.finish();
		}
	}

	private static boolean acceptsEventStream(HttpServletRequest request) {
		String accept = request.getHeader(HttpHeaders.ACCEPT);
		if (accept == null) {
			return false;
		}
		try {
			return MediaType.parseMediaTypes(accept)
				.stream()
				.anyMatch((type) -> type.equalsTypeAndSubtype(MediaType.TEXT_EVENT_STREAM));
		}
		catch (InvalidMediaTypeException ex) {
			return false;
		}
	}

}
