package io.github.mcpgateway.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every meter name of the sources has a description in {@link MeterDescriptions}, which a
 * meter registered without one gets.
 */
class MeterDescriptionsTest {

	@Test
	void everyMeterNameOfTheSourcesHasADescription() throws IOException {
		Pattern name = Pattern.compile("\"(mcp\\.gateway\\.[a-z0-9._]+)\"");
		Set<String> names = new TreeSet<>();
		try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
			for (Path file : files.filter((path) -> path.toString().endsWith(".java")).toList()) {
				Matcher matcher = name.matcher(Files.readString(file));
				while (matcher.find()) {
					names.add(matcher.group(1));
				}
			}
		}

		assertThat(names).hasSizeGreaterThan(40);
		assertThat(MeterDescriptions.DESCRIPTIONS.keySet()).containsAll(names);
		assertThat(MeterDescriptions.DESCRIPTIONS.values()).allSatisfy((text) -> assertThat(text).isNotBlank());
	}

	@Test
	void aMeterWithoutADescriptionGetsTheCataloguesAndOneWithItsOwnKeepsIt() {
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		registry.config().meterFilter(new MeterDescriptions());

		Counter plain = registry.counter("mcp.gateway.requests", "decision", "allowed");
		Counter own = Counter.builder("mcp.gateway.policy.reloads").description("its own").register(registry);
		Counter other = registry.counter("jvm.something");

		assertThat(plain.getId().getDescription())
			.isEqualTo(MeterDescriptions.DESCRIPTIONS.get("mcp.gateway.requests"));
		assertThat(plain.getId().getTag("decision")).isEqualTo("allowed");
		assertThat(own.getId().getDescription()).isEqualTo("its own");
		assertThat(other.getId().getDescription()).isNull();
	}

}
