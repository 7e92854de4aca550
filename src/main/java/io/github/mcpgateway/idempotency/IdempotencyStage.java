package io.github.mcpgateway.idempotency;

import java.io.IOException;
import java.time.Duration;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonMembers;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.request.CachedBodyRequest;
import io.github.mcpgateway.request.ContextSlot;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.transport.McpMetaKeys;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.StreamingMediaTypes;

/**
 * The Idempotency-Key stage, after identity, sessions and grants and before the proxy: a
 * replay is therefore never served to a request those stages would refuse.
 *
 * <p>
 * Without a key, the {@code Idempotency-Key} header or the {@code params._meta} member
 * {@value McpMetaKeys#IDEMPOTENCY_KEY} ({@link IdempotencyKey}), it does nothing at all
 * but settle a keyed call a {@code notifications/cancelled} names. With one, the request
 * must be a governed {@code tools/call} (400 {@code idempotency_unsupported_request}),
 * the key valid (400 {@code idempotency_key_invalid}), the caller verified (400
 * {@code idempotency_requires_verified_identity}) and the server's UID known (503
 * {@code idempotency_unavailable}). The {@link IdempotencyStore} then starts, replays or
 * refuses it; a started request's outcome decides what the store keeps
 * ({@link KeyedCallSettlement}, once the rest of the pipeline is done). A client that
 * disconnects mid-call does not stop the upstream call: its reply is read to the end and
 * recorded, so the retry gets the replay.
 *
 * <p>
 * A key sent in {@code _meta} is the caller's choice per call (ADR 0020): it is retried
 * by calling again, so its hash leaves out the id and per-attempt members, an event
 * stream is replayed, every refusal is a JSON-RPC error the SDK hands to the application
 * ({@code Refusals}), a replay is marked in its result's {@code _meta}, and the member is
 * taken out of the body before it goes upstream.
 */
public final class IdempotencyStage implements McpStage {

	/**
	 * What the proxy shows every byte of the reply to: the recorder of a started keyed
	 * call. Written by this stage only.
	 */
	public static final ContextSlot<ReplyTap> REPLY_TAP = ContextSlot.declare("reply tap");

	/**
	 * How long a keyed call's entry is kept at least: as long as what the call created
	 * may live, so that a retry within that time gets the same (the task a
	 * {@code tools/call} created: the task stage, a later stage, is its one writer).
	 */
	public static final ContextSlot<Duration> KEEP_AT_LEAST = ContextSlot.declare("keyed call lifetime");

	private static final ContextSlot.Writer<ReplyTap> replyTapWriter = REPLY_TAP.writer();

	private static final Log logger = LogFactory.getLog(IdempotencyStage.class);

	/** Room for the error body the gateway may render instead of the reply. */
	private static final int RESPONSE_BUFFER_SLACK = 1024;

	private final IdempotencyStore store;

	private final int maxReplyBytes;

	private final StreamingMediaTypes streamingMediaTypes;

	private final InFlightCalls inFlight = new InFlightCalls();

	private final ReplayWriter replays;

	private final KeyedCallSettlement settlement;

	private final boolean hashWithId;

	/** The form of a replay for a key sent as the header. */
	private final ReplayWriter.Form headerReplays;

	private final CapacityRefusals capacityRefusals;

