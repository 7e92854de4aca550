package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs docs/getting-started.md as a newcomer would: every {@code bash} block, in order,
 * in one shell, against the packaged jar and server-everything (from the pinned node
 * packages, so that {@code npx} finds it without a download), on free ports; each block's
 * output must contain what its {@code # →} comments name. Skipped where {@code node} or
 * {@code npm} is missing.
 * <p>
 * After each block the script also asks, with {@code curl}, which of the guide's three
 * ports (the MCP server's, the gateway's, its management port) accept a connection on
 * 127.0.0.1 and on a non-loopback address of this machine: a command a reader copies must
 * not put the gateway or the MCP server on every interface, and the last block must leave
 * nothing listening (ending {@code npx} alone leaves server-everything on its port). The
 * shell runs with job control ({@code set -m}), as the interactive shell the guide is
 * written for does: each command started with {@code &} is a process group of its own.
 */
class GettingStartedGuideIT {

	private static final Pattern BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);

	private static final String MARK = "@@guide-block ";

	private static final Pattern LISTENING = Pattern.compile("@@listening (\\d+) (\\S+):(\\d+)$", Pattern.MULTILINE);

	/**
	 * Prints {@code @@listening <block> <host>:<port>} for each of the guide's ports that
	 * accepts a connection (curl's exit code 7: refused) on loopback or on
	 * {@code $OTHER_ADDRESS}.
	 */
	private static final String PROBE = """
			probe_ports() {
			  for port in "$UPSTREAM_PORT" "$GATEWAY_PORT" "$MANAGEMENT_PORT"; do
			    for host in 127.0.0.1 $OTHER_ADDRESS; do
			      curl -s -o /dev/null --max-time 2 "http://$host:$port/"
			      [ $? = 7 ] || echo "@@listening $1 $host:$port"
			    done
			  done
			}
			""";

	@Test
	void everyCommandOfTheGuideGivesTheDocumentedAnswer() throws Exception {
		NodeInterop.installed();
		List<String> blocks = new ArrayList<>();
		Matcher matcher = BLOCK.matcher(Files.readString(Path.of("docs/getting-started.md")));
		while (matcher.find()) {
			blocks.add(matcher.group(1));
		}
		assertThat(blocks).hasSizeGreaterThanOrEqualTo(8);
		Path work = Files.createTempDirectory("getting-started");
		// npx finds the pinned server-everything here, as in a project that installed it.
		Files.createSymbolicLink(work.resolve("node_modules"),
				Path.of(System.getProperty("node.interop.dir", "target/node-interop"))
					.toAbsolutePath()
					.resolve("node_modules"));
		StringBuilder script = new StringBuilder("set -um\n").append(PROBE);
		for (int i = 0; i < blocks.size(); i++) {
			script.append("echo '").append(MARK).append(i).append("'\n").append(blocks.get(i)).append('\n');
			script.append("probe_ports ").append(i).append('\n');
		}
		Path file = work.resolve("guide.sh");
		Files.writeString(file, script);
		Path output = work.resolve("guide.out");
		ProcessBuilder bash = new ProcessBuilder("bash", file.toString()).directory(work.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		bash.environment().put("GATEWAY_JAR", Path.of(System.getProperty("gateway.jar")).toAbsolutePath().toString());
		Map<String, String> ports = new LinkedHashMap<>();
		for (String port : List.of("UPSTREAM_PORT", "GATEWAY_PORT", "MANAGEMENT_PORT")) {
			ports.put(port, Integer.toString(NodeInterop.freePort()));
		}
		bash.environment().putAll(ports);
		String other = otherAddress();
		bash.environment().put("OTHER_ADDRESS", other);
		Process run = bash.start();
		try {
			assertThat(run.waitFor(4, TimeUnit.MINUTES)).as("the guide ran within 4 minutes:\n%s", read(output))
				.isTrue();
		}
		finally {
			run.descendants().forEach(ProcessHandle::destroy);
			run.destroyForcibly();
		}
		String printed = read(output);
		System.out.println("docs/getting-started.md, as run:\n" + printed);
		for (int i = 0; i < blocks.size(); i++) {
			String section = section(printed, i);
			for (String expected : expectations(blocks.get(i))) {
				assertThat(section).as("block %d of docs/getting-started.md:\n%s", i + 1, blocks.get(i))
					.contains(expected);
			}
		}
		assertThat(run.exitValue()).as(printed).isZero();
		// A command that reads a log before the process it starts has written one prints
		// this once, a race a reader should never see.
		assertThat(printed).as("no command read a file that was not there yet").doesNotContain("No such file");
		assertListenedOnLoopbackOnly(printed, blocks.size(), ports, other);
	}

	private static void assertListenedOnLoopbackOnly(String printed, int blocks, Map<String, String> ports,
			String other) {
		List<String> listening = new ArrayList<>();
		Matcher matcher = LISTENING.matcher(printed);
		while (matcher.find()) {
			listening.add("after block " + (Integer.parseInt(matcher.group(1)) + 1) + ": " + matcher.group(2) + ":"
					+ matcher.group(3));
		}
		System.out.println("accepting connections (non-loopback address probed: "
				+ (other.isEmpty() ? "none, this machine has none" : other) + "):\n" + String.join("\n", listening));
		// Seen on loopback, each port could have been seen on the other address as well.
		ports.forEach((name, port) -> assertThat(listening).as("the probe saw %s listen on 127.0.0.1", name)
			.anyMatch((line) -> line.endsWith(": 127.0.0.1:" + port)));
		assertThat(listening).as("the MCP server, the gateway and its management port listen on 127.0.0.1 only")
			.allMatch((line) -> line.contains(": 127.0.0.1:"));
		assertThat(listening).as("the last block leaves nothing listening")
			.noneMatch((line) -> line.startsWith("after block " + blocks + ":"));
	}

	/** An IPv4 address of this machine other than loopback, or "" where it has none. */
	private static String otherAddress() throws SocketException {
		return NetworkInterface.networkInterfaces()
			.filter(GettingStartedGuideIT::isUpAndNotLoopback)
			.flatMap(NetworkInterface::inetAddresses)
			.filter((address) -> address instanceof Inet4Address && !address.isLinkLocalAddress())
			.map(InetAddress::getHostAddress)
			.findFirst()
			.orElse("");
	}

	private static boolean isUpAndNotLoopback(NetworkInterface nic) {
		try {
			return nic.isUp() && !nic.isLoopback();
		}
		catch (SocketException ex) {
			return false;
		}
	}

	/** What the block's {@code # →} comments say its output contains. */
	private static List<String> expectations(String block) {
		List<String> expected = new ArrayList<>();
		for (String line : block.lines().toList()) {
			if (line.startsWith("# → ")) {
				expected.add(line.substring("# → ".length()));
			}
		}
		return expected;
	}

	private static String section(String printed, int block) {
		int start = printed.indexOf(MARK + block + "\n");
		assertThat(start).as("block %d ran", block + 1).isGreaterThanOrEqualTo(0);
		int end = printed.indexOf(MARK + (block + 1) + "\n");
		return printed.substring(start, (end < 0) ? printed.length() : end);
	}

	private static String read(Path output) throws IOException {
		return Files.exists(output) ? Files.readString(output, StandardCharsets.UTF_8) : "";
	}

}
