package io.github.mcpgateway.explain;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.condition.ConditionLanguage;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.principal.PrincipalPattern;
import io.github.mcpgateway.quota.QuotaInspector;
import io.github.mcpgateway.quota.VirtualQuota;
import io.github.mcpgateway.revocation.RevocationProperties;
import io.github.mcpgateway.revocation.RevocationSync;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

/**
 * A virtual server over {@code demo/notes} (prefix {@code notes}, tools {@code echo},
 * {@code write}, {@code delete} and {@code list_*}; its grants let team blue call
 * anything but {@code write} and {@code delete}, and {@code write} only with a short
 * text) and {@code demo/json} (prefix {@code json}; its grant lets anyone call anything),
 * whose own grant excepts {@code json_delete}.
 */
class VirtualServerExplainerTest {

	private static final McpPrincipal DANA = new McpPrincipal("dana", null, "blue");

	private static final McpPrincipal MALLORY = new McpPrincipal("mallory", null, "red");

	private final McpServerPolicy notes = server("notes",
			new Grant(new PrincipalPattern(null, null, "blue"), List.of("*"), List.of("write", "delete"), null, null,
					null, null),
			new Grant(new PrincipalPattern(null, null, "blue"), List.of("write"), null, null, null, "short-write",
					ConditionLanguage.compile("size(arguments.text) <= 5")));

	private final McpServerPolicy json = server("json", new Grant(null, List.of("*")));

	private final JsonMapper jsonMapper = JsonMapper.builder().build();

	private final DecisionExplainer members = new DecisionExplainer(new LivePolicy(), new GrantEvaluator(),
			new RevocationSync(new RevocationProperties(null, Duration.ofMillis(500), Duration.ofSeconds(2), Map.of()),
					Clock.systemUTC(), new SimpleMeterRegistry()),
			new GatewayErrorRenderer(this.jsonMapper), mock(QuotaInspector.class));

	private final QuotaInspector quotas = mock(QuotaInspector.class);

	private final VirtualServerExplainer explainer = new VirtualServerExplainer(new LivePolicy(), this.members,
			new GrantEvaluator(), new GatewayErrorRenderer(this.jsonMapper), this.quotas);

	@Test
	void servedToolIsTheMembersDecisionForItsOwnNameAndTheVirtualGrants() {
		VirtualExplanation answer = explain(virtual(true), DANA, "notes_echo", null, null);

		assertThat(answer.allowed()).isTrue();
		assertThat(answer.servedBy()).isEqualTo(new VirtualExplanation.Served("demo/notes", "notes", "echo"));
		assertThat(answer.member().allowed()).isTrue();
		assertThat(answer.member().server().name()).isEqualTo("notes");
		assertThat(answer.member().grant().index()).isZero();
		assertThat(answer.virtualGrants().allowed()).isTrue();
		assertThat(answer.virtualServer().identity()).isEqualTo(IdentityMode.OAUTH);
		assertThat(answer.virtualServer().members()).extracting(VirtualExplanation.MemberView::prefix)
			.containsExactly("notes", "json");
	}

	@Test
	void memberRefusalIsTheAnswerAsForADirectCall() {
		VirtualExplanation answer = explain(virtual(true), MALLORY, "notes_echo", null, null);
		Explanation direct = this.members.explain(policy(virtual(true)), this.notes, MALLORY, Grant.Item.TOOL, "echo",
				null, null);

		assertThat(answer.allowed()).isFalse();
		assertThat(answer.decidedBy()).isEqualTo("member");
		assertThat(answer.reason()).isEqualTo("no_grant_applies").isEqualTo(direct.reason());
		assertThat(answer.errorCode()).isEqualTo("server_not_granted");
		assertThat(answer.status()).isEqualTo(403);
		assertThat(answer.member()).isEqualTo(direct);
	}

	@Test
	void memberConditionsReadTheOriginalArguments() {
		JsonNode shortText = this.jsonMapper.readTree("{\"text\":\"hi\"}");
		JsonNode longText = this.jsonMapper.readTree("{\"text\":\"far too long\"}");

		VirtualExplanation allowed = explain(virtual(false), DANA, "notes_write", shortText, null);
		VirtualExplanation refused = explain(virtual(false), DANA, "notes_write", longText, null);

		assertThat(allowed.allowed()).isTrue();
		assertThat(allowed.member().grant().name()).isEqualTo("short-write");
		assertThat(refused.allowed()).isFalse();
		assertThat(refused.reason()).isEqualTo("conditions_deny_tool");
		assertThat(refused.member().deniedBy()).isEqualTo("short-write");
		assertThat(refused.member().conditions()).singleElement()
			.satisfies((condition) -> assertThat(condition.result()).isEqualTo("false"));
	}

