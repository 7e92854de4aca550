package io.github.mcpgateway.idempotency;

import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.RequestRefusalCustomizer;
import io.github.mcpgateway.transport.McpMetaKeys;
import io.github.mcpgateway.transport.McpRevisions;

/**
 * The contract's rule for a keyed request the request stage refuses: a request with an
 * {@code Idempotency-Key} (the header, or the {@code _meta} member of a body the stage
 * could read) that is not one valid JSON {@code tools/call} (malformed JSON, a request
 * method without an id, a batch, not JSON-RPC 2.0, not JSON, a method other than POST,
 * GET and DELETE, a disagreeing {@code Mcp-Method} or {@code Mcp-Name}) is answered
 * {@code 400 idempotency_unsupported_request}, so that the client learns no guarantee
 * applied. A body over the size cap stays {@code request_too_large}, one too slow
 * {@code request_body_timeout}, and a gateway failure stays {@code internal_error}. A
 * routing header refused on a 2026-07-28 request stays {@code header_mismatch}: that
 * revision names the error (-32020), and its SDKs act on it.
 */
final class KeyedRequestRefusals implements RequestRefusalCustomizer {

	/** Refusals meaning "not one JSON-RPC request". */
	private static final Set<GatewayError> NOT_A_TOOL_CALL = Set.of(GatewayErrors.INVALID_REQUEST,
			GatewayErrors.REQUEST_ID_MISSING, GatewayErrors.BATCH_NOT_SUPPORTED, GatewayErrors.UNSUPPORTED_MEDIA_TYPE,
			GatewayErrors.METHOD_NOT_ALLOWED, GatewayErrors.HEADER_MISMATCH);

	@Override
	public GatewayError customize(HttpServletRequest request, GatewayError error) {
		McpRequestContext context = McpRequestContext.require(request);
		if (!NOT_A_TOOL_CALL.contains(error) || !McpMetaKeys.carriesIdempotencyKey(request, context.message())
				|| (error == GatewayErrors.HEADER_MISMATCH && McpRevisions.isStateless(request))) {
			return error;
		}
		KeyedOutcome.record(context, IdempotencyOutcome.REJECTED, null);
		return GatewayErrors.IDEMPOTENCY_UNSUPPORTED_REQUEST;
	}

}
