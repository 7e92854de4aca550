package io.github.mcpgateway.task;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.Completion;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.task.TaskMessages.CreatedTask;
import io.github.mcpgateway.task.TaskRequestDecider.TaskDecision;
import io.github.mcpgateway.task.TaskStore.Reservation;
import io.github.mcpgateway.transport.FilteredResponse;
import io.github.mcpgateway.transport.IdentityEncodingRequest;
import io.github.mcpgateway.transport.MessageFilter;

/**
 * The task stage, after the grants and the Idempotency-Key and before the upstream: MCP
 * requires every task request to be authorized against the context that created the task,
 * and an upstream behind the gateway gets no caller identity, so the gateway binds each
 * task to its creator and checks every request about it.
 *
 * <p>
 * Runs for requests of a verified principal (a {@code delegated-header} server's upstream
 * sees the caller's own credentials and binds its tasks itself):
 * <ul>
 * <li>A {@code tools/call} that may create a task ({@link TaskMessages#mayCreateTask})
 * first reserves room in the {@link TaskStore} (429 {@code task_capacity} at a cap, 503
 * {@code task_store_unavailable}; nothing goes upstream); a task its answer creates is
 * bound to the principal, server, tool and session before the answer reaches the client;
 * otherwise the reservation is given back.</li>
 * <li>{@code tasks/get}, {@code tasks/result}, {@code tasks/update},
 * {@code tasks/cancel}: decided by the {@link TaskRequestDecider}; a refusal goes nowhere
 * upstream.</li>
 * <li>{@code tasks/list}: the upstream's answer shows only the caller's tasks, page by
 * page (withheld, 502 {@code upstream_reply_unfilterable}, when it cannot be read), and
 * its cursor only sealed for the caller ({@link TaskCursor}): a cursor the gateway did
 * not seal for the caller on this server is refused, 400
 * {@code task_cursor_invalid}.</li>
 * <li>{@code subscriptions/listen} naming tasks: only the caller's reach the
 * upstream.</li>
 * </ul>
 * On all of these, and on GET streams, a message about a task that is not the caller's
 * (status notifications, server requests carried by a task) never reaches the caller
 * ({@link TaskReplyFilter}).
 */
public final class TaskStage implements McpStage {

	private final TaskStore store;

	private final TaskRequestDecider decider;

	private final ListenRequests listens;

	private final TaskListing listing;

	private final Refusals refusals;

	private final StrictJsonReader replyReader;

	private final int maxReplyBytes;

	private final Duration maxTtl;

	private final Clock clock;

