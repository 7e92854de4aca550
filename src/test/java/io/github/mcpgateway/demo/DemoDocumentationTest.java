package io.github.mcpgateway.demo;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What docs/configuration.md says the demo profile sets is what
 * {@code application-demo.yaml} sets: the YAML block under "What
 * {@code application-demo.yaml} sets" reads as the same document.
 */
class DemoDocumentationTest {

	@Test
	void documentedDemoSettingsAreTheDemoProfilesOwn() throws IOException {
		String documentation = Files.readString(Path.of("docs/configuration.md"));
		int section = documentation.indexOf("What `application-demo.yaml` sets");
		assertThat(section).as("the section in docs/configuration.md").isPositive();
		int start = documentation.indexOf("```yaml\n", section) + "```yaml\n".length();
		String documented = documentation.substring(start, documentation.indexOf("```", start));
		YAMLMapper yaml = YAMLMapper.builder().build();

		JsonNode expected;
		try (var in = new ClassPathResource("application-demo.yaml").getInputStream()) {
			expected = yaml.readTree(in);
		}

		assertThat(yaml.readTree(documented)).isEqualTo(expected);
	}

}
