package io.github.mcpgateway.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.util.ClassUtils;

import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md stays true of the code in what a reader navigates by: its package
 * map lists exactly the packages in {@code src/main/java} (subpackages included), with
 * the stages in the order and the ground packages that {@link ArchitectureTest} enforces
 * and the {@code McpStage} numbers of the stages the application registers; its rule list
 * names the same stages and ground packages; its table of stages and the stages of its
 * pipeline diagram are the registered {@code McpStage}s, in the order
 * {@code PipelineConfiguration} registers them.
 */
class ArchitectureDocumentationTest extends GatewayIntegrationTest {

	private static final String ROOT = "io.github.mcpgateway";

	private static final Path DOC = Path.of("docs/architecture.md");

	private static final Path SOURCES = Path.of("src/main/java/io/github/mcpgateway");

	/** A row of the package map: {@code | `name` | kind | contents |}. */
	private static final Pattern PACKAGE_ROW = Pattern.compile("^\\| `([\\w.]+)` \\| ([^|]*?) \\|");

	/**
	 * A row of the table of stages:
	 * {@code | 4 | `IdempotencyStage` | `idempotency` | `idempotency` |}.
	 */
	private static final Pattern STAGE_ROW = Pattern
		.compile("^\\| (\\d+) \\| `(\\w+)` \\| `([\\w.]+)` \\| `(\\w+)` \\|");

	/** A stage of the pipeline diagram: its package, then its class. */
	private static final Pattern DIAGRAM_STAGE = Pattern.compile("^ ([a-z.]+) +(\\w+Stage)\\b");

	private static final Pattern MCP_STAGE_NUMBER = Pattern.compile("`McpStage` (\\d+)");

	@Autowired
	private McpPipelineFilter pipeline;

	@Test
	void packageMapListsExactlyThePackagesInTheSources() throws IOException {
		List<String> documented = packageRows().stream().map(PackageRow::name).toList();

		assertThat(documented).as("package map of %s", DOC).doesNotHaveDuplicates();
		assertThat(documented).as("package map of %s", DOC).containsExactlyInAnyOrderElementsOf(sourcePackages());
	}

	@Test
	void packageMapListsTheEnforcedStagesInOrder() throws IOException {
		List<String> stages = packageRows().stream()
			.filter((row) -> row.kind().startsWith("stage"))
			.map(PackageRow::name)
			.toList();

		assertThat(stages).isEqualTo(ArchitectureTest.STAGES);
	}

	@Test
	void packageMapListsTheEnforcedGroundPackages() throws IOException {
		List<String> ground = packageRows().stream()
			.filter((row) -> row.kind().startsWith("ground"))
			.map((row) -> row.name().split("\\.")[0])
			.distinct()
			.toList();

		assertThat(ground).containsExactlyInAnyOrderElementsOf(ArchitectureTest.GROUND);
	}

	@Test
	void packageMapNumbersTheRegisteredStages() throws IOException {
		Map<Integer, String> numbered = new TreeMap<>();
		for (PackageRow row : packageRows()) {
			Matcher number = MCP_STAGE_NUMBER.matcher(row.kind());
			if (number.find()) {
				assertThat(numbered.put(Integer.valueOf(number.group(1)), row.name()))
					.as("McpStage %s", number.group(1))
					.isNull();
			}
		}

		assertThat(List.copyOf(numbered.keySet())).isEqualTo(oneTo(numbered.size()));
		assertThat(List.copyOf(numbered.values()))
			.isEqualTo(registeredStages().stream().map(RegisteredStage::packageName).toList());
	}

	@Test
	void ruleListNamesTheEnforcedStagesAndGroundPackages() throws IOException {
		List<String> section = section("## Package map");

		assertThat(listAfter(section, "The stages, in pipeline order: ")).isEqualTo(ArchitectureTest.STAGES);
		assertThat(listAfter(section, "The ground packages: "))
			.containsExactlyInAnyOrderElementsOf(ArchitectureTest.GROUND);
	}

	@Test
	void tableOfStagesIsTheRegisteredStagesInOrder() throws IOException {
		List<String> documented = new ArrayList<>();
		List<Integer> numbers = new ArrayList<>();
		for (String line : section("### The stages, in order")) {
			Matcher row = STAGE_ROW.matcher(line);
			if (row.find()) {
				numbers.add(Integer.valueOf(row.group(1)));
				documented.add(row.group(3) + "." + row.group(2) + " " + row.group(4));
			}
		}

		assertThat(numbers).isEqualTo(oneTo(numbers.size()));
		assertThat(documented)
			.isEqualTo(registeredStages().stream().map((stage) -> stage.qualifiedName() + " " + stage.name()).toList());
	}

