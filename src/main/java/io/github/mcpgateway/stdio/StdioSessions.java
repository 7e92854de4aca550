package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.net.ConnectException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
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
	 * Starts a process for a new session of {@code server}, if the caps allow one.
	 * @param human the session's human, {@code null} on a server without a verified
	 * principal (which only the server's and the replica's caps then bound)
	 * @throws DispatchRefusedException when a cap is reached
	 * @throws ConnectException when the process could not be started (the log says why)
	 */
	StdioSession start(McpServerPolicy server, @Nullable String human) throws IOException {
		StdioUpstream stdio = server.stdio();
		if (stdio == null || !this.running) {
			throw new ConnectException("the stdio server is not running");
		}
		StdioSession session = admit(server, stdio, human);
		try {
			session.started(StdioProcess.start(processName(server, session), this.commands.command(stdio), this.limits,
					session));
		}
		catch (IOException ex) {
			this.sessions.remove(session.id(), session);
			logger.warn("The stdio server " + server.qualifiedName() + " could not be started: " + ex.getMessage());
			this.events.startFailed(server);
			throw new ConnectException("the stdio server could not be started");
		}
		this.events.started(session);
		return session;
	}

	private StdioSession admit(McpServerPolicy server, StdioUpstream stdio, @Nullable String human)
			throws DispatchRefusedException {
		synchronized (this.admission) {
			List<StdioSession> all = List.copyOf(this.sessions.values());
			long ofServer = all.stream()
				.filter((session) -> session.server().identityKey().equals(server.identityKey()))
				.count();
			if (all.size() >= this.maxProcesses || ofServer >= stdio.maxProcesses()) {
				this.events.refused(server, "process_capacity");
				throw new DispatchRefusedException(GatewayErrors.STDIO_PROCESS_CAPACITY);
			}
			if (human != null && all.stream().filter((session) -> session.belongsTo(server, human)).count() >= stdio
				.maxProcessesPerPrincipal()) {
				this.events.refused(server, "processes_per_principal");
				throw new DispatchRefusedException(GatewayErrors.STDIO_PROCESSES_PER_PRINCIPAL);
			}
			StdioSession session = new StdioSession(newId(), server, human, this.clock, this::ended);
			this.sessions.put(session.id(), session);
			return session;
		}
	}

	/** The running session with this id, {@code null} when there is none. */
	@Nullable StdioSession find(String id) {
		return this.sessions.get(id);
	}

	/**
	 * Ends a session: it is unknown from now on, and its process is stopped in the
	 * background (stdin closed, SIGTERM, SIGKILL).
	 * @param cause why, as audited and counted ({@code deleted}, {@code idle}, ...)
	 */
	void end(StdioSession session, String cause) {
		if (!this.sessions.remove(session.id(), session)) {
			return;
		}
		session.stopping(cause);
		StdioProcess process = session.process();
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

	/** Ends the session with this id, if this replica runs it. */
	public void end(String sessionId, String cause) {
		StdioSession session = this.sessions.get(sessionId);
		if (session != null) {
			end(session, cause);
		}
	}

	/**
	 * A session the gateway forgot (revoked at the revocation source, dropped from the
	 * binding table) ends its process: nobody can use it any more.
	 */
	@EventListener
	public void onSessionEvent(SessionEvent event) {
		switch (event.type()) {
			case REVOKED, DROPPED, DROPPED_PRINCIPAL_CAP -> end(event.sessionId(), "session_ended");
			default -> {
			}
		}
	}

	/** Ends the sessions idle past their server's {@code idle-timeout}. */
	void endIdle() {
		for (StdioSession session : this.sessions.values()) {
			StdioUpstream stdio = session.server().stdio();
			if (stdio != null && session.idleNanos() >= stdio.idleTimeout().toNanos()) {
				end(session, "idle");
			}
		}
	}

	/**
	 * Ends the sessions of servers that {@code policy} no longer has, or has with another
	 * {@code stdio} entry: a process runs the command of the policy it started under.
	 */
	public void policyPublished(Policy policy) {
		for (StdioSession session : this.sessions.values()) {
			McpServerPolicy now = policy.serverAt(session.server().path());
			if (now == null || !now.identityKey().equals(session.server().identityKey())
					|| !java.util.Objects.equals(now.stdio(), session.server().stdio())) {
				end(session, "policy");
			}
		}
	}

	/** The processes running now. */
	int size() {
		return this.sessions.size();
	}

	/** The processes of {@code server} running now. */
	long sizeOf(McpServerPolicy server) {
		return this.sessions.values()
			.stream()
			.filter((session) -> session.server().identityKey().equals(server.identityKey()))
			.count();
	}

	private void ended(StdioSession session) {
		this.sessions.remove(session.id(), session);
		this.events.ended(session);
	}

	private String newId() {
		byte[] bytes = new byte[18];
		this.random.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	private static String processName(McpServerPolicy server, StdioSession session) {
		return server.qualifiedName() + "#" + session.id().substring(0, 6).toLowerCase(Locale.ROOT);
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
