package io.github.mcpgateway.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code gateway.*} property the code binds (the configuration metadata the build
 * generates from the {@code @ConfigurationProperties} records) is documented, by its full
 * name, in {@code docs/configuration.md}.
 */
class ConfigurationDocumentationTest {

	@Test
	void everyGatewayPropertyIsDocumented() throws IOException {
		List<String> properties = new ArrayList<>();
		try (InputStream in = new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream()) {
			for (JsonNode property : JsonMapper.builder().build().readTree(in).get("properties")) {
				String name = property.get("name").asString();
				if (name.startsWith("gateway.")) {
					properties.add(name);
				}
			}
		}
		String documentation = Files.readString(Path.of("docs/configuration.md"));

		assertThat(properties).hasSizeGreaterThan(40);
		assertThat(properties).allSatisfy((name) -> assertThat(documentation).as(name).contains(name));
	}

}
