package io.github.mcpgateway.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

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

	/**
	 * A property read with {@code @Value} is not in the metadata: every
	 * {@code ${gateway.*}} placeholder in the sources is documented too.
	 */
	@Test
	void everyGatewayPlaceholderInTheSourcesIsDocumented() throws IOException {
		Pattern placeholder = Pattern.compile("\\$\\{(gateway\\.[a-z0-9.-]+)");
		List<String> properties = new ArrayList<>();
		try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				Matcher matcher = placeholder.matcher(Files.readString(file));
				while (matcher.find()) {
					properties.add(matcher.group(1));
				}
			}
		}
		String documentation = Files.readString(Path.of("docs/configuration.md"));

		assertThat(properties).contains("gateway.demo.json-upstream-port");
		assertThat(properties).allSatisfy((name) -> assertThat(documentation).as(name).contains("`" + name + "`"));
	}

}
