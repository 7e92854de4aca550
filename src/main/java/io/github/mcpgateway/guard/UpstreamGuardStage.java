package io.github.mcpgateway.guard;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.ClientAbortException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.idempotency.IdempotencyStage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.transport.DispatchRefusedException;
import io.github.mcpgateway.transport.IdentityEncodingRequest;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * The last stage before the proxy handler: admits an allowed request to its upstream or
 * refuses it before dispatch, and turns upstream failures into gateway errors.
 *
 * <p>
 * Before dispatch: an open circuit is 503 {@code upstream_circuit_open} with
 * {@code Retry-After}, a full bulkhead 503 {@code upstream_overloaded}; either way the
 * upstream receives nothing and the context stays not dispatched. After dispatch
 * ({@link UpstreamPermit}): a 5xx status, a timeout or a broken connection counts against
 * the circuit; a failure before the reply started is answered as 502 or 504 in the
 * gateway's error shape; after the reply started (an event stream, say) the stream just
 * ends. Nothing is ever retried. {@code GET} event streams and
 * {@code subscriptions/listen} streams are tracked so that shutdown can end them
 * ({@link OpenEventStreams}).
 */
public final class UpstreamGuardStage implements McpStage {

	private static final Log logger = LogFactory.getLog(UpstreamGuardStage.class);

	private static final String LISTEN = "subscriptions/listen";

	private final UpstreamResilience resilience;

	private final GatewayClock clock;

	private final Refusals refusals;

	private final ConcurrentMap<List<String>, Timer> upstreamTimers = new ConcurrentHashMap<>();

	private final MeterRegistry meterRegistry;

	private final OpenEventStreams eventStreams;

	private final StreamProbes probes;

