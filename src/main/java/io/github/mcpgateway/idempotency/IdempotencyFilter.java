package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.time.Duration;
import java.util.Optional;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.IdempotencyStore.TombstoneKind;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.request.McpRequestContext.Decision;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStageFilter;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.transport.ContentCoding;
import io.github.mcpgateway.transport.McpRevisions;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * The Idempotency-Key stage, after identity, sessions and grants and before the proxy: a
 * replay is therefore never served to a request those stages would refuse.
 *
 * <p>
 * Without the header it does nothing at all. With it, the request must be a governed
 * {@code tools/call} (400 {@code idempotency_unsupported_request}), the key valid (400
 * {@code idempotency_key_invalid}), the caller verified (400
 * {@code idempotency_requires_verified_identity}) and the server's UID known (503
 * {@code idempotency_unavailable}). The {@link IdempotencyStore} then starts, replays or
 * refuses it; a started request's outcome decides what the store keeps ({@code settle}):
 * the rules are the contract's, written once in docs/idempotency.md ("What the first
 * request's outcome makes of a retry"). A client that disconnects mid-call does not stop
 * the upstream call: its reply is read to the end and recorded, so the retry gets the
 * replay.
 */
public final class IdempotencyFilter extends McpStageFilter {

	private static final Log logger = LogFactory.getLog(IdempotencyFilter.class);

	/** Room for the error body the gateway may render instead of the reply. */
	private static final int RESPONSE_BUFFER_SLACK = 1024;

	private final IdempotencyStore store;

	private final Refusals refusals;

	private final int maxReplyBytes;

	private final StreamingMediaTypes streamingMediaTypes;

	private final InFlightCalls inFlight = new InFlightCalls();

	private final ReplayWriter replays;

	private final IdempotencyProperties.EventStreams eventStreams;

	private final boolean hashWithId;

	/** Reads a recorded event stream's messages ({@code event-streams: replay}). */
	private final StrictJsonReader streamReader;

