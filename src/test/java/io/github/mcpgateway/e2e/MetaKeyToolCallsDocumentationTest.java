package io.github.mcpgateway.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Java recipe docs/idempotency.md shows for copying is the class the suite runs
 * ({@link MetaKeyToolCalls}, run by {@code JavaSdkMetaKeyIT}).
 */
class MetaKeyToolCallsDocumentationTest {

	private static final Path RECIPE = Path.of("src/test/java/io/github/mcpgateway/e2e/MetaKeyToolCalls.java");

	@Test
	void idempotencyPageShowsTheMetaKeyRecipeFromItsDeclarationOn() throws IOException {
		String source = Files.readString(RECIPE);
		String shown = source.substring(source.indexOf("public final class MetaKeyToolCalls")).strip();

		assertThat(Files.readString(Path.of("docs/idempotency.md")))
			.contains("```java\n" + shown.replace("\t", "    ") + "\n```");
	}

}