	UpstreamGuardStage(UpstreamResilience resilience, Refusals refusals, MeterRegistry meterRegistry,
			OpenEventStreams eventStreams, StreamProbes probes, GatewayClock clock) {
		Assert.notNull(resilience, "resilience must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(meterRegistry, "meterRegistry must not be null");
		this.resilience = resilience;
		this.clock = clock;
		this.refusals = refusals;
		this.meterRegistry = meterRegistry;
		this.eventStreams = eventStreams;
		this.probes = probes;
	}

	@Override
	public StageDecision decide(McpExchange exchange) {
		HttpServletRequest request = exchange.request();
		McpRequestContext context = exchange.context();
		boolean eventStream = isLongLivedStream(request, context);
		// Long-lived streams are not calls in flight: a client's subscription must not
		// take a place another call needs.
		UpstreamResilience.Admission admission = this.resilience.admit(context.server(),
				"POST".equals(request.getMethod()) && !eventStream);
		UpstreamPermit permit = admission.permit();
		if (permit == null) {
			return StageDecision.refuse(admission.refusal());
		}
		if (eventStream && !this.eventStreams.opened(context)) {
			permit.released();
			return StageDecision.refuse(GatewayErrors.SHUTTING_DOWN);
		}
		context.upstream().dispatched(true);
		ClientAwareResponse guarded = watched(exchange);
		ReplyTap tap = context.get(IdempotencyStage.REPLY_TAP);
		HttpServletResponse relayed = (tap != null) ? new TappedResponse(guarded, tap) : guarded;
		DispatchedCall call = new DispatchedCall(exchange, guarded, permit, eventStream, this.clock.nanoTime());
		// A reply that may go out as an event stream's event must come unencoded.
		HttpServletRequest upstream = guarded.opensWhenSilent() ? new IdentityEncodingRequest(request) : null;
		return StageDecision.wrap(upstream, relayed, (failure) -> completed(call, failure));
	}

	/**
	 * The response the upstream's reply is relayed through. A {@code POST} whose client
	 * can be probed is watched: a client found gone aborts the upstream call in flight.
	 */
	private ClientAwareResponse watched(McpExchange exchange) {
		HttpServletRequest request = exchange.request();
		McpRequestContext context = exchange.context();
		ClientAwareResponse guarded = ClientAwareResponse.of(request, exchange.response(), this.clock);
		if (guarded.probeable() && "POST".equals(request.getMethod())) {
			guarded.probed(() -> {
				UpstreamCall call = context.upstream().call();
				if (call != null) {
					call.abort();
				}
			});
			this.probes.watch(guarded);
		}
		return guarded;
	}

	/**
	 * Whether the request opens a stream with no end of its own: a server-to-client GET
	 * stream (2025 revisions), or a {@code subscriptions/listen} (2026-07-28), whose
	 * response stream stays open for the subscription's life. Such a stream ending after
	 * it started is not an upstream failure, and shutdown ends it.
	 */
	private static boolean isLongLivedStream(HttpServletRequest request, McpRequestContext context) {
		if ("GET".equals(request.getMethod())) {
			return true;
		}
		JsonRpcMessage message = context.message();
		return message != null && LISTEN.equals(message.method());
	}

	/** The upstream timer of a server and outcome, registered on first use. */
	private Timer upstreamTimer(McpServerPolicy server, String outcome) {
		return this.upstreamTimers.computeIfAbsent(List.of(server.namespace(), server.name(), outcome),
				(key) -> Timer.builder(UpstreamMeters.UPSTREAM_DURATION)
					.tags("namespace", key.get(0), "server", key.get(1), "outcome", key.get(2))
					.register(this.meterRegistry));
	}

	/**
	 * The completion of a dispatched call: ends its permit, answers a failure while the
	 * reply can still be written, and always records the upstream timer, the cut-short
	 * flag, the end of an event stream and the end of the client watch.
	 * @return the failure that goes on outward, or {@code null} when it is answered
	 */
	private @Nullable Throwable completed(DispatchedCall call, @Nullable Throwable failure) throws IOException {
		McpRequestContext context = call.exchange().context();
		String outcome = "error";
		try {
			if (failure == null) {
				call.permit().answered(call.guarded().getStatus());
				outcome = Integer.toString(call.guarded().getStatus() / 100) + "xx";
				return null;
			}
			if (failure instanceof Error) {
				call.permit().released();
				return failure;
			}
			boolean replyStarted = call.exchange().response().isCommitted();
			outcome = failed(call, failure);
			if (replyStarted && !call.guarded().clientGone() && !call.eventStream()) {
				// Part of the reply already left: the client must see the connection
				// fail, not a reply that looks complete (or a Content-Length that never
				// arrives). Tomcat takes its ClientAbortException as "abandon the
				// connection" and logs no stack trace; the failure is already audited
				// and counted here.
				return new ClientAbortException("upstream reply broke after it started");
			}
			return null;
		}
		finally {
			context.upstream().replyCutShort(call.guarded().replyCutShort());
			upstreamTimer(context.server(), outcome).record(this.clock.nanoTime() - call.start(), TimeUnit.NANOSECONDS);
			if (call.eventStream()) {
				this.eventStreams.closed(context);
			}
			this.probes.forget(call.guarded());
		}
	}

	/**
	 * Ends the permit of a failed exchange, answers the failure while the reply can still
	 * be written, and returns the meter outcome.
	 */
	private String failed(DispatchedCall call, Throwable ex) throws IOException {
		HttpServletResponse response = call.exchange().response();
		if (call.guarded().clientGone()) {
			call.permit().released();
			return "client_gone";
		}
		if (call.eventStream() && !response.isCommitted() && this.eventStreams.draining()) {
			// Ended by this replica's shutdown before the upstream's headers came: the
			// client opens it again, on another replica.
			call.permit().released();
			this.refusals.refuse(call.exchange(), GatewayErrors.SHUTTING_DOWN);
			return "shutting_down";
		}
		if (call.eventStream() && response.isCommitted()) {
			// A long-lived stream that ends (an idle timeout, a server restart) is how
			// such streams end; the client opens it again (a GET with Last-Event-ID, a
			// new subscriptions/listen). Not a failure of the server.
			call.permit().succeeded();
			return "stream_ended";
		}
		return upstreamFailed(call, ex);
	}

	/**
	 * A failure of the call itself, classified: counted against the circuit unless the
	 * gateway's own pool refused it, and answered as its gateway error.
	 */
	private String upstreamFailed(DispatchedCall call, Throwable ex) throws IOException {
		McpRequestContext context = call.exchange().context();
		DispatchRefusedException refused = DispatchRefusedException.in(ex);
		if (refused != null) {
			// The gateway's own client refused it (a stdio server's process cap): nothing
			// reached the upstream, which is not at fault.
			call.permit().released();
			context.upstream().dispatched(false);
			this.refusals.refuse(call.exchange(), refused.error());
			return "refused";
		}
		UpstreamFailure failure = UpstreamFailure.classify(ex);
		if (failure == UpstreamFailure.POOL_EXHAUSTED) {
			// The gateway's own connection pool is full: nothing reached the upstream.
			call.permit().released();
			context.upstream().dispatched(false);
			this.refusals.refuse(call.exchange(), failure.error());
			return "pool_exhausted";
		}
		call.permit().failed(ex);
		context.upstream().dispatched(failure.dispatched());
		if (logger.isDebugEnabled()) {
			logger.debug("Upstream " + context.server().qualifiedName() + " failed: " + failure + " ("
					+ ex.getClass().getName() + ")");
		}
		this.refusals.refuse(call.exchange(), failure.error());
		return failure.name().toLowerCase(Locale.ROOT);
	}

	/**
	 * One call admitted and dispatched to its upstream.
	 *
	 * @param guarded the response the reply is relayed through
	 * @param eventStream whether the call opens a long-lived stream
	 * @param start the gateway clock's nano time at dispatch
	 */
	private record DispatchedCall(McpExchange exchange, ClientAwareResponse guarded, UpstreamPermit permit,
			boolean eventStream, long start) {
	}

}