	TaskStage(TaskStore store, TaskRequestDecider decider, ListenRequests listens, Refusals refusals,
			StrictJsonReader replyReader, JsonMapper jsonMapper, TaskProperties properties, Clock clock) {
		Assert.notNull(store, "store must not be null");
		Assert.notNull(decider, "decider must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		this.store = store;
		this.decider = decider;
		this.listens = listens;
		this.listing = new TaskListing(store, replyReader, jsonMapper, clock, properties.maxTtl());
		this.refusals = refusals;
		this.replyReader = replyReader;
		this.maxReplyBytes = (int) properties.maxReplySize().toBytes();
		this.maxTtl = properties.maxTtl();
		this.clock = clock;
	}

	@Override
	public boolean appliesTo(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		return context.principal() != null && context.server().identity() != IdentityMode.DELEGATED_HEADER
				&& kind(exchange.request(), context) != null;
	}

	@Override
	public StageDecision decide(McpExchange exchange) throws IOException {
		McpRequestContext context = exchange.context();
		McpPrincipal principal = context.principal();
		TaskOwnership ownership = new TaskOwnership(this.store, context.server().identityKey(), principal);
		return switch (kind(exchange.request(), context)) {
			case CREATE -> create(exchange, principal, ownership);
			case TASK -> taskRequest(exchange, principal, ownership);
			case LIST -> list(exchange, principal, ownership);
			case LISTEN -> listen(exchange, ownership);
			case STREAM -> relay(exchange, exchange.request(),
					TaskReplyFilter.notifications(this.replyReader, null, ownership, this.listing.results(context)),
					FilteredResponse.Unreadable.PASS, null);
		};
	}

	private StageDecision create(McpExchange exchange, McpPrincipal principal, TaskOwnership ownership) {
		McpRequestContext context = exchange.context();
		Reservation reservation;
		try {
			reservation = this.store.reserve(principal);
		}
		catch (TaskStoreException ex) {
			return refuse(context, TaskOutcome.UNAVAILABLE, null, null);
		}
		if (reservation == null) {
			return refuse(context, TaskOutcome.CAPACITY, null, null);
		}
		McpServerPolicy server = context.server();
		String tool = context.message().toolName();
		String session = (context.sessionId() != null) ? TaskKeys.session(context.sessionId()) : null;
		CreatedTask[] bound = new CreatedTask[1];
		MessageFilter filter = TaskReplyFilter.creations(this.replyReader, context.requestId(), ownership,
				this.listing.results(context), (created) -> {
					if (bound[0] == null) {
						Duration lifetime = lifetime(created);
						this.store.bind(reservation, created.taskId(), new TaskBinding(server.identityKey(),
								server.qualifiedName(), principal, tool, session, this.clock.instant().plus(lifetime)));
						bound[0] = created;
						TaskHandling.created(context, lifetime);
					}
				});
		return relay(exchange, exchange.request(), filter, FilteredResponse.Unreadable.PASS, () -> {
			if (bound[0] == null) {
				this.store.release(reservation);
				TaskHandling.record(context, TaskOutcome.NOT_CREATED, null, null);
			}
			else {
				TaskHandling.record(context, TaskOutcome.CREATED,
						TaskKeys.audit(server.identityKey(), bound[0].taskId()), null);
			}
		});
	}

	private StageDecision taskRequest(McpExchange exchange, McpPrincipal principal, TaskOwnership ownership) {
		McpRequestContext context = exchange.context();
		TaskDecision decision = this.decider.decide(context.server(), principal, context.message());
		if (decision.refusal() != null) {
			return refuse(context, decision.outcome(), decision.taskIdHash(), decision.tool());
		}
		TaskHandling.record(context, decision.outcome(), decision.taskIdHash(), decision.tool());
		return relay(exchange, exchange.request(), TaskReplyFilter.notifications(this.replyReader, context.requestId(),
				ownership, this.listing.results(context)), FilteredResponse.Unreadable.PASS, null);
	}

	/** A {@code tasks/list}, as {@link TaskListing} decides it. */
	private StageDecision list(McpExchange exchange, McpPrincipal principal, TaskOwnership ownership)
			throws IOException {
		McpRequestContext context = exchange.context();
		HttpServletRequest forwarded;
		try {
			forwarded = this.listing.forwarded(exchange.request(), context.message(), context.server().identityKey(),
					principal);
		}
		catch (TaskStoreException ex) {
			return refuse(context, TaskOutcome.UNAVAILABLE, null, null);
		}
		if (forwarded == null) {
			return refuse(context, TaskOutcome.CURSOR_INVALID, null, null);
		}
		TaskHandling.record(context, TaskOutcome.FILTERED, null, null);
		return relay(exchange, forwarded, TaskReplyFilter.listing(this.replyReader, context.requestId(), ownership,
				this.listing.results(context)), FilteredResponse.Unreadable.WITHHOLD, null);
	}

	private StageDecision listen(McpExchange exchange, TaskOwnership ownership) throws IOException {
		McpRequestContext context = exchange.context();
		List<String> named = ListenRequests.taskIds(context.message());
		HttpServletRequest forwarded = exchange.request();
		if (named != null && !named.isEmpty()) {
			Set<String> owned;
			try {
				owned = this.store.owned(context.server().identityKey(), context.principal(), named);
			}
			catch (TaskStoreException ex) {
				return refuse(context, TaskOutcome.UNAVAILABLE, null, null);
			}
			forwarded = this.listens.keepOnly(exchange.request(), named, owned);
		}
		TaskHandling.record(context, TaskOutcome.FILTERED, null, null);
		return relay(exchange, forwarded, TaskReplyFilter.notifications(this.replyReader, context.requestId(),
				ownership, this.listing.results(context)), FilteredResponse.Unreadable.PASS, null);
	}

	/**
	 * Sends {@code request} on with its reply read through {@code filter}; the upstream
	 * is asked for an uncoded reply, so that it can be read. {@code after}, when given,
	 * runs once the rest is done, however it ended.
	 */
	private StageDecision relay(McpExchange exchange, HttpServletRequest request, MessageFilter filter,
			FilteredResponse.Unreadable unreadable, @Nullable Runnable after) {
		FilteredResponse filtered = new FilteredResponse(exchange.response(), filter, this.maxReplyBytes, unreadable);
		Completion completion = (failure) -> {
			try {
				if (failure == null && !filtered.finish()) {
					// A stream was committed already: its client's stream just ends, and
					// the refusal is recorded for the audit line only.
					this.refusals.refuse(exchange, GatewayErrors.UPSTREAM_REPLY_UNFILTERABLE);
				}
			}
			finally {
				if (after != null) {
					after.run();
				}
			}
			return failure;
		};
		return StageDecision.wrap(new IdentityEncodingRequest(request), filtered, completion);
	}

	private static StageDecision refuse(McpRequestContext context, TaskOutcome outcome, @Nullable String taskIdHash,
			@Nullable String tool) {
		TaskHandling.record(context, outcome, taskIdHash, tool);
		return StageDecision.refuse(switch (outcome) {
			case CAPACITY -> GatewayErrors.TASK_CAPACITY;
			case UNAVAILABLE -> GatewayErrors.TASK_STORE_UNAVAILABLE;
			case CURSOR_INVALID -> GatewayErrors.TASK_CURSOR_INVALID;
			case TOOL_NOT_GRANTED -> GatewayErrors.TOOL_NOT_GRANTED;
			default -> GatewayErrors.TASK_NOT_FOUND;
		});
	}

	/** The task's own ttl, capped; a task without one lives the cap. */
	private Duration lifetime(CreatedTask created) {
		Duration ttl = created.ttl();
		return (ttl == null || ttl.compareTo(this.maxTtl) > 0) ? this.maxTtl : ttl;
	}

	private static @Nullable Kind kind(HttpServletRequest request, McpRequestContext context) {
		JsonRpcMessage message = context.message();
		if (message == null) {
			return "GET".equals(request.getMethod()) ? Kind.STREAM : null;
		}
		if (message.kind() != JsonRpcMessage.Kind.REQUEST || message.method() == null) {
			return null;
		}
		String method = message.method();
		if (message.isToolCall()) {
			return TaskMessages.mayCreateTask(message) ? Kind.CREATE : null;
		}
		if (TaskMessages.TASK_REQUESTS.contains(method)) {
			return Kind.TASK;
		}
		if (TaskMessages.LIST.equals(method)) {
			return Kind.LIST;
		}
		return TaskMessages.LISTEN.equals(method) ? Kind.LISTEN : null;
	}

	/** What kind of request the stage handles. */
	private enum Kind {

		CREATE, TASK, LIST, LISTEN, STREAM

	}

}
