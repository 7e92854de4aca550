package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Real child processes ({@code /bin/sh} and {@code cat}): the gateway never uses a shell
 * for a server, but a test may, to make a child that misbehaves.
 */
@ExtendWith(OutputCaptureExtension.class)
class StdioProcessTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final StdioLimits FAST_STOP = new StdioLimits(StdioLimits.DEFAULT_MAX_LINE_BYTES, 200, 5,
			Duration.ofMillis(300));

	@TempDir
	Path directory;

	private final Recorder recorder = new Recorder();

	@Test
	void sendWhenTheServerEchoesThenEachMessageComesBackParsed() throws Exception {
		StdioProcess process = start(List.of("cat"), Map.of());
		JsonNode pretty = JSON.readTree("{\n  \"jsonrpc\": \"2.0\",\n  \"id\": 1,\n  \"method\": \"ping\"\n}");

		assertThat(process.send(pretty)).isTrue();
		assertThat(process.send(JSON.readTree("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")))
			.isTrue();

		assertThat(this.recorder.nextMessage()).isEqualTo(pretty);
		assertThat(this.recorder.nextMessage().get("method").asString()).isEqualTo("notifications/initialized");
		process.stop();
		assertThat(this.recorder.end()).isEqualTo(new StdioEnd(StdioEnd.Reason.STOPPED, 0));
	}

	@Test
	void startWhenTheGatewayHasAnEnvironmentThenTheChildSeesOnlyTheVariablesTheCommandNames() throws Exception {
		start(List.of("/bin/sh", "-c", "printf '{\"names\":\"%s\"}\\n' \"$(env | cut -d= -f1 | tr '\\n' ' ')\""),
				Map.of("GIVEN_MARKER", "yes"));

		Set<String> names = Set.of(this.recorder.nextMessage().get("names").asString().trim().split(" "));

		assertThat(System.getenv()).containsKey("HOME");
		assertThat(names).contains("GIVEN_MARKER")
			.doesNotContain("HOME")
			.allMatch((name) -> name.equals("GIVEN_MARKER") || Set.of("PWD", "SHLVL", "_").contains(name));
	}

	@Test
	void startWhenTheWorkingDirectoryIsGivenThenTheChildRunsThere() throws Exception {
		start(List.of("/bin/sh", "-c", "printf '{\"cwd\":\"%s\"}\\n' \"$(pwd)\""), Map.of());

		assertThat(this.recorder.nextMessage().get("cwd").asString()).isEqualTo(this.directory.toRealPath().toString());
	}

	@Test
	void startWhenTheExecutableDoesNotExistThenIOExceptionAndNoEnd() {
		assertThatIOException()
			.isThrownBy(() -> start(List.of(this.directory.resolve("missing").toString()), Map.of()));
		assertThat(this.recorder.ends).isEmpty();
	}

	@Test
	void argvWhenAnArgumentHoldsShellSyntaxThenItReachesTheChildAsOneLiteralArgument() throws Exception {
		start(List.of("/bin/sh", "-c", "printf '{\"argument\":\"%s\"}\\n' \"$1\"", "sh", "$HOME; echo x"), Map.of());

		assertThat(this.recorder.nextMessage().get("argument").asString()).isEqualTo("$HOME; echo x");
	}

	@Test
	void readWhenALineIsNotJsonThenTheProcessIsKilledAndTheEndIsAViolation(CapturedOutput output) throws Exception {
		StdioProcess process = start(List.of("/bin/sh", "-c", "echo '{\"id\":1}'; echo 'hello'; sleep 60"), Map.of());

		assertThat(this.recorder.nextMessage().get("id").asInt()).isEqualTo(1);
		assertThat(this.recorder.end().reason()).isEqualTo(StdioEnd.Reason.NOT_JSON);
		assertThat(process.isAlive()).isFalse();
		assertThat(process.send(JSON.readTree("{}"))).isFalse();
		assertThat(output).contains("stdout broke the stdio framing (NOT_JSON)").doesNotContain("hello");
	}

	@Test
	void readWhenALineIsAJsonValueButNotAnObjectThenAViolation() throws Exception {
		start(List.of("/bin/sh", "-c", "echo '[1,2]'; sleep 60"), Map.of());

		assertThat(this.recorder.end().reason()).isEqualTo(StdioEnd.Reason.NOT_JSON);
	}

	@Test
	void readWhenALineIsLongerThanTheBoundThenTheProcessIsKilled() throws Exception {
		StdioLimits limits = new StdioLimits(1024, 200, 5, Duration.ofMillis(300));
		StdioProcess process = StdioProcess.start("test",
				new StdioCommand(List.of("/bin/sh", "-c", "head -c 5000 /dev/zero | tr '\\0' a; sleep 60"),
						this.directory, Map.of("PATH", "/usr/bin:/bin")),
				limits, this.recorder);

		assertThat(this.recorder.end().reason()).isEqualTo(StdioEnd.Reason.LINE_TOO_LONG);
		assertThat(process.isAlive()).isFalse();
	}

	@Test
	void readWhenTheProcessExitsOnItsOwnThenEndedWithItsExitCode() throws Exception {
		start(List.of("/bin/sh", "-c", "exit 3"), Map.of());

		assertThat(this.recorder.end()).isEqualTo(new StdioEnd(StdioEnd.Reason.EXITED, 3));
	}

	@Test
	void stopWhenTheProcessIgnoresStdinAndSigtermThenItAndItsChildrenAreKilled() throws Exception {
		StdioProcess process = start(
				List.of("/bin/sh", "-c", "trap '' TERM; sleep 60 & child=$!; echo \"{\\\"child\\\":$child}\"; wait"),
				Map.of("PATH", "/usr/bin:/bin"));
		long child = this.recorder.nextMessage().get("child").asLong();
		assertThat(ProcessHandle.of(child)).isPresent();

		process.stop();

		assertThat(process.isAlive()).isFalse();
		assertThat(this.recorder.end().reason()).isEqualTo(StdioEnd.Reason.STOPPED);
		assertThat(runningWithin(child, Duration.ofSeconds(5))).as("the child still runs").isFalse();
	}

	// A killed process that nobody reaps stays a zombie (state Z): it no longer runs.
	private static boolean runningWithin(long pid, Duration timeout) throws InterruptedException {
		long deadline = System.currentTimeMillis() + timeout.toMillis();
		while (running(pid) && System.currentTimeMillis() < deadline) {
			Thread.sleep(20);
		}
		return running(pid);
	}

	private static boolean running(long pid) {
		try {
			String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
			return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
		}
		catch (IOException ex) {
			return false;
		}
	}

	@Test
	void stopWhenASendIsBlockedOnAProcessThatDoesNotReadThenTheProcessEndsAndTheSendReturns() throws Exception {
		StdioProcess process = start(List.of("/bin/sh", "-c", "trap '' TERM; sleep 60"),
				Map.of("PATH", "/usr/bin:/bin"));
		JsonNode big = JSON.readTree("{\"text\":\"" + "x".repeat(256 * 1024) + "\"}");
		ExecutorService threads = Executors.newCachedThreadPool();
		CompletableFuture<Boolean> blocked = CompletableFuture.supplyAsync(() -> process.send(big), threads);
		Thread.sleep(200);
		assertThat(blocked).isNotDone();

		CompletableFuture.runAsync(process::stop, threads).get(10, TimeUnit.SECONDS);
		threads.shutdown();

		assertThat(blocked.get(5, TimeUnit.SECONDS)).isFalse();
		assertThat(process.isAlive()).isFalse();
		assertThat(this.recorder.end().reason()).isEqualTo(StdioEnd.Reason.STOPPED);
	}

	@Test
	void stderrWhenTheProcessWritesManyLongLinesThenTheLogKeepsABoundedCleanedPart(CapturedOutput output)
			throws Exception {
		start(List.of("/bin/sh", "-c",
				"i=0; while [ $i -lt 50 ]; do printf 'line-%s \\033[31m%0300d\\n' $i 0 >&2; i=$((i+1)); done; echo '{\"done\":true}'"),
				Map.of());

		this.recorder.nextMessage();
		this.recorder.end();
		List<String> logged = Arrays.stream(output.toString().split("\n"))
			.filter((l) -> l.contains("[test] "))
			.toList();
		assertThat(logged).hasSize(6);
		assertThat(logged.get(0)).contains("line-0 ?[31m").doesNotContain("\u001b");
		assertThat(logged.get(0).substring(logged.get(0).indexOf("[test] ") + 7)).hasSize(200);
		assertThat(logged.get(5)).contains("stderr past 5 lines: the rest is dropped");
		assertThat(output).doesNotContain("line-5 ");
	}

	private StdioProcess start(List<String> argv, Map<String, String> environment) throws IOException {
		return StdioProcess.start("test", new StdioCommand(argv, this.directory, environment), FAST_STOP,
				this.recorder);
	}

	private static final class Recorder implements StdioListener {

		private final BlockingQueue<JsonNode> messages = new LinkedBlockingQueue<>();

		private final BlockingQueue<StdioEnd> ends = new LinkedBlockingQueue<>();

		@Override
		public void onMessage(JsonNode message) {
			this.messages.add(message);
		}

		@Override
		public void ended(StdioEnd end) {
			this.ends.add(end);
		}

		JsonNode nextMessage() throws InterruptedException {
			JsonNode message = this.messages.poll(10, TimeUnit.SECONDS);
			assertThat(message).as("a message within 10 s").isNotNull();
			return message;
		}

		StdioEnd end() throws InterruptedException {
			StdioEnd end = this.ends.poll(10, TimeUnit.SECONDS);
			assertThat(end).as("an end within 10 s").isNotNull();
			assertThat(this.ends.poll(200, TimeUnit.MILLISECONDS)).as("only one end").isNull();
			return end;
		}

	}

}
