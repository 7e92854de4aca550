package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
 */
class GettingStartedGuideIT {

	private static final Pattern BLOCK = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL);

	private static final String MARK = "@@guide-block ";

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
		StringBuilder script = new StringBuilder("set -u\n");
		for (int i = 0; i < blocks.size(); i++) {
			script.append("echo '").append(MARK).append(i).append("'\n").append(blocks.get(i)).append('\n');
		}
		Path file = work.resolve("guide.sh");
		Files.writeString(file, script);
		Path output = work.resolve("guide.out");
		ProcessBuilder bash = new ProcessBuilder("bash", file.toString()).directory(work.toFile())
			.redirectErrorStream(true)
			.redirectOutput(output.toFile());
		bash.environment().put("GATEWAY_JAR", Path.of(System.getProperty("gateway.jar")).toAbsolutePath().toString());
		bash.environment().put("UPSTREAM_PORT", Integer.toString(NodeInterop.freePort()));
		bash.environment().put("GATEWAY_PORT", Integer.toString(NodeInterop.freePort()));
		bash.environment().put("MANAGEMENT_PORT", Integer.toString(NodeInterop.freePort()));
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
