package io.github.mcpgateway.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The values and the schema, read directly: {@code values.yaml}, and each example merged
 * over it as Helm merges {@code -f} files, satisfies {@code values.schema.json}, which
 * refuses what would break the chart; and every {@code .Values} reference in the
 * templates names a value that exists in {@code values.yaml} (Helm renders a missing one
 * as empty). {@link HelmTemplateTest} runs Helm itself.
 */
class HelmChartTest {

	private static final Path CHART = Path.of("helm/mcp-gateway");

	private static final Pattern VALUE_REFERENCE = Pattern.compile("\\.Values((?:\\.[A-Za-z0-9_]+)+)");

	private final YAMLMapper yaml = YAMLMapper.builder().build();

	@Test
	void valuesAndEveryExampleSatisfyTheSchema() throws IOException {
		Schema schema = schema();
		JsonNode defaults = this.yaml.readTree(CHART.resolve("values.yaml").toFile());
		assertThat(schema.validate(defaults)).as("values.yaml").isEmpty();
		try (Stream<Path> examples = Files.list(CHART.resolve("examples"))) {
			List<Path> files = examples.toList();
			assertThat(files).hasSizeGreaterThanOrEqualTo(4).contains(CHART.resolve("examples/values-replicas.yaml"));
			for (Path example : files) {
				JsonNode merged = merge(defaults.deepCopy(), this.yaml.readTree(example.toFile()));
				assertThat(schema.validate(merged)).as(example.toString()).isEmpty();
			}
		}
	}

	@Test
	void schemaRefusesAValuesFileThatBreaksIt() throws IOException {
		JsonNode defaults = this.yaml.readTree(CHART.resolve("values.yaml").toFile());

		for (String broken : new String[] { "mode: both", "replicaCount: 0",
				"gateway: {identity: {oauth: {audiences: []}}}",
				"gateway: {identity: {resourceBaseUrl: 'https://mcp.example.com?x=1'}}",
				"gateway: {idempotency: {store: disk}}", "gateway: {proxy: {idleTimeout: forever}}",
				"gateway: {session: {store: disk}}", "gateway: {session: {idleTimeout: forever}}",
				"shutdown: {drainTimeout: 500ms}", "shutdown: {preStopSleepSeconds: -1}",
				"rollingUpdate: {maxSurge: 0, maxUnavailable: 0}", "rollingUpdate: {maxSurge: '0%', maxUnavailable: 0}",
				"rollingUpdate: {maxSurge: many}", "podDisruptionBudget: {minAvailable: null, maxUnavailable: 0}",
				"unknownValue: 1" }) {
			JsonNode merged = merge(defaults.deepCopy(), this.yaml.readTree(broken));
			assertThat(schema().validate(merged)).as(broken).isNotEmpty();
		}
		JsonNode resourceOnly = merge(defaults.deepCopy(), this.yaml
			.readTree("gateway: {identity: {oauth: {audiences: []}, resourceBaseUrl: 'https://mcp.example.com'}}"));
		assertThat(schema().validate(resourceOnly)).as("audiences may be empty with a resource base URL").isEmpty();
	}

	@Test
	void schemaRefusesARedisStoreWithoutARedisHost() throws IOException {
		for (String store : new String[] { "session", "idempotency" }) {
			String redisStore = "gateway: {" + store + ": {store: redis}}";

			assertThat(validate(redisStore)).as(redisStore).isNotEmpty();
			assertThat(validate(redisStore + "\nredis: {host: ''}")).as(redisStore + " with an empty host")
				.isNotEmpty();
			assertThat(validate(redisStore + "\nredis: {host: redis.platform.svc}")).as(redisStore + " with a host")
				.isEmpty();
		}
		assertThat(validate("gateway: {session: {store: memory}, idempotency: {store: memory}}"))
			.as("memory stores need no host")
			.isEmpty();
	}

