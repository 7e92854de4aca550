package io.github.mcpgateway.helm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.helm.RealHelm.Manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sidecar mode as another chart uses it: {@code helm/examples/sidecar-workload} declares
 * the gateway chart as a dependency and includes {@code mcp-gateway.sidecarContainer} and
 * {@code mcp-gateway.volumes} with the subchart's context in its own Deployment. Rendered
 * by real Helm ({@link RealHelm}) and read back: the pod runs the MCP server on 127.0.0.1
 * and the gateway from the subchart's values, every ConfigMap and Secret the gateway
 * mounts is one the subchart renders, and the NetworkPolicy admits the gateway's ports
 * and not the server's.
 */
class HelmSidecarWorkloadTest {

	private static final Path SAMPLE = Path.of("helm/examples/sidecar-workload");

	@TempDir
	static Path dir;

	static Path workload;

	private final JsonNode values = RealHelm.readYaml(SAMPLE.resolve("values.yaml"));

	@BeforeAll
	static void resolveTheDependency() throws IOException {
		workload = RealHelm.copyCharts(dir).resolve("examples/sidecar-workload");
		RealHelm.dependencyUpdate(workload);
		assertThat(workload.resolve("charts/mcp-gateway-0.1.0.tgz")).exists();
	}

	@Test
	void workloadChartLintsStrictly() {
		LintResult lint = new Helm(workload).lint().strict().call();

		assertThat(lint.isFailed()).as(String.join("\n", lint.getMessages())).isFalse();
	}

	@Test
	void podRunsTheServerAndTheGatewayFromTheSubchartsValues() {
		JsonNode pod = deploymentPod(RealHelm.template(workload, null, Map.of()));
		JsonNode gatewayImage = this.values.at("/mcp-gateway/image");

		assertThat(names(pod.get("containers"))).containsExactly("search-mcp", "mcp-gateway");
		JsonNode gateway = container(pod, "mcp-gateway");
		assertThat(gateway.get("image").asString())
			.isEqualTo(gatewayImage.get("repository").asString() + ":" + gatewayImage.get("tag").asString());
		assertThat(mountPaths(gateway)).containsEntry("config", "/etc/mcp-gateway/config")
			.containsEntry("policy", "/etc/mcp-gateway/policy")
			.containsEntry("tmp", "/tmp");
		assertThat(names(pod.get("volumes"))).containsAll(mountPaths(gateway).keySet());
		assertThat(pod.get("terminationGracePeriodSeconds").asInt()).as("preStop 5 s + drain 30 s + 10 s")
			.isEqualTo(45);
	}

	@Test
	void everyConfigMapAndSecretTheGatewayReadsIsOneTheSubchartRenders() {
		Map<String, Object> tlsAndRedis = new HashMap<>();
		tlsAndRedis.put("mcp-gateway.tls.enabled", "true");
		tlsAndRedis.put("mcp-gateway.tls.existingSecret", "search-gateway-tls");
		tlsAndRedis.put("mcp-gateway.gateway.session.store", "redis");
		tlsAndRedis.put("mcp-gateway.redis.host", "redis.platform.svc");
		tlsAndRedis.put("mcp-gateway.redis.password", "secret");

		for (Map<String, Object> sets : List.of(Map.<String, Object>of(), tlsAndRedis)) {
			Manifests rendered = RealHelm.template(workload, null, sets);
			JsonNode pod = deploymentPod(rendered);
			Set<String> configMaps = new TreeSet<>();
			Set<String> secrets = new TreeSet<>();
			pod.get("volumes").forEach((volume) -> {
				volume.path("configMap").optional("name").ifPresent((name) -> configMaps.add(name.asString()));
				volume.path("secret").optional("secretName").ifPresent((name) -> secrets.add(name.asString()));
			});
			container(pod, "mcp-gateway").path("env")
				.forEach((env) -> env.at("/valueFrom/secretKeyRef")
					.optional("name")
					.ifPresent((name) -> secrets.add(name.asString())));

			assertThat(configMaps).as(sets.toString())
				.containsExactly("ci-mcp-gateway-config", "ci-mcp-gateway-policy");
			assertThat(rendered.names("ConfigMap")).as(sets.toString()).containsAll(configMaps);
			if (sets.isEmpty()) {
				assertThat(secrets).isEmpty();
			}
			else {
				assertThat(secrets).containsExactly("ci-mcp-gateway-secrets", "search-gateway-tls");
				assertThat(rendered.names("Secret")).as("the keystore Secret is the user's, tls.existingSecret")
					.containsExactly("ci-mcp-gateway-secrets");
				assertThat(mountPaths(container(pod, "mcp-gateway"))).containsEntry("tls", "/etc/mcp-gateway/tls");
			}
		}
	}

