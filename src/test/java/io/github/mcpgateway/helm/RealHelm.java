package io.github.mcpgateway.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Helm itself, for the chart tests: helm-java runs Helm's Go library (the native library
 * of the build's platform, through JNA), so {@code helm template}, {@code lint} and
 * {@code dependency update} need no helm binary. The charts are copied into a temporary
 * directory first, keeping their layout (the sample's dependency is
 * {@code file://../../mcp-gateway}), so that what Helm writes ({@code charts/},
 * {@code Chart.lock}) never lands in the repository.
 */
final class RealHelm {

	private static final Path HELM = Path.of("helm");

	private static final YAMLMapper YAML = YAMLMapper.builder().build();

	private RealHelm() {
	}

	/** Copies {@code helm/} into {@code dir} and returns the copy's root. */
	static Path copyCharts(Path dir) throws IOException {
		Path root = dir.resolve("helm");
		try (Stream<Path> files = Files.walk(HELM)) {
			for (Path source : files.toList()) {
				Path target = root.resolve(HELM.relativize(source).toString());
				if (Files.isDirectory(source)) {
					Files.createDirectories(target);
				}
				else {
					Files.copy(source, target);
				}
			}
		}
		return root;
	}

	/**
	 * {@code helm dependency update} of a chart whose dependencies are {@code file://}.
	 */
	static void dependencyUpdate(Path chart) {
		new Helm(chart).dependency().update().skipRefresh().call();
	}

	/**
	 * {@code helm template ci <chart> [-f values] [--set key=value ...]}, every document
	 * of the output parsed.
	 */
	static Manifests template(Path chart, Path values, Map<String, Object> sets) {
		TemplateCommand template = new Helm(chart).template().withName("ci");
		if (values != null) {
			template.withValuesFile(values);
		}
		sets.forEach(template::set);
		List<JsonNode> documents = YAML.readerFor(JsonNode.class)
			.<JsonNode>readValues(template.call())
			.readAll()
			.stream()
			.filter((document) -> document != null && document.isObject())
			.toList();
		return new Manifests(documents);
	}

	static JsonNode readYaml(Path file) {
		return YAML.readTree(file.toFile());
	}

	static JsonNode readYaml(String text) {
		return YAML.readTree(text);
	}

	/** The documents Helm rendered. */
	record Manifests(List<JsonNode> documents) {

		List<JsonNode> ofKind(String kind) {
			return this.documents.stream()
				.filter((document) -> kind.equals(document.path("kind").asString("")))
				.toList();
		}

		JsonNode one(String kind) {
			List<JsonNode> found = ofKind(kind);
			if (found.size() != 1) {
				throw new AssertionError("expected one " + kind + ", rendered " + found.size());
			}
			return found.get(0);
		}

		Set<String> names(String kind) {
			Set<String> names = new TreeSet<>();
			ofKind(kind).forEach((document) -> names.add(document.at("/metadata/name").asString()));
			return names;
		}

	}

}