	IdempotencyStage(IdempotencyStore store, IdempotencyProperties properties, StreamingMediaTypes streamingMediaTypes,
			CapacityRefusals capacityRefusals) {
		Assert.notNull(store, "store must not be null");
		Assert.notNull(streamingMediaTypes, "streamingMediaTypes must not be null");
		Assert.notNull(capacityRefusals, "capacityRefusals must not be null");
		this.store = store;
		this.capacityRefusals = capacityRefusals;
		this.streamingMediaTypes = streamingMediaTypes;
		// The reply cap is gateway.idempotency.limits.max-reply-size with both stores
		// (configuration.md); the Redis block's max-reply-size is accepted and unused.
		this.maxReplyBytes = (int) properties.limits().maxReplySize().toBytes();
		boolean replayEventStreams = properties.eventStreams() == IdempotencyProperties.EventStreams.REPLAY;
		this.hashWithId = properties.requestHash() == IdempotencyProperties.RequestHash.WITH_JSONRPC_ID;
		this.headerReplays = new ReplayWriter.Form(!this.hashWithId, false, replayEventStreams);
		this.replays = new ReplayWriter();
		this.settlement = new KeyedCallSettlement(streamingMediaTypes, replayEventStreams, this.maxReplyBytes);
	}

	@Override
	public boolean appliesTo(McpExchange exchange) {
		return McpMetaKeys.carriesIdempotencyKey(exchange.request(), exchange.context().message())
				|| InFlightCalls.cancelledId(exchange.context()) != null;
	}

	@Override
	public StageDecision decide(McpExchange exchange) throws IOException {
		HttpServletRequest request = exchange.request();
		McpRequestContext context = exchange.context();
		if (!McpMetaKeys.carriesIdempotencyKey(request, context.message())) {
			// An unkeyed notifications/cancelled: settle the call it names, then forward
			// it as any notification.
			String keyHash = this.inFlight.cancel(context, this.store);
			if (keyHash != null) {
				KeyedOutcome.record(context, IdempotencyOutcome.CANCELLED, keyHash);
			}
			return StageDecision.proceed();
		}
		Admitted admitted;
		try {
			admitted = admit(request, context);
		}
		catch (GatewayErrorException ex) {
			KeyedOutcome.record(context, IdempotencyOutcome.REJECTED, null);
			return StageDecision.refuse(ex.error());
		}
		return begin(exchange, admitted);
	}

	/**
	 * Starts, replays or refuses an admitted call. A started call is committed to run: a
	 * charge an earlier stage deferred until then (the quota's) is taken now, so a replay
	 * consumes nothing; when the charge refuses, the key is given back.
	 */
	private StageDecision begin(McpExchange exchange, Admitted admitted) throws IOException {
		McpRequestContext context = exchange.context();
		IdempotencyEntry entry = admitted.entry();
		String keyHash = entry.entryKey().substring(0, 16);
		BeginResult result;
		try {
			result = this.store.begin(entry);
		}
		catch (IdempotencyStoreException ex) {
			// Fail closed: a keyed request never runs without deduplication.
			logger.warn(ex.getMessage());
			KeyedOutcome.record(context, IdempotencyOutcome.REJECTED, keyHash);
			return StageDecision.refuse(GatewayErrors.IDEMPOTENCY_UNAVAILABLE);
		}
		if (result instanceof BeginResult.Replay replay) {
			KeyedOutcome.record(context, IdempotencyOutcome.REPLAY, keyHash);
			this.replays.write(exchange.request(), exchange.response(), replay.reply(), context.requestId(),
					replayForm(admitted.key(), context));
			return StageDecision.answered();
		}
		if (result instanceof BeginResult.Refused refused) {
			if (refused.limit() != null) {
				this.capacityRefusals.refused(refused.limit());
			}
			KeyedOutcome.record(context, refused.refusal().outcome(), keyHash);
			return StageDecision.refuse(refused.error());
		}
		return StageDecision.commit(() -> {
			KeyedOutcome.record(context, IdempotencyOutcome.FIRST, keyHash);
			return execute(exchange, admitted);
		}, () -> withdraw(context, entry, keyHash));
	}

	/** A charge refused the started call: the key is given back, nothing is stored. */
	private void withdraw(McpRequestContext context, IdempotencyEntry entry, String keyHash) {
		try {
			this.store.release(entry);
		}
		catch (IdempotencyStoreException ex) {
			// Left in flight until its lease ends; a retry meanwhile is told so.
			logger.warn(ex.getMessage());
		}
		KeyedOutcome.record(context, IdempotencyOutcome.REJECTED, keyHash);
	}