	@Test
	void networkPolicyAdmitsTheGatewaysPortsOnlyOnTheWorkloadsPods() {
		Manifests rendered = RealHelm.template(workload, null, Map.of());
		JsonNode policy = rendered.one("NetworkPolicy");
		JsonNode deployment = rendered.one("Deployment");
		JsonNode pod = deploymentPod(rendered);

		Map<String, String> podLabels = strings(deployment.at("/spec/template/metadata/labels"));
		Map<String, String> selector = strings(policy.at("/spec/podSelector/matchLabels"));
		assertThat(selector).isNotEmpty();
		assertThat(podLabels).containsAllEntriesOf(selector);
		assertThat(policy.at("/spec/policyTypes").toString()).isEqualTo("[\"Ingress\"]");
		List<Integer> admitted = new ArrayList<>();
		policy.at("/spec/ingress").forEach((rule) -> rule.get("ports").forEach((port) -> {
			assertThat(port.get("port").isInt()).as("a number: a port name could be the server's too").isTrue();
			admitted.add(port.get("port").asInt());
		}));
		List<Integer> gatewayPorts = new ArrayList<>();
		container(pod, "mcp-gateway").get("ports")
			.forEach((port) -> gatewayPorts.add(port.get("containerPort").asInt()));
		assertThat(admitted).containsExactlyInAnyOrderElementsOf(gatewayPorts)
			.doesNotContain(this.values.at("/server/port").asInt());
		assertThat(RealHelm.template(workload, null, Map.of("mcp-gateway.networkPolicy.sidecar.enabled", "false"))
			.ofKind("NetworkPolicy")).isEmpty();
	}

	@Test
	void serverListensOnLoopbackWhereThePolicySendsTheGatewayAndTheServiceReachesTheGatewayOnly() {
		Manifests rendered = RealHelm.template(workload, null, Map.of());
		JsonNode server = container(deploymentPod(rendered), "search-mcp");
		String port = this.values.at("/server/port").asString();

		Map<String, String> env = new HashMap<>();
		server.get("env")
			.forEach((variable) -> env.put(variable.get("name").asString(), variable.get("value").asString()));
		assertThat(env).containsEntry("HOST", "127.0.0.1").containsEntry("PORT", port);
		assertThat(server.has("ports")).as("nothing outside the pod connects to it").isFalse();
		JsonNode policyMap = rendered.ofKind("ConfigMap")
			.stream()
			.filter((map) -> map.at("/metadata/name").asString().equals("ci-mcp-gateway-policy"))
			.findFirst()
			.orElseThrow();
		JsonNode policy = RealHelm.readYaml(policyMap.at("/data/policy.yaml").asString());
		assertThat(policy.at("/servers/0/upstream").asString()).isEqualTo("http://127.0.0.1:" + port + "/mcp");
		assertThat(rendered.one("Service").at("/spec/ports/0/targetPort").asInt()).isEqualTo(8080);
	}

	@Test
	void gatewayConfigChangeRollsTheWorkloadsPods() {
		String checksum = "/spec/template/metadata/annotations/checksum~1mcp-gateway-config";
		String before = RealHelm.template(workload, null, Map.of()).one("Deployment").at(checksum).asString();
		String after = RealHelm.template(workload, null, Map.of("mcp-gateway.gateway.proxy.idleTimeout", "10m"))
			.one("Deployment")
			.at(checksum)
			.asString();

		assertThat(before).matches("[0-9a-f]{64}");
		assertThat(after).matches("[0-9a-f]{64}").isNotEqualTo(before);
	}

	@Test
	void workloadPassingItsOwnContextOrAStandaloneGatewayIsRefused() throws IOException {
		Path template = workload.resolve("templates/deployment.yaml");
		String original = Files.readString(template);
		assertThatThrownBy(() -> RealHelm.template(workload, null, Map.of("mcp-gateway.mode", "standalone")))
			.hasMessageContaining("set mode: sidecar");
		try {
			Files.writeString(template, original.replace("\"mcp-gateway.sidecarContainer\" $gateway",
					"\"mcp-gateway.sidecarContainer\" ."));

			assertThatThrownBy(() -> RealHelm.template(workload, null, Map.of()))
				.hasMessageContaining("pass the mcp-gateway subchart's context");
		}
		finally {
			Files.writeString(template, original);
		}
	}

	private static JsonNode deploymentPod(Manifests rendered) {
		return rendered.one("Deployment").at("/spec/template/spec");
	}

	private static JsonNode container(JsonNode pod, String name) {
		for (JsonNode container : pod.get("containers")) {
			if (container.get("name").asString().equals(name)) {
				return container;
			}
		}
		throw new AssertionError("no container " + name);
	}

	private static List<String> names(JsonNode list) {
		List<String> names = new ArrayList<>();
		list.forEach((item) -> names.add(item.get("name").asString()));
		return names;
	}

	private static Map<String, String> mountPaths(JsonNode container) {
		Map<String, String> mounts = new HashMap<>();
		container.get("volumeMounts")
			.forEach((mount) -> mounts.put(mount.get("name").asString(), mount.get("mountPath").asString()));
		return mounts;
	}

	private static Map<String, String> strings(JsonNode object) {
		Map<String, String> map = new HashMap<>();
		object.propertyNames().forEach((name) -> map.put(name, object.get(name).asString()));
		return map;
	}

}
