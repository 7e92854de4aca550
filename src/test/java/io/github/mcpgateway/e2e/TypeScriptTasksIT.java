package io.github.mcpgateway.e2e;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.support.TestJwts;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The official TypeScript SDK's task client ({@code src/test/node/tasks-client.mjs},
 * {@code client.experimental.tasks}, MCP 2025-11-25) through the packaged gateway to
 * server-everything's {@code simulate-research-query}: the owner's task runs are created,
 * polled and finished, the ambiguous one's elicitation reaches the owner through
 * {@code tasks/result}; another principal's client reaches none of the owner's tasks.
 * Skipped where {@code node} or {@code npm} is missing.
 */
class TypeScriptTasksIT {

	@RegisterExtension
	static final GatewayProcess gateway = new GatewayProcess("typescript-tasks");

	private static NodeInterop node;

	private static JsonNode report;

	@BeforeAll
	static void runTheTaskClientThroughTheGateway() throws Exception {
		node = NodeInterop.installed();
		gateway.startInFrontOf(node.startServerEverything("typescript-tasks-everything").port());
		String audience = gateway.url(GatewayProcess.GUARDED);
		String owner = TestJwts.jwt().human("alice").team("blue").audience(audience).sign();
		String other = TestJwts.jwt().human("mallory").team("blue").audience(audience).sign();
		NodeInterop.Finished client = node.run("typescript-tasks-client",
				Map.of("MCP_URL", audience, "MCP_TOKEN", owner, "OTHER_TOKEN", other), Duration.ofSeconds(120),
				"tasks-client.mjs");
		report = client.report("TypeScript SDK task client through the gateway");
	}

	@AfterAll
	static void stopEverything() throws InterruptedException {
		gateway.stopAfter(node);
	}

	@Test
	void clientPassesEveryCheckOfItsOwn() {
		assertThat(report.get("failures").values()).isEmpty();
		assertThat(report.get("ok").asBoolean()).isTrue();
	}

	@Test
	void taskRunIsCreatedPolledAndReturnsItsFinalResult() {
		JsonNode run = report.at("/runs/plain");
		assertThat(run.get("taskId").asString()).isNotEmpty();
		assertThat(run.get("statuses").values()).extracting(JsonNode::asString)
			.contains("working")
			.last()
			.isEqualTo("completed");
		assertThat(run.get("result").asString()).contains("Research Report: python");
	}

	@Test
	void ambiguousRunDeliversItsElicitationToTheOwnerThroughTasksResultAndCompletes() {
		JsonNode run = report.at("/runs/ambiguous");
		assertThat(run.get("statuses").values()).extracting(JsonNode::asString).contains("input_required");
		assertThat(run.get("elicitations").values()).singleElement()
			.satisfies((elicitation) -> assertThat(elicitation.get("relatedTask").asString())
				.isEqualTo(run.get("taskId").asString()));
		assertThat(run.get("result").asString()).contains("Research Report: python (snake)");
	}

	@Test
	void ownerListsBothTasks() {
		assertThat(report.get("listed").values()).extracting(JsonNode::asString)
			.contains(report.at("/runs/plain/taskId").asString(), report.at("/runs/ambiguous/taskId").asString());
	}

	@Test
	void anotherPrincipalReachesNoneOfTheOwnersTasks() {
		JsonNode other = report.get("other");
		for (String request : new String[] { "get", "result", "cancel" }) {
			assertThat(other.at("/" + request + "/thrown").asBoolean()).as(request).isTrue();
			assertThat(other.at("/" + request + "/dataCode").asString()).as(request).isEqualTo("task_not_found");
		}
		assertThat(other.get("listed").values()).isEmpty();
	}

}
