package io.github.mcpgateway.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

}