	/**
	 * A key in {@code _meta} gets the retry's id, the replay marker and, for a client
	 * that takes no JSON, a one-event stream (ADR 0020); a header key what the settings
	 * say, and the retry's id for a stateless retry, which carries a new id by rule.
	 */
	private ReplayWriter.Form replayForm(IdempotencyKey key, McpRequestContext context) {
		if (key.inMessage()) {
			return ReplayWriter.Form.IN_MESSAGE;
		}
		return context.stateless() ? new ReplayWriter.Form(true, false, this.headerReplays.streamToStreamClients())
				: this.headerReplays;
	}

	/** Checks applicability in the contract's order and builds the scoped entry. */
	private Admitted admit(HttpServletRequest request, McpRequestContext context) {
		JsonRpcMessage message = context.message();
		if (!"POST".equals(request.getMethod()) || message == null || !message.isToolCall()) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_UNSUPPORTED_REQUEST);
		}
		IdempotencyKey key = IdempotencyKey.read(request, message);
		if (context.principal() == null || context.server().identity() == IdentityMode.DELEGATED_HEADER) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_REQUIRES_VERIFIED_IDENTITY);
		}
		if (context.server().uid() == null) {
			throw new GatewayErrorException(GatewayErrors.IDEMPOTENCY_UNAVAILABLE);
		}
		IdempotencyHasher.Hash hash = key.inMessage() ? IdempotencyHasher.Hash.IN_MESSAGE
				: context.stateless() ? IdempotencyHasher.Hash.STATELESS
						: this.hashWithId ? IdempotencyHasher.Hash.WITH_ID : IdempotencyHasher.Hash.WITHOUT_ID;
		return new Admitted(key, IdempotencyHasher.entry(key.value(), context.principal(), context.sessionId(),
				context.server().uid(), message, hash));
	}

	/** A keyed request the stage admitted, and its entry in the store. */
	private record Admitted(IdempotencyKey key, IdempotencyEntry entry) {
	}

	/**
	 * Lets a started call go on, its reply recorded, and settles it once the rest of the
	 * pipeline is done.
	 */
	private StageDecision execute(McpExchange exchange, Admitted admitted) throws IOException {
		IdempotencyEntry entry = admitted.entry();
		boolean keyInMessage = admitted.key().inMessage();
		HttpServletResponse response = exchange.response();
		McpRequestContext context = exchange.context();
		// A reply within the cap stays in the response buffer until the outcome is
		// recorded: a client that retries as soon as it has the reply must find the key
		// settled.
		response.setBufferSize(Math.max(response.getBufferSize(), this.maxReplyBytes + RESPONSE_BUFFER_SLACK));
		ReplyRecorder recorder = new ReplyRecorder(this.maxReplyBytes, this.streamingMediaTypes);
		replyTapWriter.put(context, recorder);
		InFlightCalls.Call call = this.inFlight.start(context, entry);
		// The key is the gateway's contract with its client: the upstream gets the
		// request
		// an unkeyed client would send, as the header is withheld.
		HttpServletRequest upstream = keyInMessage ? CachedBodyRequest.replacing(exchange.request(), JsonMembers
			.remove(exchange.request().getInputStream().readAllBytes(), "params", "_meta", McpMetaKeys.IDEMPOTENCY_KEY))
				: null;
		return StageDecision.wrap(upstream, null, (failure) -> {
			settle(call, (failure == null) ? this.settlement.settle(context, response, recorder, keyInMessage)
					: this.settlement.failed());
			return failure;
		});
	}

	private void settle(InFlightCalls.Call call, Settlement settlement) {
		try {
			// A cancellation may have settled the call already (outcome unknown).
			if (call.claim()) {
				settlement.applyTo(this.store, call.entry());
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
