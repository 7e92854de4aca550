package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.net.ConnectException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.context.event.EventListener;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.StdioUpstream;
import io.github.mcpgateway.session.SessionEvent;
import io.github.mcpgateway.transport.DispatchRefusedException;

/**
 * The stdio sessions of this replica, one child process each (ADR 0023): admits a new one
 * within the caps, finds one by its id, and ends them: on the client's {@code DELETE},
 * when idle past the server's {@code idle-timeout}, when the policy drops or changes the
 * server, when the gateway forgets the session (revoked, dropped), and at shutdown. A
 * process that ends on its own ends its session; its id is then unknown, which the
 * transport answers with 404.
 *
 * <p>
 * Sessions are this replica's: a process cannot move, so a session's requests must reach
 * the replica that started it (docs/operations.md).
 */
public final class StdioSessions implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(StdioSessions.class);

	private final ConcurrentMap<String, StdioSession> sessions = new ConcurrentHashMap<>();

	/**
	 * The shared processes, by their server's identity key and {@code stdio} entry: a
	 * request routed with the policy before a reload cannot stop the process of the one
	 * after it (the old one's process is stopped by the reload, or idles out).
	 */
	private final ConcurrentMap<List<Object>, SharedProcess> shared = new ConcurrentHashMap<>();

	private final Object admission = new Object();

	private final SecureRandom random = new SecureRandom();

	private final AtomicInteger stopping = new AtomicInteger();

	private final StdioCommands commands;

	private final StdioLimits limits;

	private final int maxProcesses;

	private final GatewayClock clock;

	private final StdioEvents events;

	private final ExecutorService stopper = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "stdio-stop");
		thread.setDaemon(true);
		return thread;
	});

	private volatile boolean running;

	/**
	 * @param maxProcesses the most processes of all stdio servers of this replica
	 */
	StdioSessions(StdioCommands commands, StdioLimits limits, int maxProcesses, GatewayClock clock,
			StdioEvents events) {
		this.commands = commands;
		this.limits = limits;
		this.maxProcesses = maxProcesses;
		this.clock = clock;
		this.events = events;
	}

	/**
	 * Begins a session of {@code server}, if the caps allow one: with a process of its
	 * own, or on the server's shared process (started and initialized first if none
	 * runs).
	 * @param human the session's human, {@code null} on a server without a verified
	 * principal (which only the server's and the replica's caps then bound)
	 * @throws DispatchRefusedException when a cap is reached
	 * @throws ConnectException when the process could not be started (the log says why)
	 */
	StdioSession start(McpServerPolicy server, @Nullable String human) throws IOException {
		StdioUpstream stdio = runnable(server);
		if (stdio.process() == StdioUpstream.Process.SHARED) {
			SharedProcess process = sharedProcess(server);
			SharedSession session = (SharedSession) admit(server, stdio, human,
					(id) -> new SharedSession(id, human, process, this.clock), false);
			process.add(session);
			if (process.child().end() != null) {
				end(session, "exited");
				throw new ConnectException("the stdio server's shared process has ended");
			}
			return session;
		}
		ProcessSession session = (ProcessSession) admit(server, stdio, human,
				(id) -> new ProcessSession(id, server, human, this.clock, this::ended), true);
		startProcess(session.child(), server.qualifiedName() + "#" + session.id().substring(0, 6), () -> {
			this.sessions.remove(session.id(), session);
		});
		this.events.started(session.child(), session.id(), human);
		return session;
	}

	/**
	 * The server's shared process, started and initialized first if none runs: for the
	 * 2026-07-28 requests that have no session.
	 */
	SharedProcess sharedProcess(McpServerPolicy server) throws IOException {
		StdioUpstream stdio = runnable(server);
		SharedProcess process;
		boolean mine = false;
		synchronized (this.admission) {
			process = this.shared.get(key(server));
			if (process == null || process.child().end() != null) {
				refuseIfReplicaFull(server);
				process = new SharedProcess(server, this.clock, this::sharedEnded);
				this.shared.put(key(server), process);
				mine = true;
			}
		}
		if (!mine) {
			process.awaitInitialized(stdio.startTimeout());
			return process;
		}
		SharedProcess started = process;
		try {
			startProcess(process.child(), server.qualifiedName() + "#shared",
					() -> this.shared.remove(key(server), started));
		}
		catch (ConnectException ex) {
			process.failed(ex);
			throw ex;
		}
		this.events.started(process.child(), null, null);
		try {
			process.initialize(stdio.startTimeout());
		}
		catch (IOException ex) {
			process.failed(ex);
			stop(process, "start_failed");
			throw (ex instanceof StdioChild.ProcessEndedException)
					? new ConnectException("the stdio server ended before its initialize") : ex;
		}
		return process;
	}

	private StdioUpstream runnable(McpServerPolicy server) throws ConnectException {
		StdioUpstream stdio = server.stdio();
		if (stdio == null || !this.running) {
			throw new ConnectException("the stdio server is not running");
		}
		return stdio;
	}

	private void startProcess(StdioChild child, String name, Runnable onFailure) throws ConnectException {
		StdioUpstream stdio = child.server().stdio();
		try {
			child.started(StdioProcess.start(name, this.commands.command(stdio), this.limits, child));
		}
		catch (IOException ex) {
			onFailure.run();
			logger.warn(
					"The stdio server " + child.server().qualifiedName() + " could not be started: " + ex.getMessage());
			this.events.startFailed(child.server());
			throw new ConnectException("the stdio server could not be started");
		}
	}

	/**
	 * Admits a new session within the caps: the replica's processes (when the session
	 * brings one), the server's sessions, the human's sessions of the server.
	 */
	private StdioSession admit(McpServerPolicy server, StdioUpstream stdio, @Nullable String human,
			java.util.function.Function<String, StdioSession> session, boolean newProcess)
			throws DispatchRefusedException {
		synchronized (this.admission) {
			if (newProcess) {
				refuseIfReplicaFull(server);
			}
			if (sizeOf(server) >= stdio.maxProcesses()) {
				this.events.refused(server, "process_capacity");
				throw new DispatchRefusedException(GatewayErrors.STDIO_PROCESS_CAPACITY);
			}
			if (human != null
					&& this.sessions.values().stream().filter((each) -> each.belongsTo(server, human)).count() >= stdio
						.maxProcessesPerPrincipal()) {
				this.events.refused(server, "processes_per_principal");
				throw new DispatchRefusedException(GatewayErrors.STDIO_PROCESSES_PER_PRINCIPAL);
			}
			StdioSession admitted = session.apply(newId());
			this.sessions.put(admitted.id(), admitted);
			return admitted;
		}
	}

	private void refuseIfReplicaFull(McpServerPolicy server) throws DispatchRefusedException {
		if (processes() >= this.maxProcesses) {
			this.events.refused(server, "process_capacity");
			throw new DispatchRefusedException(GatewayErrors.STDIO_PROCESS_CAPACITY);
		}
	}

	/** The running session with this id, {@code null} when there is none. */
	@Nullable StdioSession find(String id) {
		return this.sessions.get(id);
	}

	/**
	 * Ends a session: it is unknown from now on; a process of its own is stopped in the
	 * background (stdin closed, SIGTERM, SIGKILL), a shared one goes on.
	 * @param cause why, as audited and counted ({@code deleted}, {@code idle}, ...)
	 */
	void end(StdioSession session, String cause) {
		if (!this.sessions.remove(session.id(), session)) {
			return;
		}
		if (session instanceof ProcessSession own) {
			stop(own.child(), cause);
		}
		else if (session instanceof SharedSession onShared) {
			onShared.close();
			onShared.process().remove(onShared);
			this.events.dropped(onShared.server(), onShared.stream().dropped());
		}
	}

	/** Ends the session with this id, if this replica runs it. */
	public void end(String sessionId, String cause) {
		StdioSession session = this.sessions.get(sessionId);
		if (session != null) {
			end(session, cause);
		}
	}

	/**
	 * A session the gateway forgot (revoked at the revocation source, dropped from the
	 * binding table) ends: nobody can use it any more.
	 */
	@EventListener
	public void onSessionEvent(SessionEvent event) {
		switch (event.type()) {
			case REVOKED, DROPPED, DROPPED_PRINCIPAL_CAP -> end(event.sessionId(), "session_ended");
			default -> {
			}
		}
	}

	/**
	 * Ends the sessions idle past their server's {@code idle-timeout}, and stops the
	 * shared processes that saw no traffic for as long.
	 */
	void endIdle() {
		for (StdioSession session : this.sessions.values()) {
			if (session.idleNanos() >= idleTimeout(session.server())) {
				end(session, "idle");
			}
		}
		for (SharedProcess process : this.shared.values()) {
			if (process.child().idleNanos() >= idleTimeout(process.server())) {
				stop(process, "idle");
			}
		}
	}

	private static long idleTimeout(McpServerPolicy server) {
		StdioUpstream stdio = server.stdio();
		return (stdio != null) ? stdio.idleTimeout().toNanos() : 0;
	}

	/**
	 * Ends the sessions and shared processes of servers that {@code policy} no longer
	 * has, or has with another {@code stdio} entry: a process runs the command of the
	 * policy it started under.
	 */
	public void policyPublished(Policy policy) {
		for (StdioSession session : this.sessions.values()) {
			if (changed(session.server(), policy)) {
				end(session, "policy");
			}
		}
		for (SharedProcess process : this.shared.values()) {
			if (changed(process.server(), policy)) {
				stop(process, "policy");
			}
		}
	}

	private static boolean changed(McpServerPolicy server, Policy policy) {
		McpServerPolicy now = policy.serverAt(server.path());
		return now == null || !now.identityKey().equals(server.identityKey())
				|| !java.util.Objects.equals(now.stdio(), server.stdio());
	}

	/** The sessions running now. */
	int size() {
		return this.sessions.size();
	}

	/** The processes running now: one per own-process session, one per shared server. */
	int processes() {
		return (int) this.sessions.values().stream().filter(ProcessSession.class::isInstance).count()
				+ this.shared.size();
	}

	/** The sessions of {@code server} running now. */
	long sizeOf(McpServerPolicy server) {
		return this.sessions.values()
			.stream()
			.filter((session) -> session.server().identityKey().equals(server.identityKey()))
			.count();
	}

	/** Stops a shared process; its sessions end when it has. */
	private void stop(SharedProcess process, String cause) {
		this.shared.remove(key(process.server()), process);
		stop(process.child(), cause);
	}

	private void stop(StdioChild child, String cause) {
		child.stopping(cause);
		StdioProcess process = child.process();
		if (process != null) {
			this.stopping.incrementAndGet();
			this.stopper.execute(() -> {
				try {
					process.stop();
				}
				finally {
					this.stopping.decrementAndGet();
				}
			});
		}
	}

	private void ended(ProcessSession session) {
		this.sessions.remove(session.id(), session);
		this.events.dropped(session.server(), session.stream().dropped());
		this.events.ended(session.child(), session.id(), session.human());
	}

	private static List<Object> key(McpServerPolicy server) {
		return List.of(server.identityKey(), java.util.Objects.requireNonNull(server.stdio()));
	}

	private void sharedEnded(SharedProcess process) {
		this.shared.remove(key(process.server()), process);
		for (SharedSession session : process.sessions()) {
			end(session, "exited");
		}
		this.events.ended(process.child(), null, null);
	}

	private String newId() {
		byte[] bytes = new byte[18];
		this.random.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	@Override
	public void start() {
		this.running = true;
	}

	/**
	 * Ends every session and waits (at most about twice the stop grace) for the processes
	 * to exit.
	 */
	@Override
	public void stop() {
		this.running = false;
		this.sessions.values().forEach((session) -> end(session, "shutdown"));
		this.shared.values().forEach((process) -> stop(process, "shutdown"));
		this.stopper.shutdown();
		try {
			Duration wait = this.limits.stopGrace().multipliedBy(2).plusSeconds(1);
			if (!this.stopper.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS)) {
				logger.warn(this.stopping.get() + " stdio processes had not exited at shutdown");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/**
	 * Stopped after the web server, whose graceful shutdown lets the requests in flight
	 * end first.
	 */
	@Override
	public int getPhase() {
		return SmartLifecycle.DEFAULT_PHASE - 4096;
	}

}
