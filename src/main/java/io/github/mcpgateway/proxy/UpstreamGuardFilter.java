package io.github.mcpgateway.proxy;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.catalina.connector.ClientAbortException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.request.McpRequestContext.Decision;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStageFilter;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.transport.ReplyTap;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * The last stage before the proxy handler: admits an allowed request to its upstream or
 * refuses it before dispatch, and turns upstream failures into gateway errors.
 *
 * <p>
 * Before dispatch: an open circuit is 503 {@code upstream_circuit_open} with
 * {@code Retry-After}, a full bulkhead 503 {@code upstream_overloaded}; either way the
 * upstream receives nothing and the context stays not dispatched. After dispatch: a 5xx
 * status, a timeout or a broken connection counts against the circuit; a failure before
 * the reply started is answered as 502 or 504 in the gateway's error shape; after the
 * reply started (an event stream, say) the stream just ends. Nothing is ever retried.
 * {@code GET} event streams and {@code subscriptions/listen} streams are tracked so that
 * shutdown can end them ({@link OpenEventStreams}).
 */
public final class UpstreamGuardFilter extends McpStageFilter {

	private static final Log logger = LogFactory.getLog(UpstreamGuardFilter.class);

	private static final String LISTEN = "subscriptions/listen";

	private final UpstreamResilience resilience;

	private final Refusals refusals;

	private final ConcurrentMap<List<String>, Timer> upstreamTimers = new ConcurrentHashMap<>();

	private final MeterRegistry meterRegistry;

	private final OpenEventStreams eventStreams;

	private final StreamProbes probes;

