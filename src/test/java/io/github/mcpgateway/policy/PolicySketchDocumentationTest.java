package io.github.mcpgateway.policy;

import java.io.IOException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.PrincipalPattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sketch of the policy format that docs/configuration.md opens its policy section
 * with (the first thing a reader copies) shows every field of the policy model, as the
 * file names it.
 */
class PolicySketchDocumentationTest {

	private static final List<Class<?>> MODEL = List.of(McpServerPolicy.class, StdioUpstream.class,
			StdioUpstream.Ulimit.class, StdioUpstream.EnvironmentValue.class, UpstreamAuth.class, Grant.class,
			PrincipalPattern.class, RateLimit.class, VirtualServerPolicy.class, VirtualServerPolicy.Member.class,
			PolicyParser.PolicyDocument.class);

	@Test
	void theFormatSketchNamesEveryFieldOfThePolicyModel() throws IOException {
		String page = Files.readString(Path.of("docs/configuration.md"));
		int format = page.indexOf("### Format\n\n```yaml\n");
		assertThat(format).as("the policy section's format sketch").isPositive();
		String sketch = page.substring(format, page.indexOf("\n```\n", format + 20));

		for (Class<?> type : MODEL) {
			for (RecordComponent component : type.getRecordComponents()) {
				JsonProperty named = component.getAccessor().getAnnotation(JsonProperty.class);
				String field = (named != null) ? named.value() : component.getName();
				assertThat(sketch).as(type.getSimpleName() + "." + component.getName())
					.containsPattern("(?m)(^|[\\s{,])" + java.util.regex.Pattern.quote(field) + "(:|,|\\s*$| )");
			}
		}
	}

}
