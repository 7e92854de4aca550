package io.github.mcpgateway.validate;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.PolicyParser;
import io.github.mcpgateway.policy.PolicyProperties;
import io.github.mcpgateway.policy.PolicyReloader;
import io.github.mcpgateway.revocation.RevocationProperties;
import io.github.mcpgateway.revocation.RevocationSync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * {@code validate}: exit 0 on the documented examples, 1 with the running gateway's own
 * message for each kind of broken file, 2 for a usage error, and no listener opened.
 */
class ValidateCommandTest {

	private static final Path EXAMPLES = Path.of("docs/examples");

	private static final String GOOD_POLICY = """
			servers:
			  - namespace: test
			    name: echo
			    uid: uid-echo
			    upstream: http://127.0.0.1:1/mcp
			    path: /mcp/test/echo
			    grants:
			      - tools: [echo]
			""";

	/** The start of a configuration with the identity the gateway requires. */
	private static final String IDENTITY = """
			gateway:
			  identity:
			    oauth: { issuer: https://idp.example, jwk-set-uri: https://idp.example/jwks, audiences: [https://mcp.example] }
			""";

	@TempDir
	Path dir;

	@Test
	void documentedExamplesAreValid() {
		Result result = validate("--policy", EXAMPLES.resolve("policy.yaml").toString(), "--revocations",
				EXAMPLES.resolve("revocations.json").toString(), "--config",
				EXAMPLES.resolve("application.yaml").toString());

		assertThat(result.status()).as(result.err()).isZero();
		assertThat(result.err()).isEmpty();
		assertThat(result.out()).contains("ok     config docs/examples/application.yaml")
			.contains("ok     policy docs/examples/policy.yaml: version ")
			.contains(", 3 server(s)")
			.contains("ok     revocations docs/examples/revocations.json");
	}

	@Test
	void documentedSamplesAreDecidedWithWhatEachConditionGave() {
		Result result = validate("--policy", EXAMPLES.resolve("policy.yaml").toString(), "--config",
				EXAMPLES.resolve("application.yaml").toString(), "--samples",
				EXAMPLES.resolve("samples.yaml").toString());

		assertThat(result.status()).as(result.err()).isZero();
		assertThat(result.out())
			.contains("sample 1 (a small payment in euros): allowed by ledger-eur " + "(conditions: ledger-eur=true)")
			.contains("sample 2 (a payment of 1000 euros): refused tool_arguments_denied by ledger-eur "
					+ "(conditions: ledger-eur=false)")
			.contains("sample 3 (an amount sent as a string): refused tool_arguments_denied by ledger-eur "
					+ "(conditions: ledger-eur=wrong_type)")
			.contains("sample 4 (carol may write anything): allowed by grants[2]");
	}

