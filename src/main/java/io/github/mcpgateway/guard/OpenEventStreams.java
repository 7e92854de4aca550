package io.github.mcpgateway.guard;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.SmartLifecycle;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.UpstreamCall;

/**
 * The server-to-client event streams ({@code GET}) this replica relays, ended at once
 * when it shuts down.
 *
 * <p>
 * Contract. A {@code GET} stream has no end of its own; left alone it would hold graceful
 * shutdown for its whole timeout and hold up a rolling update. When the application
 * stops, in the same phase as the web server's graceful shutdown (which stops accepting
 * connections), every open stream's upstream exchange is aborted: the client sees its
 * stream end and opens it again (MCP clients do, with {@code Last-Event-ID}), through the
 * load balancer, on another replica. A {@code GET} that arrives after that is refused
 * with 503 {@code shutting_down} before anything goes upstream. In-flight {@code POST}s
 * are not touched: they finish within the shutdown timeout. Streams whose exchange was
 * not yet attached when the first sweep ran are caught by the following sweeps (every 100
 * ms for {@link #SWEEP_FOR}).
 */
final class OpenEventStreams implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(OpenEventStreams.class);

	private static final Duration SWEEP_EVERY = Duration.ofMillis(100);

	static final Duration SWEEP_FOR = Duration.ofSeconds(2);

	private final Set<McpRequestContext> open = ConcurrentHashMap.newKeySet();

	private final GatewayClock clock;

	private volatile boolean running;

	private volatile boolean draining;

	OpenEventStreams(GatewayClock clock) {
		this.clock = clock;
	}

	/**
	 * Tracks {@code request}'s stream until {@link #closed} is called; returns
	 * {@code false} (and tracks nothing) once this replica is draining.
	 */
	boolean opened(McpRequestContext request) {
		if (this.draining) {
			return false;
		}
		this.open.add(request);
		return true;
	}

	/** Whether this replica is shutting down and ending its event streams. */
	boolean draining() {
		return this.draining;
	}

	void closed(McpRequestContext request) {
		this.open.remove(request);
	}

	int size() {
		return this.open.size();
	}

	@Override
	public void start() {
		this.draining = false;
		this.running = true;
	}

	@Override
	public void stop(Runnable callback) {
		this.draining = true;
		int ended = sweep();
		Thread drain = new Thread(() -> {
			int more = 0;
			long deadline = this.clock.nanoTime() + SWEEP_FOR.toNanos();
			try {
				while (this.clock.nanoTime() < deadline && !this.open.isEmpty()) {
					Thread.sleep(SWEEP_EVERY.toMillis());
					more += sweep();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			finally {
				logger.info("Shutting down: ended " + (ended + more) + " open event stream(s)");
				this.running = false;
				callback.run();
			}
		}, "event-stream-drain");
		drain.setDaemon(true);
		drain.start();
	}

	@Override
	public void stop() {
		stop(() -> {
		});
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Stops with the web server's graceful shutdown, not after it. */
	@Override
	public int getPhase() {
		return WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE;
	}

	private int sweep() {
		int ended = 0;
		for (McpRequestContext request : this.open) {
			UpstreamCall call = request.upstream().call();
			if (call != null) {
				this.open.remove(request);
				call.abort();
				ended++;
			}
		}
		return ended;
	}

}
