package io.github.mcpgateway.task;

import java.io.IOException;
import java.util.Map;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.StageDecision.Wrap;
import io.github.mcpgateway.request.TestExchanges;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.support.TestJsonRpc;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The task stage's decisions and the outcome it records, driven with hand-built exchanges
 * against the in-memory task store: which requests it handles, a task request decided
 * against the task's binding, and the reservation of a call that may create a task.
 */
class TaskStageTest {

	private static final String CREATE = """
			{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{},"task":{}}}""";

	private final McpServerPolicy server = server("");

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final MutableClock clock = new MutableClock();

	private final TaskProperties properties = new Binder(
			new MapConfigurationPropertySource(Map.of("gateway.task.max-bindings-per-principal", "1")))
		.bindOrCreate("gateway.task", TaskProperties.class);

	private final InMemoryTaskStore store = new InMemoryTaskStore(this.properties, this.clock);

	private final TaskStage stage = stage();

	@Test
	void appliesToOnlyTaskRequestsOfAVerifiedCallerOnAServerThatDoesNotDelegateIdentity() {
		assertThat(this.stage.appliesTo(get(this.alice, "t-1"))).isTrue();
		assertThat(this.stage.appliesTo(get(null, "t-1"))).isFalse();
		assertThat(this.stage.appliesTo(TestExchanges.post(server("identity: delegated-header"), """
				{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"t-1"}}""").build())).isFalse();
		assertThat(this.stage.appliesTo(TestExchanges.post(this.server, """
				{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{}}}""")
			.principal(this.alice)
			.build())).as("a call that cannot create a task").isFalse();
	}

	@Test
	void decideWhenTheTaskIsTheCallersThenGoesOnFilteredAndRecordsTheTasksTool() throws IOException {
		bind("t-1", this.alice);
		McpExchange exchange = get(this.alice, "t-1");

		StageDecision decision = this.stage.decide(exchange);

		assertThat(decision).isInstanceOf(Wrap.class);
		assertThat(((Wrap) decision).response()).isNotSameAs(exchange.response());
		TaskHandling handling = exchange.context().get(TaskHandling.SLOT);
		assertThat(handling.outcome()).isEqualTo(TaskOutcome.ALLOWED);
		assertThat(handling.tool()).isEqualTo("echo");
		assertThat(handling.taskIdHash()).isEqualTo(TaskKeys.audit(this.server.identityKey(), "t-1"));
	}

	@Test
	void decideWhenTheTaskIsAnotherCallersThenTaskNotFoundAsIfUnknown() throws IOException {
		bind("t-1", new McpPrincipal("mallory", null, null));
		McpExchange theirs = get(this.alice, "t-1");
		McpExchange unknown = get(this.alice, "t-2");

		assertThat(this.stage.decide(theirs)).isEqualTo(StageDecision.refuse(GatewayErrors.TASK_NOT_FOUND));
		assertThat(this.stage.decide(unknown)).isEqualTo(StageDecision.refuse(GatewayErrors.TASK_NOT_FOUND));
		assertThat(theirs.context().get(TaskHandling.SLOT).outcome()).isEqualTo(TaskOutcome.NOT_FOUND);
		assertThat(theirs.context().get(TaskHandling.SLOT).tool()).isNull();
	}

	@Test
	void decideWhenACallThatMayCreateATaskCreatesNoneThenItsReservationIsGivenBack() throws IOException {
		McpExchange first = create();
		Wrap wrap = (Wrap) this.stage.decide(first);
		assertThat(this.stage.decide(create())).as("the one place is reserved")
			.isEqualTo(StageDecision.refuse(GatewayErrors.TASK_CAPACITY));

		assertThat(wrap.completion().complete(null)).isNull();

		assertThat(first.context().get(TaskHandling.SLOT).outcome()).isEqualTo(TaskOutcome.NOT_CREATED);
		assertThat(this.stage.decide(create())).isInstanceOf(Wrap.class);
	}

	@Test
	void decideWhenTheCallersTasksAreAtTheCapThenTaskCapacityAndNothingGoesOn() throws IOException {
		bind("t-1", this.alice);
		McpExchange exchange = create();

		assertThat(this.stage.decide(exchange)).isEqualTo(StageDecision.refuse(GatewayErrors.TASK_CAPACITY));
		assertThat(exchange.context().get(TaskHandling.SLOT).outcome()).isEqualTo(TaskOutcome.CAPACITY);
	}

	private void bind(String taskId, McpPrincipal owner) {
		TaskStore.Reservation reservation = this.store.reserve(owner);
		this.store.bind(reservation, taskId, new TaskBinding(this.server.identityKey(), this.server.qualifiedName(),
				owner, "echo", null, this.clock.instant().plusSeconds(600)));
	}

	private McpExchange create() {
		return TestExchanges.post(this.server, CREATE).principal(this.alice).build();
	}

	private McpExchange get(McpPrincipal principal, String taskId) {
		return TestExchanges.post(this.server, """
				{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"taskId":"%s"}}""".formatted(taskId))
			.principal(principal)
			.build();
	}

	private TaskStage stage() {
		JsonMapper json = JsonMapper.builder().build();
		return new TaskStage(this.store, new TaskRequestDecider(this.store, new GrantEvaluator()),
				new ListenRequests(json), new Refusals(new GatewayErrorRenderer(json)), TestJsonRpc.reader(), json,
				this.properties, this.clock);
	}

	private static McpServerPolicy server(String identity) {
		return TestExchanges.server("""
				  - namespace: test
				    name: echo
				    uid: uid-echo
				    upstream: http://upstream.example/mcp
				    path: /mcp/test/echo
				    %s
				    grants:
				      - tools: ["*"]
				""".formatted(identity));
	}

}
