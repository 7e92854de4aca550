package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

/**
 * One running stdio MCP server.
 *
 * <p>
 * Design notes. Three threads touch a process: callers of {@link #send} (serialised on
 * the stdin lock, {@code writing}), the stdout reader (which alone calls the listener,
 * and ends the process once its stdout closes or breaks the framing) and the stderr
 * drain. The first reason to end wins ({@code ending}, set once): {@link #stop()} sets
 * {@link StdioEnd.Reason#STOPPED}, the reader a violation or
 * {@link StdioEnd.Reason#EXITED}; whoever sets it, the listener hears of the end once,
 * from the reader, after the process is gone. Ending follows the MCP stdio transport's
 * shutdown: stdin closed, then SIGTERM after {@link StdioLimits#stopGrace()}, then
 * SIGKILL after as long again; each signal goes to the process's descendants too (a
 * launcher such as {@code npx} runs the server as its child), taken before the process
 * itself is signalled, since they stop being its descendants once it is gone (a child
 * forked between that look and the signal escapes: Java cannot signal a process group). A
 * process that broke the framing is killed at once: what it writes is no longer trusted.
 */
public final class StdioProcess {

	private static final Log logger = LogFactory.getLog(StdioProcess.class);

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final byte[] NEWLINE = { '\n' };

	private final String name;

	private final Process process;

	private final StdioLimits limits;

	private final OutputStream stdin;

	private final AtomicReference<StdioEnd.Reason> ending = new AtomicReference<>();

	private final CountDownLatch ended = new CountDownLatch(1);

	private final ReentrantLock writing = new ReentrantLock();

	private StdioProcess(String name, Process process, StdioLimits limits) {
		this.name = name;
		this.process = process;
		this.limits = limits;
		this.stdin = process.getOutputStream();
	}

	/**
	 * Starts {@code command}; its messages and its end go to {@code listener}.
	 * @param name how the process is named in logs and thread names (a server's uid)
	 * @throws IOException when the process cannot be started (no such executable, not
	 * executable, no such directory); the listener hears nothing then
	 */
	public static StdioProcess start(String name, StdioCommand command, StdioLimits limits, StdioListener listener)
			throws IOException {
		Assert.hasText(name, "name must not be blank");
		Assert.notNull(command, "command must not be null");
		Assert.notNull(limits, "limits must not be null");
		Assert.notNull(listener, "listener must not be null");
		ProcessBuilder builder = new ProcessBuilder(command.argv()).directory(command.workingDirectory().toFile());
		builder.environment().clear();
		builder.environment().putAll(command.environment());
		StdioProcess started = new StdioProcess(name, builder.start(), limits);
		started.thread("out", () -> started.read(listener));
		started.thread("err", () -> new StderrLog(name, limits).drain(started.process.getErrorStream()));
		return started;
	}

	/**
	 * Writes one message to the process's stdin, as one line of compact JSON.
	 * @return {@code false} when the process has ended or is ending (nothing was written)
	 */
	public boolean send(JsonNode message) {
		byte[] line = JSON.writeValueAsBytes(message);
		this.writing.lock();
		try {
			if (this.ending.get() != null) {
				return false;
			}
			this.stdin.write(line);
			this.stdin.write(NEWLINE);
			this.stdin.flush();
			return true;
		}
		catch (IOException ex) {
			return false;
		}
		finally {
			this.writing.unlock();
		}
	}

	/**
	 * Ends the process (stdin closed, then SIGTERM, then SIGKILL) and returns once it and
	 * its listener's {@code ended} are done, at most about twice the stop grace later.
	 */
	public void stop() {
		this.ending.compareAndSet(null, StdioEnd.Reason.STOPPED);
		terminate(this.limits.stopGrace());
		awaitEnded(this.limits.stopGrace());
	}

	/** Whether the process is still running. */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/** The operating system's id of the process. */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * Waits until the listener has heard of the end.
	 * @return {@code false} if it had not within {@code timeout}
	 */
	public boolean awaitEnded(Duration timeout) {
		try {
			return this.ended.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

	private void read(StdioListener listener) {
		MessageLines lines = new MessageLines(this.process.getInputStream(), this.limits.maxLineBytes());
		StdioEnd.Reason violation = lines.forEach(listener::onMessage);
		if (violation != null && this.ending.compareAndSet(null, violation)) {
			logger
				.warn("[" + this.name + "] stdout broke the stdio framing (" + violation + "): the process is killed");
			terminate(Duration.ZERO);
		}
		this.ending.compareAndSet(null, StdioEnd.Reason.EXITED);
		terminate(this.limits.stopGrace());
		try {
			listener.ended(new StdioEnd(this.ending.get(), exitCode()));
		}
		finally {
			this.ended.countDown();
		}
	}

	private @Nullable Integer exitCode() {
		return this.process.isAlive() ? null : this.process.exitValue();
	}

	private void terminate(Duration grace) {
		closeStdin(grace);
		if (waitFor(grace)) {
			return;
		}
		signal(false);
		if (!waitFor(grace)) {
			signal(true);
			waitFor(grace.plusSeconds(5));
		}
	}

	// A send blocked on a full pipe (a process that does not read) holds the lock: the
	// signals that follow end the process, and so that send.
	private void closeStdin(Duration wait) {
		try {
			if (this.writing.tryLock(wait.toMillis(), TimeUnit.MILLISECONDS)) {
				try {
					this.stdin.close();
				}
				finally {
					this.writing.unlock();
				}
			}
		}
		catch (IOException ex) {
			// Already closed by the process's end: nothing to flush.
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void signal(boolean kill) {
		List<ProcessHandle> descendants = this.process.descendants().toList();
		descendants.forEach(kill ? ProcessHandle::destroyForcibly : ProcessHandle::destroy);
		// Through the handle: Process.destroy() also closes the streams, and so waits for
		// a send blocked on a full pipe.
		ProcessHandle handle = this.process.toHandle();
		if (kill) {
			handle.destroyForcibly();
		}
		else {
			handle.destroy();
		}
	}

	private boolean waitFor(Duration timeout) {
		try {
			return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return !this.process.isAlive();
		}
	}

	private void thread(String stream, Runnable body) {
		Thread thread = new Thread(body, "stdio-" + this.name + "-" + stream);
		thread.setDaemon(true);
		thread.start();
	}

}