	@Test
	void aSampleWhoseExpectationIsNotMetOrAMalformedSamplesFileFails() throws IOException {
		Path policy = write("policy.yaml", GOOD_POLICY.replace("      - tools: [echo]\n", """
				      - name: short-echo
				        tools: [echo]
				        when: size(arguments.text) <= 5
				"""));
		Path samples = write("samples.yaml", """
				samples:
				  - server: test/echo
				    principal: { human: alice }
				    tool: echo
				    arguments: { text: "a long text" }
				    expect: allow
				  - server: /mcp/test/echo
				    principal: { human: alice }
				    tool: echo
				    arguments: { text: "hi" }
				""");

		Result result = validate("--policy", policy.toString(), "--samples", samples.toString());
		Result malformed = validate("--policy", policy.toString(), "--samples",
				write("bad.yaml", "samples:\n  - server: test/echo\n    principl: {}\n").toString());
		Result withoutPolicy = validate("--samples", samples.toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("sample 1: refused tool_arguments_denied by short-echo "
				+ "(conditions: short-echo=false); expected allow");
		assertThat(result.out()).contains("sample 2: allowed by short-echo (conditions: short-echo=true)");
		assertThat(malformed.status()).isEqualTo(1);
		assertThat(malformed.err()).contains("line 3").contains("principl");
		assertThat(withoutPolicy.status()).isEqualTo(2);
	}

	@Test
	void aConditionThatDeniesByComparingAValueOfTheCallIsNamedAndASampleOfAnotherTypeIsRefused() throws IOException {
		Path policy = write("policy.yaml", GOOD_POLICY.replace("      - tools: [echo]\n", """
				      - name: never-force
				        tools: [echo]
				        when: 'arguments.force != true'
				      - name: plain
				        tools: [other]
				        when: 'arguments.force == false'
				"""));
		Path samples = write("samples.yaml", """
				samples:
				  - server: test/echo
				    principal: { human: alice }
				    tool: echo
				    arguments: { force: "true" }
				    expect: tool_arguments_denied
				  - server: test/echo
				    principal: { human: alice }
				    tool: echo
				    arguments: { force: false }
				    expect: allow
				""");

		Result result = validate("--policy", policy.toString(), "--samples", samples.toString());

		assertThat(result.status()).as(result.err()).isZero();
		assertThat(result.out()).contains("note   policy " + policy + ": server test/echo, grant never-force: "
				+ "'arguments.force != true' compares a value of the call with != or under !; a value of another type")
			.doesNotContain("grant plain")
			.contains("sample 1: refused tool_arguments_denied by never-force (conditions: never-force=wrong_type)")
			.contains("sample 2: allowed by never-force (conditions: never-force=true)");
	}

	@Test
	void aConditionThatDoesNotCompileOrTypeCheckIsAnInvalidPolicyWithItsLine() throws IOException {
		String[][] broken = { { "arguments.amount <", "does not compile" },
				{ "argumnts.amount < 1000", "undeclared reference to 'argumnts'" },
				{ "tool < 3", "no matching overload" } };
		for (String[] condition : broken) {
			Path policy = write("policy.yaml", GOOD_POLICY + "        when: '" + condition[0] + "'\n");

			Result result = validate("--policy", policy.toString());

			assertThat(result.status()).isEqualTo(1);
			assertThat(result.err()).contains("line 9 (servers[0].grants[0].when)").contains(condition[1]);
		}
	}

	@Test
	void virtualServersAreSummedUpWithTheirPrefixesAndTheirErrorsNameFileLineAndField() throws IOException {
		String virtual = """
				virtual-servers:
				  - namespace: test
				    name: workspace
				    uid: uid-workspace
				    path: /mcp/test/workspace
				    members:
				      - server: test/echo
				        prefix: echo
				""";
		Path good = write("policy.yaml", GOOD_POLICY + virtual);

		Result valid = validate("--policy", good.toString());

		assertThat(valid.status()).as(valid.err()).isZero();
		assertThat(valid.out()).contains(", 1 server(s), 1 virtual server(s): test/workspace [echo=test/echo]\n");
		Path broken = write("broken.yaml", GOOD_POLICY + virtual.replace("server: test/echo", "server: test/none"));

		Result invalid = validate("--policy", broken.toString());

		assertThat(invalid.status()).isEqualTo(1);
		assertThat(invalid.err())
			.isEqualTo("error  policy file [" + broken + "] line 15 (virtual-servers[0].members[0].server):"
					+ " test/none is not a server of this file (members name servers as namespace/name)\n");
	}

	@Test
	void packagedDemoPolicyAndTheFullExampleOfTheReferenceAreValid() throws IOException {
		String reference = Files.readString(Path.of("docs/configuration.md"));
		int heading = reference.indexOf("### Full example");
		int start = reference.indexOf("```yaml\n", heading) + "```yaml\n".length();
		Path fullExample = write("full-example.yaml", reference.substring(start, reference.indexOf("```", start)));

		assertThat(validate("--policy", "classpath:demo/policy.yaml").status()).isZero();
		Result result = validate("--policy", fullExample.toString());
		assertThat(result.status()).as(result.err()).isZero();
		assertThat(result.out()).contains(", 3 server(s)");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', quoteCharacter = '"', value = { "not YAML|servers: [ {namespace: a",
			"no servers list|server: []",
			"unknown field|"
					+ "\"servers:\n  - namespace: a\n    name: b\n    upstream: http://x/mcp\n    path: /mcp/a/b\n    grant: []\n\"",
			"duplicate path|"
					+ "\"servers:\n  - {namespace: a, name: b, upstream: 'http://x/mcp', path: /mcp/a/b}\n  - {namespace: a, name: c, upstream: 'http://x/mcp', path: /mcp/a/b}\n\"",
			"upstream with a query|"
					+ "\"servers:\n  - {namespace: a, name: b, upstream: 'http://x/mcp?q=1', path: /mcp/a/b}\n\"",
			"blank tool|"
					+ "\"servers:\n  - namespace: a\n    name: b\n    upstream: http://x/mcp\n    path: /mcp/a/b\n    grants: [{tools: [' ']}]\n\"",
			"token exchange without audience|"
					+ "\"servers:\n  - namespace: a\n    name: b\n    upstream: http://x/mcp\n    path: /mcp/a/b\n    upstream-auth: {mode: token-exchange, client: c}\n\"" })
	void brokenPolicyFailsWithTheReloadsMessage(String kind, String content) throws IOException {
		Path policy = write("policy.yaml", content);

		Result result = validate("--policy", policy.toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).isEqualTo("error  policy " + reloadMessage(policy, content) + "\n");
	}

	@Test
	void policyNamingAnUnknownOrMismatchedClientRegistrationFailsWithFileLineAndField() throws IOException {
		Path config = write("application.yaml",
				"""
						spring:
						  security:
						    oauth2:
						      client:
						        registration:
						          reports:
						            client-id: gw
						            client-secret: s
						            authorization-grant-type: client_credentials
						            provider: idp
						        provider:
						          idp:
						            token-uri: https://idp.example/token
						gateway:
						  identity:
						    oauth: { issuer: https://idp.example, jwk-set-uri: https://idp.example/jwks, audiences: [https://mcp.example] }
						""");
		Path unknown = write("unknown.yaml",
				GOOD_POLICY + "    upstream-auth: {mode: client-credentials, client: nope}\n");
		Path mismatched = write("mismatched.yaml",
				GOOD_POLICY + "    upstream-auth: {mode: token-exchange, client: reports, audience: api}\n");
		Path fits = write("fits.yaml",
				GOOD_POLICY + "    upstream-auth: {mode: client-credentials, client: reports}\n");

		Result unknownResult = validate("--policy", unknown.toString(), "--config", config.toString());
		assertThat(unknownResult.status()).isEqualTo(1);
		assertThat(unknownResult.err()).contains("error  policy file [" + unknown.toAbsolutePath() + "] line 9 "
				+ "(servers[0].upstream-auth.client): no client registration 'nope' "
				+ "(spring.security.oauth2.client.registration.nope.*)");
		assertThat(validate("--policy", mismatched.toString(), "--config", config.toString()).err())
			.contains("(servers[0].upstream-auth.client): client registration 'reports' must have "
					+ "authorization-grant-type urn:ietf:params:oauth:grant-type:token-exchange, not client_credentials");
		Result fitsResult = validate("--policy", fits.toString(), "--config", config.toString());
		assertThat(fitsResult.status()).as(fitsResult.err()).isZero();
		assertThat(validate("--policy", fits.toString()).err())
			.as("without --config only the packaged registrations (none) are known")
			.contains("no client registration 'reports'");
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|', value = { "no tokens|tokens: 0|limits[0]): tokens must be at least 1",
			"period not a duration|period: often|limits[0].period): period \"often\" is not a duration",
			"period too long|period: 2d|limits[0]): period must be between 1s and 1d",
			"tools on a requests limit|counts: requests, tools: [echo]|limits[0]): tools: only a tool-calls limit names tools",
			"unknown field|rate: 5|limits[0].rate): Unrecognized property \"rate\"" })
	void malformedLimitFailsWithFileLineAndField(String kind, String change, String message) throws IOException {
		String limit = "{name: calls, tokens: 5, period: 1m, " + change + "}";
		if (change.startsWith("tokens:") || change.startsWith("period:")) {
			limit = "{name: calls, " + (change.startsWith("tokens:") ? "period: 1m" : "tokens: 5") + ", " + change
					+ "}";
		}
		Path policy = write("limits.yaml", GOOD_POLICY + "    limits:\n      - " + limit + "\n");

		Result result = validate("--policy", policy.toString());

		assertThat(result.status()).as(kind).isEqualTo(1);
		assertThat(result.err())
			.contains("policy file [" + policy.toAbsolutePath() + "] line 10 (servers[0]." + message);
	}

	@ParameterizedTest(name = "{0}")
	@CsvSource(delimiter = '|',
			value = { "not JSON|{\"sessions\": [", "unknown member|{\"session\": []}",
					"empty principal entry|{\"principals\": [{}]}", "trailing document|{} {}", "null document|null",
					"wrong type|{\"sessions\": \"s-1\"}" })
	void brokenRevocationDocumentFailsWithTheSyncsMessage(String kind, String content) throws IOException {
		Path document = write("revocations.json", content);

		Result result = validate("--revocations", document.toString());

		assertThat(result.status()).isEqualTo(1);
		RevocationSync sync = new RevocationSync(
				new RevocationProperties(document.toString(), Duration.ofSeconds(1), Duration.ofSeconds(1), Map.of()),
				Clock.systemUTC(), new SimpleMeterRegistry());
		assertThat(sync.lastError()).isNotNull();
		assertThat(result.err()).isEqualTo("error  revocations " + document + ": " + sync.lastError() + "\n");
	}

	@Test
	void unknownGatewayPropertyIsNamedWithItsFileAndLine() throws IOException {
		Path config = write("application.yaml", """
				gateway:
				  policy:
				    location: %s
				  proxy:
				    idle-timout: 10s
				""".formatted(write("policy.yaml", GOOD_POLICY)));

		Result result = validate("--config", config.toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("gateway.proxy.idle-timout: not a property the gateway knows")
			.contains(config.getFileName().toString())
			.contains("5:");
	}

	@Test
	void valueThatDoesNotConvertIsNamed() throws IOException {
		Path config = write("application.yaml", IDENTITY + """
				  proxy:
				    idle-timeout: forever
				""");

		Result result = validate("--config", config.toString(), "--policy", write("p.yaml", GOOD_POLICY).toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("gateway.proxy.idle-timeout").contains("forever");
	}

	@Test
	void misspeltKeyOutsideTheGatewaysIsNamedWithItsLineAndTheNearestKnownKey() throws IOException {
		Path config = write("application.yaml", IDENTITY + """
				managment:
				  server:
				    port: 9090
				""");

		Result result = validate("--config", config.toString(), "--policy", write("p.yaml", GOOD_POLICY).toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("managment.server.port: not a property")
			.contains(config.getFileName() + "] - 6:")
			.contains("nearest: management.server.port");
	}

	@Test
	void keyTheMetadataMarksRemovedIsAnErrorNamingItsReplacement() throws IOException {
		Path config = write("application.yaml", IDENTITY + """
				server:
				  servlet:
				    encoding:
				      enabled: false
				""");

		Result result = validate("--config", config.toString(), "--policy", write("p.yaml", GOOD_POLICY).toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("server.servlet.encoding.enabled: no longer a property")
			.contains("use spring.servlet.encoding.enabled");
	}

	@Test
	void keysUnderMapsAndListsAndTheDocumentedExceptionsAreKnown() throws IOException {
		Path config = write("application.yaml", IDENTITY + """
				logging:
				  level:
				    mcp.audit: INFO
				spring:
				  security:
				    oauth2:
				      client:
				        registration:
				          anything:
				            client-id: x
				management:
				  endpoint:
				    explain:
				      access: read-only
				  endpoints:
				    web:
				      exposure:
				        include: [health, prometheus]
				info:
				  team: platform
				""");

		Result result = validate("--config", config.toString(), "--policy", write("p.yaml", GOOD_POLICY).toString());

		assertThat(result.err()).doesNotContain("not a property");
	}

	@Test
	void taskPropertiesAreCheckedAsAtStartUp() throws IOException {
		String policy = write("p.yaml", GOOD_POLICY).toString();
		Path zero = write("zero.yaml", IDENTITY + """
				  task:
				    max-ttl: 0s
				""");
		Path typo = write("typo.yaml", IDENTITY + """
				  task:
				    max-bindngs: 5
				""");

		Result zeroResult = validate("--config", zero.toString(), "--policy", policy);
		Result typoResult = validate("--config", typo.toString(), "--policy", policy);

		assertThat(zeroResult.status()).isEqualTo(1);
		assertThat(zeroResult.err()).contains("gateway.task.max-ttl must be positive");
		assertThat(typoResult.status()).isEqualTo(1);
		assertThat(typoResult.err()).contains("gateway.task.max-bindngs: not a property the gateway knows");
	}

	@Test
	void configurationWithoutAPolicyLocationIsRefusedAsAtStartUp() throws IOException {
		Path config = write("application.yaml", IDENTITY);

		Result result = validate("--config", config.toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("gateway.policy.location");
	}

	@Test
	void configurationNamingAPolicyChecksThatPolicy() throws IOException {
		Path policy = write("policy.yaml", "servers: [ {namespace: a");
		Path config = write("application.yaml", IDENTITY + """
				  policy:
				    location: %s
				""".formatted(policy));

		Result result = validate("--config", config.toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.out()).contains("ok     config");
		assertThat(result.err()).startsWith("error  policy file [" + policy.toAbsolutePath() + "]");
	}

	@Test
	void missingFilesAreErrors() {
		Result result = validate("--policy", this.dir.resolve("none.yaml").toString(), "--revocations",
				this.dir.resolve("none.json").toString(), "--config", this.dir.resolve("none-app.yaml").toString());

		assertThat(result.status()).isEqualTo(1);
		assertThat(result.err()).contains("error  config ")
			.contains("cannot be read")
			.contains("error  policy ")
			.contains("error  revocations ");
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "--policy", "--polcy x.yaml", "x.yaml", "--policy a --policy b" })
	void usageErrorsExitTwo(String arguments) {
		Result result = validate(arguments.isEmpty() ? new String[0] : arguments.split(" "));

		assertThat(result.status()).isEqualTo(2);
		assertThat(result.err()).startsWith("usage: java -jar mcp-gateway.jar validate");
	}

	@Test
	void opensNoListenerAndStartsNoWebServer() throws IOException {
		Path policy = write("policy.yaml", GOOD_POLICY);
		Path config = write("application.yaml",
				"""
						server:
						  port: 0
						management:
						  server:
						    port: 0
						gateway:
						  identity:
						    oauth: { issuer: https://idp.example, jwk-set-uri: https://idp.example/jwks, audiences: [https://mcp.example] }
						  policy:
						    location: %s
						"""
					.formatted(policy));
		Set<Long> before = listeningSockets();
		AtomicReference<Set<Long>> during = new AtomicReference<>();
		AtomicReference<Object> context = new AtomicReference<>();

		int status = ValidateCommand.run(new String[] { "--config", config.toString() }, quiet(), quiet(), (open) -> {
			during.set(listeningSockets());
			context.set(open);
		});

		assertThat(status).isZero();
		assertThat(context.get()).isNotInstanceOf(WebServerApplicationContext.class);
		assertThat(during.get()).as("listening sockets of this process while validate ran").isEqualTo(before);
	}

	@Test
	void failureAfterTheContextStartedIsNotReportedAsAnInvalidConfiguration() throws IOException {
		Path config = write("application.yaml", IDENTITY + """
				  policy:
				    location: %s
				""".formatted(write("policy.yaml", GOOD_POLICY)));
		ByteArrayOutputStream err = new ByteArrayOutputStream();

		assertThatIllegalStateException()
			.isThrownBy(() -> ValidateCommand.run(new String[] { "--config", config.toString() }, quiet(),
					new PrintStream(err, true, StandardCharsets.UTF_8), (open) -> {
						throw new IllegalStateException("inspector failed");
					}))
			.withMessage("inspector failed");
		assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("error  config");
	}

	private String reloadMessage(Path policy, String broken) throws IOException {
		Files.writeString(policy, GOOD_POLICY);
		LivePolicy live = new LivePolicy();
		PolicyReloader reloader = new PolicyReloader(
				new PolicyProperties(policy.toString(), Duration.ofSeconds(5), DataSize.ofMegabytes(8)),
				new PolicyParser(List.of()), live, io.github.mcpgateway.clock.GatewayClock.system(),
				new SimpleMeterRegistry());
		Files.writeString(policy, broken);
		reloader.reloadNow();
		assertThat(live.lastReload().succeeded()).isFalse();
		return live.lastReload().error();
	}

	/** Inodes of the TCP sockets this process listens on (Linux /proc). */
	private static Set<Long> listeningSockets() {
		try {
			return listeningSocketsOrFail();
		}
		catch (IOException ex) {
			throw new java.io.UncheckedIOException(ex);
		}
	}

	private static Set<Long> listeningSocketsOrFail() throws IOException {
		Set<Long> own = new HashSet<>();
		try (var fds = Files.list(Path.of("/proc/self/fd"))) {
			for (Path fd : (Iterable<Path>) fds::iterator) {
				try {
					String target = Files.readSymbolicLink(fd).toString();
					if (target.startsWith("socket:[")) {
						own.add(Long.parseLong(target.substring(8, target.length() - 1)));
					}
				}
				catch (IOException ex) {
					// closed meanwhile
				}
			}
		}
		Set<Long> listening = new HashSet<>();
		for (String table : new String[] { "/proc/net/tcp", "/proc/net/tcp6" }) {
			List<String> lines = Files.readAllLines(Path.of(table));
			for (String line : lines.subList(1, lines.size())) {
				String[] fields = line.trim().split("\\s+");
				if ("0A".equals(fields[3]) && own.contains(Long.parseLong(fields[9]))) {
					listening.add(Long.parseLong(fields[9]));
				}
			}
		}
		return listening;
	}

	private Path write(String name, String content) throws IOException {
		return Files.writeString(this.dir.resolve(name), content);
	}

	private static PrintStream quiet() {
		return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
	}

	private static Result validate(String... args) {
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ValidateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
				new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	private record Result(int status, String out, String err) {
	}

}