	@Test
	void virtualGrantsNarrowWhatTheMemberAllows() {
		VirtualExplanation answer = explain(virtual(true), DANA, "json_delete", null, null);

		assertThat(answer.member().allowed()).isTrue();
		assertThat(answer.allowed()).isFalse();
		assertThat(answer.decidedBy()).isEqualTo("virtual_server");
		assertThat(answer.reason()).isEqualTo("no_applying_grant_lists_tool");
		assertThat(answer.errorCode()).isEqualTo("tool_not_granted");
		assertThat(answer.virtualGrants().allowed()).isFalse();
	}

	@Test
	void withoutVirtualGrantsTheMembersAloneDecide() {
		VirtualExplanation answer = explain(virtual(false), DANA, "json_delete", null, null);

		assertThat(answer.allowed()).isTrue();
		assertThat(answer.virtualGrants()).isNull();
	}

	@Test
	void unknownPrefixOrAToolOutsideTheSelectionIsNotServed() {
		for (String tool : new String[] { "other_echo", "notes_write_all", "echo", "_echo" }) {
			VirtualExplanation answer = explain(virtual(true), DANA, tool, null, null);

			assertThat(answer.allowed()).as(tool).isFalse();
			assertThat(answer.reason()).as(tool).isEqualTo("tool_not_served");
			assertThat(answer.decidedBy()).isEqualTo("virtual_server");
			assertThat(answer.servedBy()).isNull();
			assertThat(answer.member()).isNull();
		}
	}

	@Test
	void requestWithoutAToolShowsEachMembersOwnAnswer() {
		VirtualExplanation answer = explain(virtual(true), MALLORY, null, null, null);

		assertThat(answer.allowed()).isTrue();
		assertThat(answer.members()).extracting(Explanation::allowed).containsExactly(false, true);
		assertThat(answer.members().get(0).reason()).isEqualTo("no_grant_applies");
	}

	@Test
	void toolsListPreviewKeepsWhatTheMemberAndTheVirtualGrantsShow() {
		VirtualExplanation answer = explain(virtual(true), DANA, null, null,
				List.of("notes_echo", "notes_write", "notes_delete", "json_read", "json_delete", "other_x"));

		assertThat(answer.toolsList().visible()).containsExactly("notes_echo", "notes_write", "json_read");
		assertThat(answer.toolsList().hidden()).containsExactly("notes_delete", "json_delete", "other_x");
	}

	@Test
	void aServedToolListsTheVirtualServersOwnLimitsForTheExposedName() {
		QuotaInspector.LimitView shared = new QuotaInspector.LimitView("shared", "principal", "tool-calls",
				List.of("notes_*"), 5, 60, 5, 3L, 4000L);
		VirtualServerPolicy virtual = virtual(false);
		given(this.quotas.limits(new VirtualQuota(virtual, "notes_echo"), DANA)).willReturn(List.of(shared));

		VirtualExplanation served = explain(virtual, DANA, "notes_echo", null, null);
		VirtualExplanation unserved = explain(virtual, DANA, "other_echo", null, null);

		assertThat(served.virtualLimits()).containsExactly(shared);
		assertThat(unserved.virtualLimits()).isEmpty();
	}

	private VirtualExplanation explain(VirtualServerPolicy virtual, McpPrincipal principal, String tool,
			JsonNode arguments, List<String> tools) {
		return this.explainer.explain(policy(virtual), virtual, principal, tool, arguments, tools);
	}

	private Policy policy(VirtualServerPolicy virtual) {
		return new Policy("v1", Instant.EPOCH, Map.of(this.notes.path(), this.notes, this.json.path(), this.json),
				Map.of(virtual.path(), virtual));
	}

	private static VirtualServerPolicy virtual(boolean ownGrants) {
		List<Grant> grants = ownGrants ? List.of(new Grant(null, List.of("*"), List.of("json_delete"))) : null;
		return new VirtualServerPolicy("demo", "workspace", "uid-workspace", "/mcp/demo/workspace",
				List.of(new VirtualServerPolicy.Member("demo/notes", "notes",
						List.of("echo", "write", "delete", "list_*")),
						new VirtualServerPolicy.Member("demo/json", "json", null)),
				grants, null);
	}

	private static McpServerPolicy server(String name, Grant... grants) {
		return new McpServerPolicy("demo", name, "uid-" + name, URI.create("http://" + name + "/mcp"), null,
				"/mcp/demo/" + name, null, List.of(grants), null, null);
	}

}
