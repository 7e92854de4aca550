package io.github.mcpgateway.guard;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.springframework.beans.factory.DisposableBean;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Notices that the client of a stateless (2026-07-28) event stream has gone while the
 * upstream is silent.
 *
 * <p>
 * Why: in that revision closing the response stream cancels the request (there is no
 * {@code notifications/cancelled} over Streamable HTTP), so the gateway must end the
 * upstream exchange as soon as its client leaves. A servlet container learns that a
 * blocking request's client is gone only when it writes to it; while the upstream says
 * nothing, nothing is written. So every {@code interval} each such stream that has been
 * silent that long, and is between two events, gets an SSE comment ({@code ":"}, which
 * clients ignore, and which the revision recommends as a keep-alive): writing it to a
 * closed connection fails, and the stream's {@link ClientAwareResponse} ends the upstream
 * exchange. The upstream's own bytes are never changed or reordered. One daemon thread
 * serves every stream; an interval of zero turns probing off. The thread is paced in real
 * time (a scheduler), the silence it measures is read from the gateway clock, as the
 * streams' last writes are.
 */
final class StreamProbes implements DisposableBean {

	private final long intervalNanos;

	private final long openAfterNanos;

	private final GatewayClock clock;

	private final Set<ClientAwareResponse> streams = ConcurrentHashMap.newKeySet();

	private final ScheduledExecutorService ticker;

	/**
	 * @param interval how often streams are probed, and how long one must be silent
	 * first; {@code 0} turns probing off
	 * @param openAfter how long a silent reply waits before it is opened as an event
	 * stream ({@link ClientAwareResponse#probe}); {@code 0} never opens one
	 */
	StreamProbes(Duration interval, Duration openAfter, GatewayClock clock) {
		this.intervalNanos = interval.toNanos();
		this.openAfterNanos = openAfter.toNanos();
		this.clock = clock;
		if (interval.isZero()) {
			this.ticker = null;
			return;
		}
		this.ticker = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "stream-probe");
			thread.setDaemon(true);
			return thread;
		});
		this.ticker.scheduleWithFixedDelay(this::probe, this.intervalNanos, this.intervalNanos, TimeUnit.NANOSECONDS);
	}

	/** Probes {@code stream} until {@link #forget}. */
	void watch(ClientAwareResponse stream) {
		if (this.ticker != null) {
			this.streams.add(stream);
		}
	}

	void forget(ClientAwareResponse stream) {
		this.streams.remove(stream);
	}

	int size() {
		return this.streams.size();
	}

	private void probe() {
		long now = this.clock.nanoTime();
		for (ClientAwareResponse stream : this.streams) {
			stream.probe(now, this.intervalNanos, this.openAfterNanos);
		}
	}

	@Override
	public void destroy() {
		if (this.ticker != null) {
			this.ticker.shutdownNow();
		}
	}

}
