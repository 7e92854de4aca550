package io.github.mcpgateway.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.helm.RealHelm.Manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The chart through real Helm ({@link RealHelm}): {@code helm lint --strict}, and
 * {@code helm template} with {@code values.yaml} and with every example, each mode
 * rendering what it should. {@link HelmChartTest} checks the values and the schema
 * without Helm; this is what a user's {@code helm install} would meet.
 */
class HelmTemplateTest {

	@TempDir
	Path dir;

	@Test
	void chartLintsStrictly() throws IOException {
		Path chart = RealHelm.copyCharts(this.dir).resolve("mcp-gateway");

		LintResult lint = new Helm(chart).lint().strict().call();

		assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
	}

	@Test
	void everyExampleRendersWhatItsModeRenders() throws IOException {
		Path chart = RealHelm.copyCharts(this.dir).resolve("mcp-gateway");
		List<Path> examples;
		try (Stream<Path> files = Files.list(chart.resolve("examples"))) {
			examples = files.sorted().toList();
		}
		assertThat(examples).hasSizeGreaterThanOrEqualTo(5);

		for (Path example : examples) {
			String mode = RealHelm.readYaml(example).path("mode").asString("");
			Manifests rendered = RealHelm.template(chart, example, Map.of());

			assertThat(rendered.names("ConfigMap")).as(example.toString())
				.contains("ci-mcp-gateway-config", "ci-mcp-gateway-policy");
			if (mode.equals("sidecar")) {
				assertThat(rendered.ofKind("Deployment")).as(example.toString()).isEmpty();
				assertThat(rendered.ofKind("Service")).as(example.toString()).isEmpty();
				assertThat(rendered.one("NetworkPolicy").at("/spec/podSelector/matchLabels").isEmpty())
					.as(example + ": the policy selects the workload's pods, not every pod")
					.isFalse();
			}
			else {
				JsonNode container = rendered.one("Deployment").at("/spec/template/spec/containers/0");
				assertThat(container.path("name").asString("")).as(example.toString()).isEqualTo("mcp-gateway");
				assertThat(rendered.names("Service")).as(example.toString()).containsExactly("ci-mcp-gateway");
			}
		}
	}

	@Test
	void defaultValuesRenderTheStandaloneGatewayWithoutANetworkPolicy() throws IOException {
		Path chart = RealHelm.copyCharts(this.dir).resolve("mcp-gateway");

		Manifests rendered = RealHelm.template(chart, null, Map.of());

		assertThat(rendered.names("Deployment")).containsExactly("ci-mcp-gateway");
		assertThat(rendered.ofKind("NetworkPolicy")).isEmpty();
		assertThat(rendered.one("Deployment").at("/spec/template/metadata/annotations/checksum~1config").asString(""))
			.matches("[0-9a-f]{64}");
	}

	@Test
	void sidecarModeWithoutTheWorkloadsLabelsIsRefused() throws IOException {
		Path chart = RealHelm.copyCharts(this.dir).resolve("mcp-gateway");
		Path sidecar = chart.resolve("examples/values-sidecar.yaml");

		assertThatThrownBy(() -> RealHelm.template(chart, sidecar,
				Map.of("networkPolicy.sidecar.podSelector.app\\.kubernetes\\.io/name", "null")))
			.hasMessageContaining("podSelector");
		assertThat(RealHelm.template(chart, sidecar, Map.of("networkPolicy.sidecar.enabled", "false"))
			.ofKind("NetworkPolicy")).as("switched off").isEmpty();
	}

}