	public IdempotencyFilter(IdempotencyStore store, Refusals refusals, IdempotencyProperties properties,
			StreamingMediaTypes streamingMediaTypes) {
		Assert.notNull(store, "store must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(streamingMediaTypes, "streamingMediaTypes must not be null");
		this.store = store;
		this.refusals = refusals;
		this.streamingMediaTypes = streamingMediaTypes;
		this.maxReplyBytes = (int) properties.activeLimits().maxReplySize().toBytes();
		this.eventStreams = properties.eventStreams();
		this.hashWithId = properties.requestHash() == IdempotencyProperties.RequestHash.WITH_JSONRPC_ID;
		this.replays = new ReplayWriter(this.eventStreams == IdempotencyProperties.EventStreams.REPLAY);
		this.streamReader = new StrictJsonReader(new JsonReadLimits(1000, 10_000, 100_000,
				Math.max(JsonReadLimits.DEFAULT_MAX_STRING_LENGTH, this.maxReplyBytes)), this.maxReplyBytes);
	}

	@Override
	protected boolean appliesTo(HttpServletRequest request, McpRequestContext context) {
		return context.decision() == Decision.ALLOWED
				&& (IdempotencyKey.isPresent(request) || InFlightCalls.cancelledId(context) != null);
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			McpRequestContext context) throws ServletException, IOException {
		if (!IdempotencyKey.isPresent(request)) {
			// An unkeyed notifications/cancelled: settle the call it names, then forward
			// it as any notification.
			String keyHash = this.inFlight.cancel(context, this.store);
			if (keyHash != null) {
				context.idempotency(IdempotencyOutcome.CANCELLED.tag(), keyHash);
			}
			chain.doFilter(request, response);
			return;
		}
		IdempotencyEntry entry;
		try {
			entry = admit(request, context);
		}
		catch (GatewayErrorException ex) {
			refuse(request, response, IdempotencyOutcome.REJECTED, null, ex.error(),
					(ex.error() == GatewayErrors.IDEMPOTENCY_UNAVAILABLE) ? Decision.REFUSED : Decision.INVALID);
			return;
		}
		String keyHash = entry.entryKey().substring(0, 16);
		BeginResult result;
		try {
			result = this.store.begin(entry);
		}
		catch (IdempotencyStoreException ex) {
			// Fail closed: a keyed request never runs without deduplication.
			logger.warn(ex.getMessage());
			refuse(request, response, IdempotencyOutcome.REJECTED, keyHash, GatewayErrors.IDEMPOTENCY_UNAVAILABLE,
					Decision.REFUSED);
			return;
		}
		if (result instanceof BeginResult.Replay replay) {
			context.idempotency(IdempotencyOutcome.REPLAY.tag(), keyHash);
			// A stateless retry carries a new id by rule, and gets its own id back.
			this.replays.write(request, response, replay.reply(), context.requestId(),
					!this.hashWithId || McpRevisions.isStateless(request));
			return;
		}
		if (result instanceof BeginResult.Refused refused) {
			refuse(request, response, outcome(refused.refusal()), keyHash, error(refused.refusal()), Decision.REFUSED);
			return;
		}
		context.idempotency(IdempotencyOutcome.FIRST.tag(), keyHash);
		execute(request, response, chain, entry, context);
	}

	/** Checks applicability in the contract's order and builds the scoped entry. */
	private IdempotencyEntry admit(HttpServletRequest request, McpRequestContext context) {
		JsonRpcMessage message = context.message();
		if (!"POST".equals(request.getMethod()) || message == null || !message.isToolCall()) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_UNSUPPORTED_REQUEST);
		}
		String key = IdempotencyKey.read(request);
		if (context.principal() == null || context.server().identity() == IdentityMode.DELEGATED_HEADER) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_REQUIRES_VERIFIED_IDENTITY);
		}
		if (context.server().uid() == null) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_UNAVAILABLE);
		}
		IdempotencyHasher.Hash hash = McpRevisions.isStateless(request) ? IdempotencyHasher.Hash.STATELESS
				: this.hashWithId ? IdempotencyHasher.Hash.WITH_ID : IdempotencyHasher.Hash.WITHOUT_ID;
		return IdempotencyHasher.entry(key, context.principal(), context.sessionId(), context.server().uid(), message,
				hash);
	}

	private void execute(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			IdempotencyEntry entry, McpRequestContext context) throws ServletException, IOException {
		// A reply within the cap stays in the response buffer until the outcome is
		// recorded: a client that retries as soon as it has the reply must find the key
		// settled.
		response.setBufferSize(Math.max(response.getBufferSize(), this.maxReplyBytes + RESPONSE_BUFFER_SLACK));
		ReplyRecorder recorder = new ReplyRecorder(this.maxReplyBytes, this.streamingMediaTypes);
		ReplyTap.attach(request, recorder);
		InFlightCalls.Call call = this.inFlight.start(context, entry, request);
		boolean completed = false;
		try {
			chain.doFilter(request, response);
			completed = true;
		}
		finally {
			try {
				// A cancellation may have settled the call already (outcome unknown).
				if (call.claim()) {
					if (completed) {
						settle(request, response, recorder, entry);
					}
					else {
						// An unexpected failure after dispatch: the tool may have run.
						this.store.tombstone(entry, TombstoneKind.OUTCOME_UNKNOWN);
					}
				}
			}
			catch (IdempotencyStoreException ex) {
				// The entry stays in flight; once its lease lapses it becomes an
				// outcome-unknown tombstone. The reply still goes to the client.
				logger.error("Could not record an Idempotency-Key outcome: " + ex.getMessage());
			}
			finally {
				this.inFlight.finish(call);
			}
		}
	}

	private void settle(HttpServletRequest request, HttpServletResponse response, ReplyRecorder recorder,
			IdempotencyEntry entry) {
		McpRequestContext after = McpRequestContext.require(request);
		int status = response.getStatus();
		// A call that created a task keeps its entry as long as the task may live: a
		// retry within that time gets the same task, never a second one.
		Duration atLeast = (after.createdTaskLifetime() != null) ? after.createdTaskLifetime() : Duration.ZERO;
		if (!after.dispatched()) {
			this.store.release(entry);
		}
		else if (after.decision() == Decision.UPSTREAM_ERROR || after.replyCutShort()) {
			this.store.tombstone(entry, TombstoneKind.OUTCOME_UNKNOWN, atLeast);
		}
		else if (status >= 400 && status < 500 || isInputRequired(request, response, recorder, after)) {
			// A 4xx did not run the call; an interim result asking for input (multi round
			// trip) is not its outcome: the follow-up that carries the input runs it,
			// with
			// the same key.
			this.store.release(entry);
		}
		else if (status < 200 || status >= 300) {
			this.store.tombstone(entry, TombstoneKind.OUTCOME_UNKNOWN, atLeast);
		}
		else if (ContentCoding.isEncoded(response.getHeader(HttpHeaders.CONTENT_ENCODING)) || recorder.overflowed()) {
			this.store.tombstone(entry, TombstoneKind.NOT_REPLAYABLE, atLeast);
		}
		else if (this.streamingMediaTypes.isStreaming(response.getContentType())) {
			settleStream(response, recorder, entry, after, atLeast);
		}
		else {
			this.store.complete(entry, new StoredReply(status, response.getContentType(), recorder.body()), atLeast);
		}
	}

	/**
	 * Whether a stateless (2026-07-28) call was answered with an interim result that asks
	 * for input ({@code result.resultType: "input_required"},
	 * {@code basic/patterns/mrtr}), as JSON or as the one response of an event stream.
	 */
	private boolean isInputRequired(HttpServletRequest request, HttpServletResponse response, ReplyRecorder recorder,
			McpRequestContext context) {
		if (!McpRevisions.isStateless(request) || recorder.overflowed() || response.getStatus() / 100 != 2) {
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
	 * A stream is delivered once (the contract), unless {@code event-streams: replay} and
	 * it is an event stream whose one final response can stand for it
	 * ({@link StreamedResponse}): then that response is stored as
	 * {@code application/json}.
	 */
	private void settleStream(HttpServletResponse response, ReplyRecorder recorder, IdempotencyEntry entry,
			McpRequestContext context, Duration atLeast) {
		if (this.eventStreams == IdempotencyProperties.EventStreams.REPLAY
				&& StreamingMediaTypes.isEventStream(response.getContentType())) {
			Optional<byte[]> json = StreamedResponse.of(recorder.body(), context.requestId(), this.streamReader);
			if (json.isPresent()) {
				this.store.complete(entry,
						new StoredReply(response.getStatus(), MediaType.APPLICATION_JSON_VALUE, json.get()), atLeast);
				return;
			}
		}
		this.store.tombstone(entry, TombstoneKind.NOT_REPLAYABLE, atLeast);
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, IdempotencyOutcome outcome,
			String keyHash, GatewayError error, Decision decision) throws IOException {
		McpRequestContext.require(request).idempotency(outcome.tag(), keyHash);
		this.refusals.refuse(request, response, decision, error);
	}

	private static IdempotencyOutcome outcome(Refusal refusal) {
		return switch (refusal) {
			case CONFLICT -> IdempotencyOutcome.CONFLICT;
			case IN_FLIGHT -> IdempotencyOutcome.IN_FLIGHT;
			case OUTCOME_UNKNOWN -> IdempotencyOutcome.UNKNOWN_OUTCOME;
			case NOT_REPLAYABLE -> IdempotencyOutcome.NOT_REPLAYABLE;
			case CAPACITY -> IdempotencyOutcome.CAPACITY;
		};
	}

	private static GatewayError error(Refusal refusal) {
		return switch (refusal) {
			case CONFLICT -> GatewayErrors.IDEMPOTENCY_KEY_CONFLICT;
			case IN_FLIGHT -> GatewayErrors.IDEMPOTENCY_IN_FLIGHT;
			case OUTCOME_UNKNOWN -> GatewayErrors.IDEMPOTENCY_OUTCOME_UNKNOWN;
			case NOT_REPLAYABLE -> GatewayErrors.IDEMPOTENCY_RESPONSE_NOT_REPLAYABLE;
			case CAPACITY -> GatewayErrors.IDEMPOTENCY_CAPACITY;
		};
	}

}