	@Test
	void pipelineDiagramShowsTheRegisteredStagesInOrder() throws IOException {
		List<String> documented = new ArrayList<>();
		for (String line : codeBlocks(section("## Request pipeline"))) {
			Matcher stage = DIAGRAM_STAGE.matcher(line);
			if (stage.find()) {
				documented.add(stage.group(1) + "." + stage.group(2));
			}
		}

		assertThat(documented).isEqualTo(registeredStages().stream().map(RegisteredStage::qualifiedName).toList());
	}

	private List<RegisteredStage> registeredStages() {
		List<RegisteredStage> stages = new ArrayList<>();
		for (McpStage stage : this.pipeline.stages()) {
			Class<?> type = ClassUtils.getUserClass(stage);
			stages.add(new RegisteredStage(type.getPackageName().substring(ROOT.length() + 1), type.getSimpleName(),
					stage.name()));
		}
		return stages;
	}

	/** Every package with a Java file under {@link #SOURCES}, relative to the root. */
	private static List<String> sourcePackages() throws IOException {
		try (Stream<Path> files = Files.walk(SOURCES)) {
			return files.filter((file) -> file.toString().endsWith(".java"))
				.map((file) -> SOURCES.relativize(file.getParent())
					.toString()
					.replace(file.getFileSystem().getSeparator(), "."))
				.map((name) -> name.isEmpty() ? ROOT : name)
				.distinct()
				.toList();
		}
	}

	private static List<PackageRow> packageRows() throws IOException {
		List<PackageRow> rows = new ArrayList<>();
		for (String line : section("## Package map")) {
			Matcher row = PACKAGE_ROW.matcher(line);
			if (row.find()) {
				rows.add(new PackageRow(row.group(1), row.group(2)));
			}
		}
		assertThat(rows).as("rows of the package map in %s", DOC).isNotEmpty();
		return rows;
	}

	/**
	 * The lines under {@code heading} up to the next heading of the same or a higher
	 * level.
	 */
	private static List<String> section(String heading) throws IOException {
		List<String> lines = Files.readAllLines(DOC);
		int start = lines.indexOf(heading);
		assertThat(start).as("heading '%s' in %s", heading, DOC).isNotNegative();
		int level = heading.indexOf(' ');
		int end = start + 1;
		boolean inCode = false;
		while (end < lines.size()) {
			String line = lines.get(end);
			if (line.startsWith("```")) {
				inCode = !inCode;
			}
			else if (!inCode && line.startsWith("#") && line.indexOf(' ') <= level) {
				break;
			}
			end++;
		}
		return lines.subList(start + 1, end);
	}

	/** The lines of the fenced code blocks in {@code lines}. */
	private static List<String> codeBlocks(List<String> lines) {
		List<String> code = new ArrayList<>();
		boolean inCode = false;
		for (String line : lines) {
			if (line.startsWith("```")) {
				inCode = !inCode;
			}
			else if (inCode) {
				code.add(line);
			}
		}
		return code;
	}

	/**
	 * The comma-separated names after {@code prefix} on the one line that has it, up to
	 * its full stop.
	 */
	private static List<String> listAfter(List<String> lines, String prefix) {
		List<String> matching = lines.stream().filter((line) -> line.contains(prefix)).toList();
		assertThat(matching).as("lines with '%s' in %s", prefix, DOC).hasSize(1);
		String list = matching.get(0).substring(matching.get(0).indexOf(prefix) + prefix.length());
		return Arrays.stream(list.substring(0, list.indexOf('.')).split(",")).map(String::strip).toList();
	}

	private static List<Integer> oneTo(int n) {
		List<Integer> numbers = new ArrayList<>();
		for (int i = 1; i <= n; i++) {
			numbers.add(i);
		}
		return numbers;
	}

	private record PackageRow(String name, String kind) {
	}

	private record RegisteredStage(String packageName, String simpleName, String name) {

		String qualifiedName() {
			return this.packageName + "." + this.simpleName;
		}

	}

}
