package io.github.mcpgateway.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every server scenario of the MCP conformance suite ({@code --suite all}: the 2025 and
 * 2026-07-28 scenarios, and the tasks extension's), run against server-everything
 * directly and through the gateway's {@code delegated-header} server in front of it.
 * server-everything does not pass them all (it speaks 2025-11-25 only, and the suite
 * expects its own reference server's fixtures); the gateway must not make any scenario
 * fail that passes directly. The suite also runs against a virtual server whose only
 * member is server-everything, compared with that member's own path (issue 39). Skipped
 * where {@code node} or {@code npm} is missing.
 * <p>
 * Each run's per-scenario {@code checks.json} is written under
 * {@code target/node-interop-logs/conformance-*}.
 */
class ConformanceParityIT {

	/** One line per scenario, e.g. {@code ✓ tools-list: 1 passed, 0 failed}. */
	private static final Pattern SCENARIO = Pattern.compile("^[✓✗] (\\S+): (\\d+) passed, (\\d+) failed$",
			Pattern.MULTILINE);

	/**
	 * Where a scenario's results went, e.g. the line
	 * {@code Results saved to /x/conformance-solo-virtual/server-tools-list-2026-12-02T07-00-33-918Z}.
	 */
	private static final Pattern RESULTS = Pattern
		.compile("^Results saved to (.*/server-(\\S+)-\\d{4}-\\d\\d-\\d\\dT[\\d-]+Z)$", Pattern.MULTILINE);

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
		gateway.alsoSingleMemberVirtualServer();
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

	/**
	 * Issue 39: the suite against a virtual server whose only member is server-everything
	 * ({@link GatewayProcess#SOLO}), compared with the same suite against that member's
	 * own path ({@link GatewayProcess#SOLO_MEMBER}) with the same principal's token, so
	 * that only the virtual server differs. Each scenario that passes through the member
	 * passes through the virtual server, but those of
	 * {@link VirtualServerConformanceExceptions#EXPECTED}, which must fail (an entry
	 * whose scenario passes again must leave the list).
	 */
	@Test
	void everyScenarioThatPassesThroughAMemberPassesThroughItsVirtualServerButTheNamedExceptions() throws Exception {
		Run member = conformanceWithToken("solo-member", gateway.url(GatewayProcess.SOLO_MEMBER));
		Run virtual = conformanceWithToken("solo-virtual", gateway.url(GatewayProcess.SOLO));
		printTable(member, virtual);

		assertThat(member.passed()).as("scenarios passing through the member")
			.contains("server-initialize", "ping", "tools-list");
		assertThat(virtual.scenarios.keySet()).as("scenarios run through the virtual server")
			.containsExactlyInAnyOrderElementsOf(member.scenarios.keySet());
		Map<String, String> regressions = new LinkedHashMap<>();
		for (String scenario : member.passed()) {
			if (!virtual.scenarios.get(scenario).isEmpty()) {
				regressions.put(scenario, virtual.scenarios.get(scenario));
			}
		}
		Set<String> expected = VirtualServerConformanceExceptions.EXPECTED.keySet();
		assertThat(member.passed()).as("expected exceptions that no longer pass through the member")
			.containsAll(expected);
		Map<String, String> unexpected = new LinkedHashMap<>(regressions);
		unexpected.keySet().removeAll(expected);
		assertThat(unexpected)
			.as("scenarios that pass through the member but fail through the virtual server (checks.json under %s)",
					NodeInterop.LOGS.toAbsolutePath())
			.isEmpty();
		Set<String> passingNow = new LinkedHashSet<>(expected);
		passingNow.removeAll(regressions.keySet());
		assertThat(passingNow)
			.as("expected exceptions that pass through the virtual server now: remove them from "
					+ "VirtualServerConformanceExceptions")
			.isEmpty();
		assertFailedFor(virtual, VirtualServerConformanceExceptions.PREFIXED_NAMES.keySet(),
				GatewayErrors.TOOL_UNKNOWN.message());
		assertFailedFor(virtual, VirtualServerConformanceExceptions.NOT_SERVED_YET.keySet(),
				GatewayErrors.VIRTUAL_METHOD_UNSUPPORTED.message());
	}

	/** Each of {@code scenarios} failed with {@code message} in one of its checks. */
	private static void assertFailedFor(Run run, Set<String> scenarios, String message) {
		for (String scenario : scenarios) {
			assertThat(run.failureMessages(scenario)).as("why %s failed", scenario)
				.anySatisfy((failure) -> assertThat(failure).contains(message));
		}
	}

	private static void printTable(Run member, Run virtual) {
		StringBuilder table = new StringBuilder("conformance, member path | virtual server:\n");
		for (Map.Entry<String, String> scenario : member.scenarios.entrySet()) {
			String through = virtual.scenarios.getOrDefault(scenario.getKey(), "(not run)");
			table.append(String.format("%-48s %-5s | %-5s %s%n", scenario.getKey(),
					scenario.getValue().isEmpty() ? "pass" : "fail", through.isEmpty() ? "pass" : "fail",
					VirtualServerConformanceExceptions.EXPECTED.getOrDefault(scenario.getKey(), "")));
		}
		System.out.println(table);
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
		return run(name, null, url, selection);
	}

	/**
	 * {@code --suite all} against an {@code oauth} path, every request with a bearer
	 * token of one principal (signed anew for each run: a token lives 5 minutes).
	 */
	private static Run conformanceWithToken(String name, String url) throws Exception {
		String token = TestJwts.jwt().human("carla").agent("conformance").sign();
		return run(name, token, url, "--suite", "all");
	}

	private static Run run(String name, @Nullable String token, String url, String... selection) throws Exception {
		List<String> args = new java.util.ArrayList<>(List.of("server", "--url", url));
		args.addAll(List.of(selection));
		args.addAll(List.of("-o", NodeInterop.LOGS.resolve("conformance-" + name).toAbsolutePath().toString()));
		String[] arguments = args.toArray(String[]::new);
		NodeInterop.Finished run = (token != null)
				? node.runConformanceWithToken("conformance-" + name, token, Duration.ofSeconds(180), arguments)
				: node.runConformance("conformance-" + name, Duration.ofSeconds(180), arguments);
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
		Map<String, Path> results = new LinkedHashMap<>();
		Matcher saved = RESULTS.matcher(run.stdout());
		while (saved.find()) {
			results.put(saved.group(2), Path.of(saved.group(1)));
		}
		return new Run(total.group().substring("Total: ".length()), scenarios, results);
	}

	/**
	 * One conformance run: its total, each scenario with its failure line (empty when it
	 * passed), and each scenario's results directory (its {@code checks.json}).
	 */
	private record Run(String total, Map<String, String> scenarios, Map<String, Path> results) {

		/** The {@code errorMessage} of each check of {@code scenario} that failed. */
		List<String> failureMessages(String scenario) {
			Path checks = this.results.get(scenario).resolve("checks.json");
			return JsonMapper.shared()
				.readTree(checks.toFile())
				.valueStream()
				.filter((check) -> "FAILURE".equals(check.path("status").asString()))
				.map((check) -> check.path("errorMessage").asString())
				.toList();
		}

		List<String> passed() {
			return this.scenarios.entrySet()
				.stream()
				.filter((e) -> e.getValue().isEmpty())
				.map(Map.Entry::getKey)
				.toList();
		}

	}

}
