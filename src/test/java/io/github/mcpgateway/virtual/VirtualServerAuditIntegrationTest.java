package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.mcpgateway.audit.GatewayMeters;
import io.github.mcpgateway.support.GatewayIntegrationTest;
import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A virtual server's own audit line and meters (issue 39, items 5 and 8): one line per
 * request it answers, naming it and the member a routed request went to; the member's
 * line naming the virtual server it came through; the members that failed it counted.
 * Each test's caller is a human of its own, so its lines are told from the others'.
 */
@ExtendWith(OutputCaptureExtension.class)
class VirtualServerAuditIntegrationTest extends GatewayIntegrationTest {

	private static final String PATH = "/mcp/test/workspace";

	private final String human = "vera-" + UUID.randomUUID();

	private final String token = TestJwts.jwt().human(this.human).sign();

	@Autowired
	private MeterRegistry meterRegistry;

	@BeforeEach
	void virtualServer() {
		workspace("", """
				  - server: test/sdk-stream
				    prefix: stream
				  - server: test/sdk-json
				    prefix: json
				""");
	}

	private void workspace(String servers, String members) {
		policy.write(policy.standard() + servers + """
				virtual-servers:
				  - namespace: test
				    name: workspace
				    uid: uid-workspace
				    path: /mcp/test/workspace
				    members:
				""" + members.indent(4));
		this.policyReloader.reloadNow();
	}

	@Test
	void aRefusalTheVirtualServerAnswersAloneHasItsOwnLineAndIsCounted(CapturedOutput output) {
		String session = session();
		double before = virtualRequests("tools/call", "denied");

		post(PATH, this.token, call(2, "other_echo"), "Mcp-Session-Id", session);
		post(PATH, this.token, jsonRpc(3, "tools/list", "{}"));

		String unknown = line(output, "\"tool\":\"other_echo\"");
		assertThat(unknown).contains("\"session_id\":\"" + session + "\"")
			.contains("\"namespace\":\"test\",\"server\":\"workspace\",\"server_uid\":\"uid-workspace\"")
			.contains("\"method\":\"tools/call\"")
			.contains("\"decision\":\"denied\",\"error_code\":\"tool_unknown\"")
			.contains("\"status\":200")
			.contains("\"dispatched\":false")
			.contains("\"virtual_server\":\"test/workspace\",\"member\":null,\"member_server\":null");
		assertThat(line(output, "\"error_code\":\"session_id_missing\"")).contains("\"server\":\"workspace\"")
			.contains("\"method\":\"tools/list\"")
			.contains("\"decision\":\"invalid\"")
			.contains("\"status\":400");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(virtualRequests("tools/call", "denied")).isEqualTo(before + 1));
		assertThat(output.getAll()).doesNotContain(this.token);
	}

	@Test
	void aRoutedCallIsTheVirtualServersLineNamingTheMemberAndTheMembersLineNamingTheVirtualServer(
			CapturedOutput output) {
		String session = session();

		post(PATH, this.token, call(4, "stream_echo"), "Mcp-Session-Id", session);
		post(PATH, this.token, call(5, "json_admin_reset"), "Mcp-Session-Id", session);

		assertThat(line(output, "\"server\":\"workspace\"", "\"tool\":\"stream_echo\""))
			.contains("\"decision\":\"allowed\",\"error_code\":null")
			.contains("\"dispatched\":true")
			.contains("\"member\":\"stream\",\"member_server\":\"test/sdk-stream\"");
		assertThat(line(output, "\"server\":\"sdk-stream\"", "\"tool\":\"echo\""))
			.contains("\"virtual_server\":\"test/workspace\",\"virtual_server_uid\":\"uid-workspace\"")
			.contains("\"member\":\"stream\"");
		assertThat(line(output, "\"server\":\"workspace\"", "\"tool\":\"json_admin_reset\""))
			.as("the member's refusal is the virtual server's decision")
			.contains("\"decision\":\"denied\",\"error_code\":\"tool_not_granted\"")
			.contains("\"member\":\"json\",\"member_server\":\"test/sdk-json\"");
	}

	@Test
	void aRequestSentToTheMemberDirectlyNamesNoVirtualServer(CapturedOutput output) {
		String direct = initialize("/mcp/test/sdk-stream", this.token);

		post("/mcp/test/sdk-stream", this.token, call(6, "echo"), "Mcp-Session-Id", direct);

		assertThat(line(output, "\"server\":\"sdk-stream\"", "\"tool\":\"echo\"")).doesNotContain("virtual_server")
			.doesNotContain("\"member\"");
	}

	@Test
	void aMemberThatIsDownIsLeftOutSaysSoInTheLineAndIsCounted(CapturedOutput output) {
		// test/down: a port nothing listens on.
		workspace("", """
				  - server: test/sdk-json
				    prefix: json
				  - server: test/down
				    prefix: down
				""");
		double before = memberFailures("down", "unavailable");
		String session = session();

		post(PATH, this.token, jsonRpc(7, "tools/list", "{}"), "Mcp-Session-Id", session);
		String unavailable = code(post(PATH, this.token, call(8, "down_echo"), "Mcp-Session-Id", session).body());

		assertThat(line(output, "\"method\":\"initialize\"", "\"server\":\"workspace\""))
			.contains("\"decision\":\"allowed\"")
			.contains("\"members_failed\":\"down:unavailable\"");
		assertThat(line(output, "\"method\":\"tools/list\"", "\"server\":\"workspace\""))
			.contains("\"members_failed\":\"down:unavailable\"");
		assertThat(unavailable).isEqualTo("member_unavailable");
		assertThat(line(output, "\"tool\":\"down_echo\"")).contains("\"error_code\":\"member_unavailable\"")
			.contains("\"decision\":\"upstream_error\"")
			.contains("\"members_failed\":\"down:unavailable\"");
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(memberFailures("down", "unavailable")).isEqualTo(before + 3));
		assertThat(memberFailures("json", "unavailable")).isZero();
	}

	/** This test's audit line that contains every one of {@code parts}, awaited. */
	private String line(CapturedOutput output, String... parts) {
		await().atMost(Duration.ofSeconds(5)).until(() -> lines(output, parts).size() == 1);
		return lines(output, parts).get(0);
	}

	private List<String> lines(CapturedOutput output, String... parts) {
		return output.getOut()
			.lines()
			.filter((line) -> line.contains("mcp.audit") && line.contains("\"human\":\"" + this.human + "\""))
			.filter((line) -> List.of(parts).stream().allMatch(line::contains))
			.toList();
	}

	private double virtualRequests(String method, String decision) {
		return this.meterRegistry.find(GatewayMeters.VIRTUAL_REQUESTS)
			.tags("virtual_server", "test/workspace", "method", method, "decision", decision)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private double memberFailures(String member, String reason) {
		return this.meterRegistry.find(GatewayMeters.VIRTUAL_MEMBER_FAILURES)
			.tags("virtual_server", "test/workspace", "member", member, "reason", reason)
			.counters()
			.stream()
			.mapToDouble(Counter::count)
			.sum();
	}

	private String session() {
		String session = post(PATH, this.token, jsonRpc(1, "initialize",
				"{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}"))
			.headers()
			.firstValue("Mcp-Session-Id")
			.orElseThrow();
		post(PATH, this.token, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "Mcp-Session-Id",
				session);
		return session;
	}

	private static String call(int id, String tool) {
		return jsonRpc(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":{\"text\":\"x\"}}");
	}

	private static String code(String body) {
		return tools.jackson.databind.json.JsonMapper.builder()
			.build()
			.readTree(body)
			.path("error")
			.path("data")
			.path("code")
			.asString();
	}

}