	UpstreamGuardFilter(UpstreamResilience resilience, Refusals refusals, MeterRegistry meterRegistry,
			OpenEventStreams eventStreams, StreamProbes probes) {
		Assert.notNull(resilience, "resilience must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(meterRegistry, "meterRegistry must not be null");
		this.resilience = resilience;
		this.refusals = refusals;
		this.meterRegistry = meterRegistry;
		this.eventStreams = eventStreams;
		this.probes = probes;
	}

	@Override
	protected boolean appliesTo(HttpServletRequest request, McpRequestContext context) {
		return context.decision() == Decision.ALLOWED;
	}

	@Override
	protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain,
			McpRequestContext context) throws ServletException, IOException {
		CircuitBreaker circuit = this.resilience.circuitBreaker(context.server());
		if (!circuit.tryAcquirePermission()) {
			refuse(request, response, context, true);
			return;
		}
		boolean eventStream = isLongLivedStream(request, context);
		if (eventStream && !this.eventStreams.opened(request)) {
			circuit.releasePermission();
			this.refusals.refuse(request, response, Decision.REFUSED, GatewayErrors.SHUTTING_DOWN);
			return;
		}
		// Long-lived streams are not calls in flight: a client's subscription must not
		// take
		// a place another call needs.
		boolean counted = "POST".equals(request.getMethod()) && !eventStream;
		Bulkhead bulkhead = this.resilience.bulkhead(context.server());
		if (counted && !bulkhead.tryAcquirePermission()) {
			circuit.releasePermission();
			refuse(request, response, context, false);
			return;
		}
		context.dispatched(true);
		ClientAwareResponse guarded = ClientAwareResponse.of(request, response);
		if (guarded.probeable() && "POST".equals(request.getMethod())) {
			guarded.probed(() -> {
				UpstreamCall call = UpstreamCall.find(request);
				if (call != null) {
					call.abort();
				}
			});
			this.probes.watch(guarded);
		}
		ReplyTap tap = ReplyTap.find(request);
		HttpServletResponse relayed = (tap != null) ? new TappedResponse(guarded, tap) : guarded;
		long start = System.nanoTime();
		String outcome = "error";
		try {
			chain.doFilter(request, relayed);
			record(circuit, start, guarded.getStatus());
			outcome = Integer.toString(guarded.getStatus() / 100) + "xx";
		}
		catch (IOException | ServletException | RuntimeException ex) {
			boolean replyStarted = response.isCommitted();
			outcome = failed(request, response, guarded, circuit, start, ex);
			if (replyStarted && !guarded.clientGone() && !eventStream) {
				// Part of the reply already left: the client must see the connection
				// fail, not a reply that looks complete (or a Content-Length that never
				// arrives). Tomcat takes its ClientAbortException as "abandon the
				// connection" and logs no stack trace; the failure is already audited and
				// counted here.
				throw new ClientAbortException("upstream reply broke after it started");
			}
		}
		finally {
			context.replyCutShort(guarded.replyCutShort());
			upstreamTimer(context.server(), outcome).record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
			if (counted) {
				bulkhead.onComplete();
			}
			if (eventStream) {
				this.eventStreams.closed(request);
			}
			this.probes.forget(guarded);
		}
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
				(key) -> Timer.builder(ProxyMeters.UPSTREAM_DURATION)
					.tags("namespace", key.get(0), "server", key.get(1), "outcome", key.get(2))
					.register(this.meterRegistry));
	}

	/** Handles a failed exchange and returns the meter outcome. */
	private String failed(HttpServletRequest request, HttpServletResponse response, ClientAwareResponse guarded,
			CircuitBreaker circuit, long start, Exception ex) throws IOException {
		if (guarded.clientGone()) {
			circuit.releasePermission();
			return "client_gone";
		}
		boolean eventStream = isLongLivedStream(request, McpRequestContext.require(request));
		if (eventStream && !response.isCommitted() && this.eventStreams.draining()) {
			// Ended by this replica's shutdown before the upstream's headers came: the
			// client opens it again, on another replica.
			circuit.releasePermission();
			this.refusals.refuse(request, response, Decision.REFUSED, GatewayErrors.SHUTTING_DOWN);
			return "shutting_down";
		}
		UpstreamFailure failure = UpstreamFailure.classify(ex);
		if (eventStream && response.isCommitted()) {
			// A long-lived stream that ends (an idle timeout, a server restart) is how
			// such
			// streams end; the client opens it again (a GET with Last-Event-ID, a new
			// subscriptions/listen). Not a failure of the server.
			circuit.onSuccess(System.nanoTime() - start, TimeUnit.NANOSECONDS);
			return "stream_ended";
		}
		if (failure == UpstreamFailure.POOL_EXHAUSTED) {
			// The gateway's own connection pool is full: nothing reached the upstream.
			circuit.releasePermission();
			McpRequestContext.require(request).dispatched(false);
			this.refusals.refuse(request, response, Decision.REFUSED, failure.error());
			return "pool_exhausted";
		}
		circuit.onError(System.nanoTime() - start, TimeUnit.NANOSECONDS, ex);
		McpRequestContext context = McpRequestContext.require(request);
		context.dispatched(failure.dispatched());
		if (logger.isDebugEnabled()) {
			logger.debug("Upstream " + context.server().qualifiedName() + " failed: " + failure + " ("
					+ ex.getClass().getName() + ")");
		}
		this.refusals.refuse(request, response, Decision.UPSTREAM_ERROR, failure.error());
		return failure.name().toLowerCase(java.util.Locale.ROOT);
	}

	private void record(CircuitBreaker circuit, long start, int status) {
		long elapsed = System.nanoTime() - start;
		if (status >= 500) {
			circuit.onError(elapsed, TimeUnit.NANOSECONDS, new UpstreamStatusException(status));
		}
		else {
			circuit.onSuccess(elapsed, TimeUnit.NANOSECONDS);
		}
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, McpRequestContext context,
			boolean circuitOpen) throws IOException {
		var error = circuitOpen ? GatewayErrors.CIRCUIT_OPEN.withRetryAfter(this.resilience.openWait())
				: GatewayErrors.BULKHEAD_FULL;
		this.refusals.refuse(request, response, Decision.REFUSED, error);
	}

	/** Records a 5xx reply as a circuit-breaker failure; never thrown to a caller. */
	static final class UpstreamStatusException extends Exception {

		UpstreamStatusException(int status) {
			super("upstream status " + status, null, false, false);
		}

	}

}
