package io.github.mcpgateway.e2e;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every server scenario of the MCP conformance suite ({@code --suite all}: the 2025 and
 * 2026-07-28 scenarios, and the tasks extension's), run against server-everything
 * directly and through the gateway's {@code delegated-header} server in front of it.
 * server-everything does not pass them all (it speaks 2025-11-25 only, and the suite
 * expects its own reference server's fixtures); the gateway must not make any scenario
 * fail that passes directly. Skipped where {@code node} or {@code npm} is missing.
 * <p>
 * Each run's per-scenario {@code checks.json} is written under
 * {@code target/node-interop-logs/conformance-*}.
 */
class ConformanceParityIT {

	/** One line per scenario, e.g. {@code ✓ tools-list: 1 passed, 0 failed}. */
	private static final Pattern SCENARIO = Pattern.compile("^[✓✗] (\\S+): (\\d+) passed, (\\d+) failed$",
			Pattern.MULTILINE);

	private static final Pattern TOTAL = Pattern.compile("^Total: \\d+ passed, \\d+ failed$", Pattern.MULTILINE);

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("conformance");

	private static NodeInterop node;

	private static int everythingPort;

	private static int statelessPort;

	@BeforeAll
	static void start() throws Exception {
		node = NodeInterop.installed();
		everythingPort = node.startServerEverything("conformance-everything").port();
		statelessPort = node.startStatelessServer("conformance-stateless").port();
		gateway.alsoInFrontOfStatelessServer(statelessPort);
		gateway.startInFrontOf(everythingPort);
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@Test
	void everyScenarioThatPassesDirectlyAlsoPassesThroughTheGateway() throws Exception {
		assertParity(conformance("direct", "http://127.0.0.1:" + everythingPort + "/mcp", "--suite", "all"),
				conformance("gateway", gateway.url(GatewayProcess.OPEN), "--suite", "all"));
	}

	/**
	 * The 2026-07-28 requirements (37 scenarios the suite scores for that revision, the
	 * header and MRTR ones among them) against a server that meets them, and every
	 * scenario of the suite (the tasks extension's and the pending header scenarios
	 * included).
	 */
	@Test
	void everyRequirementOf20260728ThatAStatelessServerMeetsIsMetThroughTheGateway() throws Exception {
		String direct = "http://127.0.0.1:" + statelessPort + "/mcp";
		String throughGateway = gateway.url(GatewayProcess.STATELESS_OPEN);
		Run required = conformance("stateless-required-direct", direct, "--requirements", "2026-07-28");
		assertThat(required.passed()).as("2026-07-28 requirements the stateless server meets")
			.contains("server-stateless", "caching", "input-required-result-basic-elicitation");
		assertParity(required,
				conformance("stateless-required-gateway", throughGateway, "--requirements", "2026-07-28"));
		Run all = conformance("stateless-all-direct", direct, "--suite", "all");
		assertThat(all.passed()).contains("http-header-validation", "http-custom-header-server-validation");
		assertParity(all, conformance("stateless-all-gateway", throughGateway, "--suite", "all"));
	}

	private static void assertParity(Run direct, Run throughGateway) {
		System.out.println("conformance (" + direct.scenarios().size() + " scenarios) direct: " + direct.total() + ", "
				+ direct.passed().size() + " scenarios without a failure; through the gateway: "
				+ throughGateway.total() + ", " + throughGateway.passed().size() + " scenarios without a failure");

		assertThat(direct.passed()).as("scenarios passing directly").isNotEmpty();
		assertThat(throughGateway.scenarios.keySet()).as("scenarios run through the gateway")
			.containsExactlyInAnyOrderElementsOf(direct.scenarios.keySet());
		Map<String, String> regressions = new LinkedHashMap<>();
		for (String scenario : direct.passed()) {
			if (!throughGateway.scenarios.get(scenario).isEmpty()) {
				regressions.put(scenario, throughGateway.scenarios.get(scenario));
			}
		}
		assertThat(regressions)
			.as("scenarios that pass directly but fail through the gateway (checks.json under %s)",
					NodeInterop.LOGS.toAbsolutePath())
			.isEmpty();
	}

	private static Run conformance(String name, String url, String... selection) throws Exception {
		List<String> args = new java.util.ArrayList<>(List.of("server", "--url", url));
		args.addAll(List.of(selection));
		args.addAll(List.of("-o", NodeInterop.LOGS.resolve("conformance-" + name).toAbsolutePath().toString()));
		NodeInterop.Finished run = node.runConformance("conformance-" + name, Duration.ofSeconds(180),
				args.toArray(String[]::new));
		// The exit code is 1 whenever any check fails, so the counts are what is
		// compared.
		Matcher total = TOTAL.matcher(run.stdout());
		assertThat(total.find()).as("conformance %s printed no total:\n%s\n%s", name, run.stdout(), run.stderr())
			.isTrue();
		Map<String, String> scenarios = new LinkedHashMap<>();
		Matcher scenario = SCENARIO.matcher(run.stdout());
		while (scenario.find()) {
			scenarios.put(scenario.group(1), scenario.group(3).equals("0") ? "" : scenario.group(0));
		}
		return new Run(total.group().substring("Total: ".length()), scenarios);
	}

	/**
	 * One conformance run: its total, and each scenario with its failure line (empty when
	 * it passed).
	 */
	private record Run(String total, Map<String, String> scenarios) {

		List<String> passed() {
			return this.scenarios.entrySet()
				.stream()
				.filter((e) -> e.getValue().isEmpty())
				.map(Map.Entry::getKey)
				.toList();
		}

	}

}
