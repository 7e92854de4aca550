package io.github.mcpgateway.policy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

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
	void parseWhenGrantHasExceptionsThenTheyNarrowThatGrantOnly() {
		Policy policy = parse(VALID.replace("tools: [ledger_read, \"ledger_*\"]",
				"tools: [\"*\"]\n        except: [ledger_delete, \"admin_*\"]"));

		Grant grant = policy.serverAt("/mcp/payments/ledger").grants().get(0);
		assertThat(grant.except()).containsExactly("ledger_delete", "admin_*");
		assertThat(grant.allowsTool("ledger_read")).isTrue();
		assertThat(grant.allowsTool("a_tool_added_later")).isTrue();
		assertThat(grant.allowsTool("ledger_delete")).isFalse();
		assertThat(grant.excluding("admin_reset")).isEqualTo("admin_*");
		assertThat(grant.excluding("ledger_read")).isNull();
	}

	@Test
	void parseWhenAnExceptionIsBlankThenNamesLineAndField() {
		assertThatThrownBy(() -> parse(
				VALID.replace("tools: [ledger_read, \"ledger_*\"]", "tools: [\"*\"]\n        except: [\"\"]")))
			.isInstanceOf(PolicyException.class)
			.hasMessageContaining("line 8")
			.hasMessageContaining("except: a tool name or pattern must not be blank");
	}

	@Test
	void parseWhenARequiredFieldIsMisIndentedThenTheMessagePointsAtIt() {
		assertThatThrownBy(() -> parse("""
				servers:
				  - namespace: test
				  name: echo
				    upstream: http://127.0.0.1:1/mcp
				    path: /mcp/test/echo
				""")).isInstanceOf(PolicyException.class)
			.hasMessageContaining("name is required (line 3 has a 'name:' that belongs to something else: "
					+ "check its indentation)");
		assertThatThrownBy(() -> parse(VALID.replace("    name: ledger\n", ""))).isInstanceOf(PolicyException.class)
			.message()
			.doesNotContain("indentation");
	}

	@Test
	void parseWhenADurationIsANumberThenTheMessageSaysWhatADurationIs() {
		assertThatThrownBy(() -> parse("""
				servers:
				  - namespace: payments
				    name: ledger
				    upstream: http://127.0.0.1:1/mcp
				    path: /mcp/payments/ledger
				    grants:
				      - tools: ["*"]
				    limits:
				      - name: calls
				        tokens: 5
				        period: 90
				""")).isInstanceOf(PolicyException.class)
			.hasMessageContaining("line 11 (servers[0].limits[0].period): expected a duration such as 30s, 1m or 1h, "
					+ "found a number");
	}

	@Test
	void parseWhenAnItemHasTheWrongShapeThenTheMessageNamesTheShapeNotAJavaType() {
		assertThatThrownBy(() -> parse("servers:\n  - [a, b]\n")).isInstanceOf(PolicyException.class)
			.hasMessageContaining(
					"(servers[0]): expected an object (namespace, name, uid, upstream, stdio, path, identity, "
							+ "grants, limits, upstream-auth), found a list")
			.message()
			.doesNotContain("io.github")
			.doesNotContain("Cannot deserialize");
		assertThatThrownBy(
				() -> parse(VALID.replace("    grants:\n      - principal: { team: payments, agent: \"billing-*\" }\n"
						+ "        tools: [ledger_read, \"ledger_*\"]", "    grants: {}")))
			.hasMessageContaining("grants): expected a list, found an object");
	}

	@Test
	void parseWhenADelegatedHeaderServersConditionReadsThePrincipalThenRefused() {
		String server = """
				servers:
				  - namespace: partners
				    name: crm
				    upstream: https://crm.example/mcp
				    path: /mcp/partners/crm
				    identity: delegated-header
				    grants:
				      - tools: [crm_lookup]
				        when: '!has(principal.agent)'
				""";

		assertThatThrownBy(() -> parse(server)).isInstanceOf(PolicyException.class)
			.hasMessageContaining("(servers[0])")
			.hasMessageContaining("grants[0].when: a delegated-header server has no verified principal");
		assertThat(parse(server.replace("'!has(principal.agent)'", "'arguments.id.startsWith(\"C-\")'")).servers())
			.hasSize(1);
	}

	@Test
	void parseWhenTwoGrantsOfAServerShareANameThenRefused() {
		assertThatThrownBy(() -> parse("""
				servers:
				  - namespace: a
				    name: b
				    upstream: https://b.example/mcp
				    path: /mcp/a/b
				    grants:
				      - { name: writes, tools: [w] }
				      - { name: writes, tools: [x] }
				""")).isInstanceOf(PolicyException.class).hasMessageContaining("the name writes is used twice");
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

	@Test
	void parseWhenUpstreamAuthOmittedThenNone() {
		assertThat(parse(VALID).serverAt("/mcp/payments/ledger").upstreamAuth()).isEqualTo(UpstreamAuth.NONE);
	}

	@Test
	void parseWhenUpstreamAuthValidThenEveryField() {
		McpServerPolicy ledger = parse(withUpstreamAuth(
				"{ mode: token-exchange, client: exchange, actor-client: self, audience: ledger-api, resource: \"https://ledger.example/mcp\", scope: \"ledger.read ledger.write\", principal-headers: true }"))
			.serverAt("/mcp/payments/ledger");

		assertThat(ledger.upstreamAuth()).isEqualTo(new UpstreamAuth(UpstreamAuth.Mode.TOKEN_EXCHANGE, "exchange",
				"self", "ledger-api", "https://ledger.example/mcp", "ledger.read ledger.write", true));
	}

	@Test
	void parseWhenUpstreamAuthInvalidThenNamesLineFieldAndRule() {
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: token-exchange, audience: ledger-api }"))).hasMessage(
				"policy.yaml line 7 (servers[0].upstream-auth): upstream-auth.client names no client registration");
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: token-exchange, client: exchange }")))
			.hasMessageContaining("(servers[0].upstream-auth): token-exchange needs an audience or a resource");
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: none, client: exchange }")))
			.hasMessageContaining("upstream-auth fields need mode token-exchange or client-credentials");
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: client-credentials, client: c, actor-client: a }")))
			.hasMessageContaining("actor-client applies to token-exchange only");
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: client-credentials, client: c, resource: ledger }")))
			.hasMessageContaining("resource must be an absolute URI without a fragment (RFC 8707)");
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: passthrough, client: c }")))
			.hasMessageStartingWith("policy.yaml line 7 (servers[0].upstream-auth.mode)");
		assertThatThrownBy(() -> parse(withUpstreamAuth("{ mode: client-credentials, client: c, secret: s }")))
			.hasMessageStartingWith("policy.yaml line 7 (servers[0].upstream-auth.secret)");
	}

	@Test
	void parseWhenUpstreamAuthCannotServeTheIdentityModeThenRefused() {
		String delegated = VALID + """
				    upstream-auth: { mode: client-credentials, client: c }
				""";
		assertThatThrownBy(() -> parse(delegated)).hasMessageContaining(
				"upstream-auth needs a verified caller; a delegated-header server forwards the caller's own credentials");
		String certificate = withUpstreamAuth("{ mode: token-exchange, client: c, audience: a }").replace(
				"    path: /mcp/payments/ledger\n",
				"    path: /mcp/payments/ledger\n    identity: adapter-certificate\n");
		assertThatThrownBy(() -> parse(certificate)).hasMessageContaining(
				"token-exchange needs the caller's access token; adapter-certificate callers have none (use client-credentials)");
		String certificateWithClientCredentials = withUpstreamAuth("{ mode: client-credentials, client: c }").replace(
				"    path: /mcp/payments/ledger\n",
				"    path: /mcp/payments/ledger\n    identity: adapter-certificate\n");
		assertThat(parse(certificateWithClientCredentials).serverAt("/mcp/payments/ledger").upstreamAuth().mode())
			.isEqualTo(UpstreamAuth.Mode.CLIENT_CREDENTIALS);
	}

	@Test
	void parseWhenAServerCheckFailsThenNamesLineAndFieldOfTheViolation() {
		PolicyParser checked = new PolicyParser(List
			.of((server) -> server.upstreamAuth().client() == null ? Optional.empty()
					: Optional.of(new ServerPolicyCheck.Violation("upstream-auth.client", "no client registration"))));
		String yaml = VALID.replace("    path: /mcp/payments/ledger\n",
				"    path: /mcp/payments/ledger\n    upstream-auth:\n      mode: client-credentials\n      client: nope\n");

		assertThatThrownBy(() -> checked.parse(yaml.getBytes(StandardCharsets.UTF_8), "policy.yaml", Instant.EPOCH))
			.isInstanceOf(PolicyException.class)
			.hasMessage("policy.yaml line 9 (servers[0].upstream-auth.client): no client registration");
		assertThat(checked.parse(VALID.getBytes(StandardCharsets.UTF_8), "policy.yaml", Instant.EPOCH).servers())
			.hasSize(2);
	}

	private static String withUpstreamAuth(String inline) {
		return VALID.replace("    path: /mcp/payments/ledger\n",
				"    path: /mcp/payments/ledger\n    upstream-auth: " + inline + "\n");
	}

	private Policy parse(String yaml) {
		return this.parser.parse(yaml.getBytes(StandardCharsets.UTF_8), "policy.yaml", Instant.EPOCH);
	}

}