	@Test
	void schemaRefusesASidecarNetworkPolicyWithoutTheWorkloadsLabels() throws IOException {
		assertThat(validate("mode: sidecar")).as("an empty selector selects every pod of the namespace").isNotEmpty();
		assertThat(validate("mode: sidecar\nnetworkPolicy: {sidecar: {podSelector: {app: search-mcp}}}"))
			.as("the workload's labels")
			.isEmpty();
		assertThat(validate("mode: sidecar\nnetworkPolicy: {sidecar: {enabled: false}}")).as("switched off").isEmpty();
		assertThat(validate("mode: standalone")).as("standalone: no sidecar policy").isEmpty();
	}

	@Test
	void schemaRefusesTlsWithoutTheKeystoreSecret() throws IOException {
		assertThat(validate("tls: {enabled: true}")).isNotEmpty();
		assertThat(validate("tls: {enabled: true, existingSecret: gateway-tls}")).isEmpty();
	}

	@Test
	void schemaAcceptsTheGlobalValuesHelmPassesToADependency() throws IOException {
		assertThat(validate("global: {imageRegistry: registry.example.com}")).isEmpty();
	}

	@Test
	void schemaRefusesADisruptionBudgetWithBothOrNeitherLimit() throws IOException {
		assertThat(validate("podDisruptionBudget: {maxUnavailable: 1}"))
			.as("maxUnavailable beside the default minAvailable")
			.isNotEmpty();
		assertThat(validate("podDisruptionBudget: {minAvailable: null}")).as("neither").isNotEmpty();
		assertThat(validate("podDisruptionBudget: {minAvailable: null, maxUnavailable: 1}")).as("maxUnavailable only")
			.isEmpty();
		assertThat(validate("podDisruptionBudget: {minAvailable: 2}")).as("minAvailable only").isEmpty();
	}

	@Test
	void replicasExampleSharesSessionsAndKeysThroughRedis() throws IOException {
		JsonNode defaults = this.yaml.readTree(CHART.resolve("values.yaml").toFile());
		JsonNode replicas = merge(defaults.deepCopy(),
				this.yaml.readTree(CHART.resolve("examples/values-replicas.yaml").toFile()));

		assertThat(replicas.at("/replicaCount").asInt()).isGreaterThan(1);
		assertThat(replicas.at("/gateway/session/store").asString()).isEqualTo("redis");
		assertThat(replicas.at("/gateway/idempotency/store").asString()).isEqualTo("redis");
		assertThat(replicas.at("/podDisruptionBudget/enabled").asBoolean()).isTrue();
		assertThat(replicas.at("/podDisruptionBudget").has("minAvailable")).as("null drops the default").isFalse();
		assertThat(replicas.at("/rollingUpdate/maxUnavailable").asInt()).isZero();
	}

	@Test
	void dashboardAndAlertTemplatesCarryTheFilesTheBuildChecksBehindSwitchesOffByDefault() throws IOException {
		String dashboard = Files.readString(CHART.resolve("templates/grafana-dashboard.yaml"));
		String rules = Files.readString(CHART.resolve("templates/prometheusrule.yaml"));
		JsonNode values = this.yaml.readTree(CHART.resolve("values.yaml").toFile());

		assertThat(dashboard).contains("{{- if .Values.grafanaDashboard.enabled }}")
			.contains(".Files.Get \"files/dashboard.json\"")
			.contains("with .Values.grafanaDashboard.labels");
		assertThat(rules).contains("{{- if .Values.prometheusRule.enabled }}")
			.contains("kind: PrometheusRule")
			.contains(".Files.Get \"files/prometheus-rules.yaml\"");
		assertThat(values.at("/grafanaDashboard/enabled").asBoolean()).isFalse();
		assertThat(values.at("/grafanaDashboard/labels/grafana_dashboard").asString()).isEqualTo("1");
		assertThat(values.at("/prometheusRule/enabled").asBoolean()).isFalse();
		assertThat(rules).as("the template replaces the file's runbook base with the value")
			.contains(values.at("/prometheusRule/runbookBaseUrl").asString());
		JsonNode panels = this.yaml.readTree(CHART.resolve("files/dashboard.json").toFile()).get("panels");
		assertThat(panels.size()).isGreaterThanOrEqualTo(12);
	}

