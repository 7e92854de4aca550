package io.github.mcpgateway.poll;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.util.Assert;

/**
 * Runs a task off the request path on its own named daemon thread, with a fixed delay
 * between runs, from application start to shutdown. A run that throws is logged and the
 * schedule goes on: a poller that stopped silently would freeze the state it keeps live.
 * The task is responsible for its own failure reporting; this is the last line of
 * defence.
 */
public final class PeriodicTask implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(PeriodicTask.class);

	private final String name;

	private final Duration initialDelay;

	private final Duration delay;

	private final Runnable task;

	private volatile @Nullable ScheduledExecutorService executor;

	/**
	 * @param name the thread name, also used in logs
	 * @param initialDelay time before the first run
	 * @param delay time between the end of one run and the start of the next
	 * @param task what to run
	 */
	public PeriodicTask(String name, Duration initialDelay, Duration delay, Runnable task) {
		Assert.hasText(name, "name must not be empty");
		Assert.isTrue(!delay.isNegative() && !delay.isZero(), "delay must be positive");
		Assert.notNull(task, "task must not be null");
		this.name = name;
		this.initialDelay = initialDelay;
		this.delay = delay;
		this.task = task;
	}

	@Override
	public void start() {
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor((runnable) -> {
			Thread thread = new Thread(runnable, this.name);
			thread.setDaemon(true);
			return thread;
		});
		scheduler.scheduleWithFixedDelay(this::runSafely, this.initialDelay.toMillis(), this.delay.toMillis(),
				TimeUnit.MILLISECONDS);
		this.executor = scheduler;
	}

	private void runSafely() {
		try {
			this.task.run();
		}
		catch (RuntimeException ex) {
			logger.error(this.name + " failed unexpectedly; it runs again in " + this.delay.toMillis() + " ms", ex);
		}
	}

	@Override
	public void stop() {
		ScheduledExecutorService scheduler = this.executor;
		if (scheduler != null) {
			scheduler.shutdownNow();
			this.executor = null;
		}
	}

	/**
	 * Stops after the web server (lower phases stop later): a poller such as the lease
	 * renewal must outlive the graceful drain of in-flight requests.
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

	@Override
	public boolean isRunning() {
		return this.executor != null;
	}

}
