package io.github.mcpgateway.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The long reference pages open with a contents list that links every section and
 * subsection, in order, by the anchors GitHub gives their headings; code the docs show
 * for copying is the code the suite runs.
 */
class DocumentationContentsTest {

	@Test
	void errorsPageShowsTheReadableRefusalsRecipeTheSdkTestsRun() throws IOException {
		String recipe = Files.readString(Path.of("src/test/node/readable-refusals.mjs")).strip();

		assertThat(Files.readString(Path.of("docs/errors.md"))).contains("```javascript\n" + recipe + "\n```");
	}

	/**
	 * The heading in docs/idempotency.md under which the TypeScript recipe for a key in
	 * {@code params._meta} is shown: its first code block is the part of
	 * {@code meta-key-recipe.mjs} between {@code // recipe:begin} and
	 * {@code // recipe:end}, which TypeScriptMetaKeyIT runs.
	 */
	static final String META_KEY_RECIPE_HEADING = "TypeScript: a key per call in `_meta` (SDK v1 and v2)";

	@Test
	void idempotencyPageShowsTheMetaKeyRecipeTheTypeScriptTestsRun() throws IOException {
		String recipe = Files.readString(Path.of("src/test/node/meta-key-recipe.mjs"));
		Matcher marked = Pattern.compile("(?s)// recipe:begin\\n(.*?)// recipe:end").matcher(recipe);
		assertThat(marked.find()).as("meta-key-recipe.mjs marks its recipe with // recipe:begin and // recipe:end")
			.isTrue();
		String shown = firstCodeBlockUnder(Files.readAllLines(Path.of("docs/idempotency.md")), META_KEY_RECIPE_HEADING);
		assertThat(shown).as("the first code block under '%s' in docs/idempotency.md", META_KEY_RECIPE_HEADING)
			.contains("callToolOnce")
			.isEqualTo(withoutTrailingWhitespace(marked.group(1)));
	}

	/**
	 * The first fenced code block after the heading whose text is {@code heading} (any
	 * level), each line without trailing whitespace, no leading or trailing blank lines;
	 * null when there is no such heading or block.
	 */
	private static String firstCodeBlockUnder(List<String> lines, String heading) {
		int at = 0;
		while (at < lines.size() && !(lines.get(at).startsWith("#")
				&& lines.get(at).replaceFirst("^#+\\s*", "").strip().equals(heading))) {
			at++;
		}
		while (at < lines.size() && !lines.get(at).startsWith("```")) {
			at++;
		}
		int end = at + 1;
		while (end < lines.size() && !lines.get(end).startsWith("```")) {
			end++;
		}
		return (end < lines.size()) ? withoutTrailingWhitespace(String.join("\n", lines.subList(at + 1, end))) : null;
	}

	private static String withoutTrailingWhitespace(String text) {
		return text.strip().lines().map(String::stripTrailing).collect(Collectors.joining("\n"));
	}

	private static final Pattern LINK = Pattern.compile("^\\s*- \\[.*]\\(#([^)]+)\\)$");

	@ParameterizedTest
	@ValueSource(strings = { "docs/operations.md", "docs/configuration.md" })
	void contentsListLinksEverySectionInOrder(String page) throws IOException {
		List<String> lines = Files.readAllLines(Path.of(page));
		List<String> headings = new ArrayList<>();
		List<String> links = new ArrayList<>();
		boolean code = false;
		boolean contents = false;
		for (String line : lines) {
			if (line.startsWith("```")) {
				code = !code;
				continue;
			}
			if (code) {
				continue;
			}
			if (line.equals("## Contents")) {
				contents = true;
				continue;
			}
			Matcher link = LINK.matcher(line);
			if (contents && link.matches()) {
				links.add(link.group(1));
				continue;
			}
			if (line.startsWith("## ") || line.startsWith("### ")) {
				contents = false;
				headings.add(anchor(line.substring(line.indexOf(' ') + 1)));
			}
		}
		assertThat(links).as("the contents list of %s", page).containsExactlyElementsOf(headings);
	}

	/**
	 * GitHub's anchor of a heading: lower case, punctuation dropped, spaces as dashes.
	 */
	private static String anchor(String heading) {
		return heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
	}

	/**
	 * The docs name the jar the build makes ({@code target/<artifactId>-<version>.jar}),
	 * not a name a reader would have to guess from.
	 */
	@Test
	void docsNameTheJarTheBuildMakes() throws IOException {
		List<Path> pages;
		try (java.util.stream.Stream<Path> files = Files.walk(Path.of("docs"))) {
			pages = files.filter(Files::isRegularFile).toList();
		}

		assertThat(pages).hasSizeGreaterThan(20);
		for (Path page : pages) {
			assertThat(Files.readString(page)).as(page.toString())
				.doesNotContain("mcp-gateway.jar")
				.doesNotContain("ghcr.io/example/");
		}
		assertThat(Files.readString(Path.of("README.md"))).doesNotContain("mcp-gateway.jar");
	}

}