	@Test
	void everyAlertLinksToARunbookSectionOfTheOperationsGuide() throws IOException {
		JsonNode values = this.yaml.readTree(CHART.resolve("values.yaml").toFile());
		String base = values.at("/prometheusRule/runbookBaseUrl").asString();
		List<String> headings = Files.readAllLines(Path.of("docs/operations.md"))
			.stream()
			.filter((line) -> line.startsWith("#"))
			.map((line) -> line.replaceFirst("^#+\\s*", "")
				.toLowerCase(java.util.Locale.ROOT)
				.replaceAll("[^a-z0-9 _-]", "")
				.replace(' ', '-'))
			.toList();
		JsonNode groups = this.yaml.readTree(CHART.resolve("files/prometheus-rules.yaml").toFile()).get("groups");
		List<String> alerts = new ArrayList<>();
		for (JsonNode group : groups) {
			for (JsonNode rule : group.get("rules")) {
				String alert = rule.get("alert").asString();
				alerts.add(alert);
				String runbook = rule.at("/annotations/runbook_url").asString();
				assertThat(runbook).as(alert).startsWith(base + "#");
				assertThat(headings).as(alert + " links to a heading of docs/operations.md")
					.contains(runbook.substring(base.length() + 1));
			}
		}
		assertThat(alerts).contains("McpGatewayPolicyRefused", "McpGatewayRevocationSyncStale",
				"McpGatewayIdempotencyStoreDown", "McpGatewayIdempotencyStoreFenced", "McpGatewayCircuitOpen",
				"McpGatewayCapacityRefusalsRising", "McpGatewayErrorsRising");
	}

	@Test
	void everyValueReferenceInTheTemplatesExistsInValuesYaml() throws IOException {
		JsonNode values = this.yaml.readTree(CHART.resolve("values.yaml").toFile());
		List<String> missing = new ArrayList<>();
		try (Stream<Path> templates = Files.list(CHART.resolve("templates"))) {
			for (Path template : templates.toList()) {
				missing.addAll(missingReferences(Files.readString(template), values).stream()
					.map((reference) -> template.getFileName() + ": .Values" + reference)
					.toList());
			}
		}
		assertThat(missing).isEmpty();
	}

	@Test
	void misspelledValueReferenceIsCaught() throws IOException {
		JsonNode values = this.yaml.readTree(CHART.resolve("values.yaml").toFile());

		assertThat(missingReferences("issuer: {{ .Values.gateway.identity.oath.issuer }}", values))
			.containsExactly(".gateway.identity.oath.issuer");
		assertThat(missingReferences("issuer: {{ .Values.gateway.identity.oauth.issuer }}", values)).isEmpty();
	}

	static List<String> missingReferences(String template, JsonNode values) {
		List<String> missing = new ArrayList<>();
		Matcher matcher = VALUE_REFERENCE.matcher(template);
		while (matcher.find()) {
			JsonNode node = values;
			for (String part : matcher.group(1).substring(1).split("\\.")) {
				node = (node != null && node.isObject()) ? node.get(part) : null;
			}
			if (node == null) {
				missing.add(matcher.group(1));
			}
		}
		return missing;
	}

	/**
	 * Schema errors of {@code values.yaml} with {@code override} merged over it.
	 */
	private List<?> validate(String override) throws IOException {
		JsonNode defaults = this.yaml.readTree(CHART.resolve("values.yaml").toFile());
		return List.copyOf(schema().validate(merge(defaults, this.yaml.readTree(override))));
	}

	private Schema schema() throws IOException {
		return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
			.getSchema(Files.readString(CHART.resolve("values.schema.json")));
	}

	/**
	 * Deep merge as Helm does for values files: objects merge, {@code null} removes the
	 * key (how a values file drops a chart default), everything else replaces.
	 */
	static JsonNode merge(JsonNode base, JsonNode override) {
		if (!(base instanceof ObjectNode target) || !override.isObject()) {
			return override;
		}
		for (String name : override.propertyNames()) {
			JsonNode current = target.get(name);
			JsonNode value = override.get(name);
			if (value.isNull()) {
				target.remove(name);
			}
			else {
				target.set(name, (current != null) ? merge(current, value) : value);
			}
		}
		return target;
	}

}
