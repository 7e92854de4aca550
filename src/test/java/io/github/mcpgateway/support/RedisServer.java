package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.lettuce.core.ClientOptions;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A real {@code redis-server} process (Debian package {@code redis-server};
 * {@code .ci/run} installs it) on a free loopback port, without persistence. It can be
 * stopped and started again on the same port, to test a gateway through a Redis outage.
 */
public final class RedisServer implements AutoCloseable {

	private final int port;

	private LettuceConnectionFactory connections;

	private StringRedisTemplate template;

	private final Path directory;

	private final boolean persistent;

	private Process process;

	/** The port of the master this one replicates, or 0. */
	private int masterPort;

	private RedisServer(int port, Path directory, boolean persistent) {
		this.port = port;
		this.directory = directory;
		this.persistent = persistent;
	}

	/**
	 * A Redis without persistence that replicates {@code master}, once it has caught up
	 * with it.
	 */
	public static RedisServer replicaOf(RedisServer master) {
		try {
			RedisServer replica = new RedisServer(freePort(), Files.createTempDirectory("redis-replica"), false);
			replica.masterPort = master.port();
			replica.startProcess();
			Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
			while (!replica.info("replication").contains("master_link_status:up")) {
				if (Instant.now().isAfter(deadline)) {
					throw new IllegalStateException("The replica did not catch up with its master");
				}
				sleep();
			}
			return replica;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** A section of {@code INFO}, as Redis prints it. */
	public String info(String section) {
		return template().execute((RedisCallback<String>) (connection) -> {
			Properties info = connection.serverCommands().info(section);
			StringBuilder text = new StringBuilder();
			info.forEach((name, value) -> text.append(name).append(':').append(value).append('\n'));
			return text.toString();
		});
	}

	/** A Redis without persistence: a restart empties it. */
	public static RedisServer start() {
		return start(false);
	}

	/**
	 * A Redis with an append-only file (fsync on every write): what it acknowledged
	 * survives {@link #restart()}, as with a production Redis configured for durability.
	 */
	public static RedisServer startPersistent() {
		return start(true);
	}

	private static RedisServer start(boolean persistent) {
		try {
			RedisServer server = new RedisServer(freePort(), Files.createTempDirectory("redis"), persistent);
			server.startProcess();
			return server;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public int port() {
		return this.port;
	}

	/**
	 * A started Lettuce connection factory for this server that, like the gateway's,
	 * rejects commands at once while disconnected (a 2 s command timeout otherwise); the
	 * caller destroys it.
	 */
	public LettuceConnectionFactory connect() {
		LettuceClientConfiguration client = LettuceClientConfiguration.builder()
			.commandTimeout(Duration.ofSeconds(2))
			.clientOptions(ClientOptions.builder()
				.disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
				.build())
			.build();
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				new RedisStandaloneConfiguration("127.0.0.1", this.port), client);
		factory.afterPropertiesSet();
		factory.start();
		return factory;
	}

	/**
	 * A template on a connection of {@link #connect()} that lives as long as this server
	 * object ({@link #close()} destroys it): for store tests that read and flush what the
	 * store wrote.
	 */
	public synchronized StringRedisTemplate template() {
		if (this.template == null) {
			this.connections = connect();
			this.template = new StringRedisTemplate(this.connections);
		}
		return this.template;
	}

	/** Empties the server, for a test that starts from nothing. */
	public void flushAll() {
		template().execute((RedisCallback<Object>) (connection) -> {
			connection.serverCommands().flushAll();
			return null;
		});
	}

	/** Stops the process, as a crash or a failover would. */
	public synchronized void stop() {
		if (this.process != null) {
			this.process.destroy();
			try {
				this.process.waitFor();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			this.process = null;
		}
	}

	/**
	 * Starts it again on the same port: empty, or (persistent) with what it had.
	 */
	public synchronized void restart() {
		stop();
		startProcess();
	}

	private void startProcess() {
		try {
			List<String> command = new ArrayList<>(List.of("redis-server", "--port", Integer.toString(this.port),
					"--bind", "127.0.0.1", "--save", "", "--appendonly", this.persistent ? "yes" : "no",
					"--appendfsync", "always", "--dir", this.directory.toString()));
			if (this.masterPort != 0) {
				command.addAll(List.of("--replicaof", "127.0.0.1", Integer.toString(this.masterPort)));
			}
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(this.directory.resolve("redis.log").toFile())
				.start();
		}
		catch (IOException ex) {
			throw new IllegalStateException("redis-server is not installed (apt-get install redis-server)", ex);
		}
		Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
		while (Instant.now().isBefore(deadline)) {
			try (Socket socket = new Socket("127.0.0.1", this.port)) {
				return;
			}
			catch (IOException notYet) {
				sleep();
			}
		}
		throw new IllegalStateException("redis-server did not start on port " + this.port);
	}

	@Override
	public synchronized void close() {
		if (this.connections != null) {
			this.connections.destroy();
			this.connections = null;
			this.template = null;
		}
		stop();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	private static void sleep() {
		try {
			Thread.sleep(50);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
