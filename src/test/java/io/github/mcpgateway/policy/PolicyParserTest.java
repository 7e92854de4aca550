package io.github.mcpgateway.policy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PolicyParserTest {

	private static final String VALID = """
			servers:
			  - namespace: payments
			    name: ledger
			    uid: 1234
			    upstream: https://ledger.internal:8443/mcp
			    path: /mcp/payments/ledger
			    grants:
			      - principal: { team: payments, agent: "billing-*" }
			        tools: [ledger_read, "ledger_*"]
			  - namespace: tools
			    name: search
			    upstream: http://search/mcp
			    path: /mcp/tools/search
			    identity: delegated-header
			""";

	private final PolicyParser parser = new PolicyParser();

	@Test
	void parseWhenValidThenServersByPathWithDefaults() {
		Policy policy = parse(VALID);

		assertThat(policy.serversByPath()).containsOnlyKeys("/mcp/payments/ledger", "/mcp/tools/search");
		McpServerPolicy ledger = policy.serverAt("/mcp/payments/ledger");
		assertThat(ledger.uid()).isEqualTo("1234");
		assertThat(ledger.identity()).isEqualTo(IdentityMode.OAUTH);
		assertThat(ledger.grants()).singleElement()
			.satisfies((grant) -> assertThat(grant.principal())
				.isEqualTo(new PrincipalPattern("*", "billing-*", "payments")));
		McpServerPolicy search = policy.serverAt("/mcp/tools/search");
		assertThat(search.uid()).isNull();
		assertThat(search.identity()).isEqualTo(IdentityMode.DELEGATED_HEADER);
		assertThat(search.grants()).isEmpty();
		assertThat(policy.version()).hasSize(12);
	}

	@Test
	void parseWhenUnknownKeyThenNamesLineAndField() {
		assertThatThrownBy(() -> parse(VALID.replace("    uid: 1234", "    uuid: 1234")))
			.isInstanceOf(PolicyException.class)
			.hasMessageStartingWith("policy.yaml line 4 (servers[0].uuid)");
	}

	@Test
	void parseWhenFieldInvalidThenNamesLineFieldAndRule() {
		assertThatThrownBy(() -> parse(VALID.replace("path: /mcp/payments/ledger", "path: mcp/ledger")))
			.isInstanceOf(PolicyException.class)
			.hasMessage("policy.yaml line 2 (servers[0]): path must start with '/' and must not end with '/'");
	}

	@Test
	void parseWhenRequiredFieldMissingThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("    name: ledger\n", "")))
			.hasMessage("policy.yaml line 2 (servers[0]): name is required");
	}

	@Test
	void parseWhenIdentityModeUnknownThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("identity: delegated-header", "identity: basic")))
			.isInstanceOf(PolicyException.class)
			.hasMessageContaining("line 14 (servers[1].identity): invalid value \"basic\"");
	}

	@Test
	void parseWhenGrantHasNoToolsThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("tools: [ledger_read, \"ledger_*\"]", "tools: []")))
			.hasMessageContaining("a grant must list at least one tool");
	}

	@Test
	void parseWhenPathUsedTwiceThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("path: /mcp/tools/search", "path: /mcp/payments/ledger")))
			.hasMessage("policy.yaml (servers[1]): path /mcp/payments/ledger is used by another server");
	}

	@Test
	void parseWhenPathReservedOrNotNormalisedThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("path: /mcp/tools/search", "path: /actuator/x")))
			.hasMessageContaining("path must not be under /actuator");
		assertThatThrownBy(() -> parse(VALID.replace("path: /mcp/tools/search", "path: /mcp/../x")))
			.hasMessageContaining("plain, normalised URL path");
	}

	@Test
	void parseWhenKeyRepeatedThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("principal: { team: payments, agent: \"billing-*\" }",
				"principal: { team: payments, team: red }")))
			.isInstanceOf(PolicyException.class)
			.hasMessageContaining("Duplicate");
	}

	@Test
	void parseWhenPathHasDotOrEmptySegmentThenRefused() {
		for (String path : new String[] { "/mcp/.", "/mcp/./x", "/mcp//x", "/..", "/mcp/.." }) {
			assertThatThrownBy(() -> parse(VALID.replace("path: /mcp/tools/search", "path: " + path))).as(path)
				.hasMessageContaining("plain, normalised URL path");
		}
	}

	@Test
	void parseWhenUpstreamNotHttpThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("upstream: http://search/mcp", "upstream: ftp://search/mcp")))
			.hasMessageContaining("upstream must be an absolute http or https URL");
	}

	@Test
	void parseWhenNotYamlOrNoServersThenRefused() {
		assertThatThrownBy(() -> parse("servers: [ {")).isInstanceOf(PolicyException.class)
			.hasMessageStartingWith("policy.yaml line");
		assertThatThrownBy(() -> parse("other: 1")).isInstanceOf(PolicyException.class);
		assertThatThrownBy(() -> parse("")).hasMessage("policy.yaml: the file must have a 'servers' list");
	}

	@Test
	void grantsDecideServerUseAndToolCalls() {
		McpServerPolicy ledger = parse(VALID).serverAt("/mcp/payments/ledger");
		GrantEvaluator grants = new GrantEvaluator();
		McpPrincipal billing = new McpPrincipal("alice", "billing-bot", "payments");
		McpPrincipal noAgent = new McpPrincipal("alice", null, "payments");
		McpPrincipal otherTeam = new McpPrincipal("alice", "billing-bot", "sales");

		assertThat(grants.mayUseServer(ledger, billing)).isTrue();
		assertThat(grants.mayCallTool(ledger, billing, "ledger_write")).isTrue();
		assertThat(grants.mayCallTool(ledger, billing, "admin")).isFalse();
		assertThat(grants.mayUseServer(ledger, noAgent)).as("a pattern other than * needs the part").isFalse();
		assertThat(grants.mayUseServer(ledger, otherTeam)).isFalse();
		assertThat(grants.mayCallTool(ledger, null, "ledger_read")).as("no verified principal: grants apply").isTrue();
	}

	private Policy parse(String yaml) {
		return this.parser.parse(yaml.getBytes(StandardCharsets.UTF_8), "policy.yaml", Instant.EPOCH);
	}

}
