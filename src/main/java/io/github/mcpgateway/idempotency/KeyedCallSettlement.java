package io.github.mcpgateway.idempotency;

import java.time.Duration;
import java.util.Optional;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

import io.github.mcpgateway.idempotency.IdempotencyStore.TombstoneKind;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.request.Decision;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.ContentCoding;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * Decides what the store keeps of a keyed call that went down the pipeline, from what the
 * pipeline recorded ({@code dispatched}, the decision, a reply cut short) and the reply:
 * the contract's rules, written once in docs/idempotency.md ("What the first request's
 * outcome makes of a retry").
 */
final class KeyedCallSettlement {

	private final StreamingMediaTypes streamingMediaTypes;

	private final boolean replayEventStreams;

	/** Reads a recorded event stream's messages. */
	private final StrictJsonReader streamReader;

	KeyedCallSettlement(StreamingMediaTypes streamingMediaTypes, boolean replayEventStreams, int maxReplyBytes) {
		this.streamingMediaTypes = streamingMediaTypes;
		this.replayEventStreams = replayEventStreams;
		this.streamReader = new StrictJsonReader(new JsonReadLimits(1000, 10_000, 100_000,
				Math.max(JsonReadLimits.DEFAULT_MAX_STRING_LENGTH, maxReplyBytes)), maxReplyBytes);
	}

	/**
	 * What to keep of a call whose pipeline returned.
	 * @param keyInMessage whether the key came in {@code _meta}: its caller opted into
	 * replays per call, so an event stream is replayed as with
	 * {@code event-streams: replay} (ADR 0020)
	 */
	Settlement settle(McpRequestContext context, HttpServletResponse response, ReplyRecorder recorder,
			boolean keyInMessage) {
		int status = response.getStatus();
		// A call that created a task keeps its entry as long as the task may live: a
		// retry within that time gets the same task, never a second one.
		Duration lifetime = context.get(IdempotencyStage.KEEP_AT_LEAST);
		Duration atLeast = (lifetime != null) ? lifetime : Duration.ZERO;
		if (!context.upstream().dispatched()) {
			return Settlement.RELEASE;
		}
		if (context.decision() == Decision.UPSTREAM_ERROR || context.upstream().replyCutShort()) {
			return Settlement.tombstone(TombstoneKind.OUTCOME_UNKNOWN, atLeast);
		}
		if (status >= 400 && status < 500 || isInputRequired(context, response, recorder)) {
			// A 4xx did not run the call; an interim result asking for input (multi round
			// trip) is not its outcome: the follow-up that carries the input runs it,
			// with the same key.
			return Settlement.RELEASE;
		}
		if (status < 200 || status >= 300) {
			return Settlement.tombstone(TombstoneKind.OUTCOME_UNKNOWN, atLeast);
		}
		if (ContentCoding.isEncoded(response.getHeader(HttpHeaders.CONTENT_ENCODING)) || recorder.overflowed()) {
			return Settlement.tombstone(TombstoneKind.NOT_REPLAYABLE, atLeast);
		}
		if (this.streamingMediaTypes.isStreaming(response.getContentType())) {
			return settleStream(context, response, recorder, atLeast, this.replayEventStreams || keyInMessage);
		}
		return Settlement.complete(new StoredReply(status, response.getContentType(), recorder.body()), atLeast);
	}

	/**
	 * What to keep of a call whose pipeline failed unexpectedly after dispatch: the tool
	 * may have run.
	 */
	Settlement failed() {
		return Settlement.tombstone(TombstoneKind.OUTCOME_UNKNOWN, Duration.ZERO);
	}

	/**
	 * Whether a stateless (2026-07-28) call was answered with an interim result that asks
	 * for input ({@code result.resultType: "input_required"},
	 * {@code basic/patterns/mrtr}), as JSON or as the one response of an event stream.
	 */
	private boolean isInputRequired(McpRequestContext context, HttpServletResponse response, ReplyRecorder recorder) {
		if (!context.stateless() || recorder.overflowed() || response.getStatus() / 100 != 2) {
			return false;
		}
		byte[] body = recorder.body();
		Optional<byte[]> json = StreamingMediaTypes.isEventStream(response.getContentType())
				? StreamedResponse.of(body, context.requestId(), this.streamReader) : Optional.of(body);
		if (json.isEmpty()) {
			return false;
		}
		try {
			return "input_required"
				.equals(this.streamReader.read(json.get()).path("result").path("resultType").asString(null));
		}
		catch (MalformedJsonException ex) {
			return false;
		}
	}

	/**
	 * A stream is delivered once (the contract), unless {@code replay}
	 * ({@code event-streams: replay}, a key in {@code _meta}) and it is an event stream
	 * whose one final response can stand for it ({@link StreamedResponse}): then that
	 * response is stored as {@code application/json}.
	 */
	private Settlement settleStream(McpRequestContext context, HttpServletResponse response, ReplyRecorder recorder,
			Duration atLeast, boolean replay) {
		if (replay && StreamingMediaTypes.isEventStream(response.getContentType())) {
			Optional<byte[]> json = StreamedResponse.of(recorder.body(), context.requestId(), this.streamReader);
			if (json.isPresent()) {
				return Settlement.complete(
						new StoredReply(response.getStatus(), MediaType.APPLICATION_JSON_VALUE, json.get()), atLeast);
			}
		}
		return Settlement.tombstone(TombstoneKind.NOT_REPLAYABLE, atLeast);
	}

}
