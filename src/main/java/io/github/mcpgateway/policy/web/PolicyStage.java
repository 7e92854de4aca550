package io.github.mcpgateway.policy.web;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.JsonNodeFactory;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.PolicyProperties;
import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.policy.condition.ConditionInput;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageAttributes;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.transport.FilteredResponse;
import io.github.mcpgateway.transport.IdentityEncodingRequest;
import io.github.mcpgateway.transport.ListResultFilter;

/**
 * The grant stage: decides from the live policy whether the caller may use the server and
 * the item a request names (the tool of a {@code tools/call}, a prompt, a resource), the
 * grants' conditions evaluated on the message parsed once. A refusal is 403 with the
 * request id echoed (a refusal by conditions names the grant in {@code error.data.grant}
 * and the audit line's {@code reason}, never the arguments) and nothing is sent upstream.
 * A {@code tools/list} reply is filtered to the tools the caller may call, and so is a
 * resumed stream ({@code GET} with {@code Last-Event-ID}), which may replay one; such
 * requests go upstream without {@code Accept-Encoding}, so the reply comes back in a form
 * the gateway can read. The {@code x-mcp-header} annotations those lists show are
 * remembered, and a 2026-07-28 {@code tools/call}'s {@code Mcp-Param-*} headers are
 * checked against them (400 {@code header_mismatch}).
 *
 * <p>
 * The time its conditions take is charged to the caller ({@link CallerConditionTime}): a
 * caller that has spent its share is refused (429 {@code condition_budget_exhausted},
 * {@code Retry-After}) before any condition is evaluated for it.
 *
 * <p>
 * The grants are read from the server the request context resolved, so one request is
 * decided against one policy snapshot even if a reload happens meanwhile.
 *
 * <p>
 * Past 300 lines: the request's decision, its list filters and its header checks are this
 * one stage's; what decides lives apart ({@link GrantEvaluator},
 * {@link ListResultFilter}, {@link ToolHeaderAnnotations}, {@link CallerConditionTime}).
 */
public final class PolicyStage implements McpStage {

	/**
	 * Bounds on a tools/list reply: wide (tool input schemas nest and carry numbers), but
	 * bounded, so that any reply the gateway filters is one a client reads the same way.
	 */
	private static final JsonReadLimits REPLY_LIMITS = new JsonReadLimits(1000, 10_000, 100_000,
			JsonReadLimits.DEFAULT_MAX_STRING_LENGTH);

	private static final String LAST_EVENT_ID = "Last-Event-ID";

	/** The codes of a refusal by conditions, whose audit reason is the grant. */
	private static final Set<String> CONDITION_REFUSALS = Set.of(GatewayErrors.TOOL_ARGUMENTS_DENIED.code(),
			GatewayErrors.PROMPT_ARGUMENTS_DENIED.code(), GatewayErrors.RESOURCE_PARAMS_DENIED.code());

	private final GrantEvaluator grants;

	private final Refusals refusals;

	private final JsonMapper jsonMapper;

	private final StrictJsonReader replyReader;

	private final int toolListMaxBytes;

	private final ConditionErrors conditionErrors;

	private final CallerConditionTime callerTime;

	private final ToolHeaderAnnotations headerAnnotations = new ToolHeaderAnnotations();

	public PolicyStage(GrantEvaluator grants, Refusals refusals, JsonMapper jsonMapper, PolicyProperties properties,
			ConditionErrors conditionErrors, CallerConditionTime callerTime) {
		Assert.notNull(grants, "grants must not be null");
		Assert.notNull(conditionErrors, "conditionErrors must not be null");
		Assert.notNull(callerTime, "callerTime must not be null");
		this.callerTime = callerTime;
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		this.grants = grants;
		this.conditionErrors = conditionErrors;
		this.refusals = refusals;
		this.jsonMapper = jsonMapper;
		this.toolListMaxBytes = (int) properties.toolListMaxSize().toBytes();
		this.replyReader = new StrictJsonReader(REPLY_LIMITS, this.toolListMaxBytes);
	}

	@Override
	public String name() {
		return "policy";
	}

	@Override
	public StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		McpServerPolicy server = context.server();
		JsonRpcMessage message = context.message();
		NamedItem named = NamedItem.of(message);
		GrantDecision grant;
		if (named == null) {
			grant = this.grants.decideServer(server, context.principal());
		}
		else if (this.grants.evaluatesConditions(server, context.principal(), named.kind(), named.name())) {
			CallerConditionTime.Caller caller = callerOf(context);
			Duration spent = this.callerTime.retryAfter(caller);
			if (spent != null) {
				return StageDecision.refuse(GatewayErrors.CONDITION_BUDGET_EXHAUSTED.withRetryAfter(spent));
			}
			grant = this.callerTime.charging(caller, () -> this.grants.decide(server, context.principal(), named.kind(),
					named.name(), callOf(context, named)));
		}
		else {
			grant = this.grants.decide(server, context.principal(), named.kind(), named.name(), callOf(context, named));
		}
		this.conditionErrors.count(server, grant);
		if (grant.refusal() != null) {
			return StageDecision.refuse(errorOf(grant), grant.deniedBy());
		}
		if (server.governs(Grant.Item.RESOURCE) && subscribes(message)) {
			StageDecision subscriptions = subscriptionsDecision(context);
			if (subscriptions != null) {
				return subscriptions;
			}
		}
		context.granted(grant.grantIndex());
		ListedItems listed = ListedItems.of(message);
		if (listed != null && server.governs(listed.kind())) {
			return filtered(exchange, listed);
		}
		if (message != null && message.isToolCall() && context.stateless() && !this.headerAnnotations
			.agree(exchange.request(), server.identityKey(), message.toolName(), message.params().get("arguments"))) {
			return StageDecision.refuse(GatewayErrors.HEADER_MISMATCH);
		}
		boolean resumed = isResumedStream(exchange.request(), message);
		if (!(message != null && message.isToolList()) && !resumed) {
			return StageDecision.proceed();
		}
		// A resumed stream may replay any list reply: each governed kind's filter in
		// turn.
		HttpServletResponse inner = exchange.response();
		List<FilteredResponse> chain = new ArrayList<>(3);
		if (resumed) {
			for (ListedItems others : ListedItems.OTHERS) {
				if (server.governs(others.kind())) {
					inner = filter(inner, context, others);
					chain.add(0, (FilteredResponse) inner);
				}
			}
		}
		FilteredResponse filtering = new FilteredResponse(inner,
				new ListResultFilter(this.replyReader, this.jsonMapper, "tools", "name",
						(tools) -> usable(server, context.principal(), Grant.Item.TOOL, tools),
						(tools) -> this.headerAnnotations.learn(server.identityKey(), tools)),
				this.toolListMaxBytes, FilteredResponse.Unreadable.WITHHOLD);
		chain.add(0, filtering);
		return StageDecision.wrap(new IdentityEncodingRequest(exchange.request()), filtering,
				(failure) -> finish(exchange, chain, failure));
	}

	@Override
	public void describe(McpRequestContext context, BiConsumer<String, String> attribute) {
		if (context.grantIndex() >= 0) {
			attribute.accept(StageAttributes.GRANT, "grants[" + context.grantIndex() + "]");
		}
		else if (context.reason() != null && context.errorCode() != null
				&& CONDITION_REFUSALS.contains(context.errorCode())) {
			// A refusal by conditions: the grant whose condition refused.
			attribute.accept(StageAttributes.GRANT, context.reason());
		}
	}

	/**
	 * The refusal of a 2026-07-28 {@code subscriptions/listen} that subscribes to a
	 * resource ({@code params.notifications.resourceSubscriptions}, the former
	 * {@code resources/subscribe}) no applying grant allows, each URI decided as a
	 * {@code resources/subscribe} of it is (its conditions see that method and
	 * {@code params.uri}); {@code null} when every one is allowed, and for any other
	 * request. Each URI's decision is charged to the caller on its own, and the caller's
	 * balance is read before each: a message listing many URIs is refused
	 * {@code condition_budget_exhausted} as soon as its caller's time is spent, so one
	 * request overdraws by at most one decision.
	 */
	private @Nullable StageDecision subscriptionsDecision(McpRequestContext context) {
		JsonRpcMessage message = context.message();
		CallerConditionTime.Caller caller = callerOf(context);
		JsonNode uris = message.params().path("notifications").path("resourceSubscriptions");
		for (JsonNode uri : uris) {
			Duration spent = this.callerTime.retryAfter(caller);
			if (spent != null) {
				return StageDecision.refuse(GatewayErrors.CONDITION_BUDGET_EXHAUSTED.withRetryAfter(spent));
			}
			String named = uri.isString() ? uri.stringValue() : "";
			ConditionInput subscribe = GrantEvaluator.call(context.server(), context.principal(), "resources/subscribe",
					null, JsonNodeFactory.instance.objectNode().put("uri", named));
			GrantDecision decision = this.callerTime.charging(caller, () -> this.grants.decide(context.server(),
					context.principal(), Grant.Item.RESOURCE, named, subscribe));
			this.conditionErrors.count(context.server(), decision);
			if (!decision.allowed()) {
				return StageDecision.refuse(errorOf(decision), decision.deniedBy());
			}
		}
		return null;
	}

	/** Who pays for the request's condition evaluations. */
	private static CallerConditionTime.Caller callerOf(McpRequestContext context) {
		return CallerConditionTime.Caller.of(context.principal(), context.server().conditionView());
	}

	/**
	 * Whether {@code message} is a 2026-07-28 {@code subscriptions/listen} that
	 * subscribes to resources, each decided as a {@code resources/subscribe} of it is.
	 */
	private static boolean subscribes(@Nullable JsonRpcMessage message) {
		return message != null && "subscriptions/listen".equals(message.method()) && message.params() != null
				&& !message.params().path("notifications").path("resourceSubscriptions").isEmpty();
	}

	/** What the conditions of the grants read of this request. */
	private static ConditionInput callOf(McpRequestContext context, NamedItem named) {
		JsonRpcMessage message = context.message();
		return GrantEvaluator.call(context.server(), context.principal(), message.method(),
				(named.kind() == Grant.Item.TOOL) ? named.name() : null, message.params());
	}

	/**
	 * The error a grant refusal is answered with: the one mapping, for this stage and for
	 * {@code /actuator/explain}. A refusal by conditions names the grant
	 * ({@code error.data.grant}), never the arguments.
	 */
	public static GatewayError errorOf(GrantDecision decision) {
		GatewayError error = errorOf(decision.refusal());
		return (decision.deniedBy() != null) ? error.withDetail("grant", decision.deniedBy()) : error;
	}

	private static GatewayError errorOf(GrantDecision.Refusal refusal) {
		return switch (refusal) {
			case NO_GRANT_APPLIES -> GatewayErrors.SERVER_NOT_GRANTED;
			case NO_APPLYING_GRANT_LISTS_TOOL -> GatewayErrors.TOOL_NOT_GRANTED;
			case NO_APPLYING_GRANT_LISTS_PROMPT -> GatewayErrors.PROMPT_NOT_GRANTED;
			case NO_APPLYING_GRANT_LISTS_RESOURCE -> GatewayErrors.RESOURCE_NOT_GRANTED;
			case CONDITIONS_DENY_TOOL -> GatewayErrors.TOOL_ARGUMENTS_DENIED;
			case CONDITIONS_DENY_PROMPT -> GatewayErrors.PROMPT_ARGUMENTS_DENIED;
			case CONDITIONS_DENY_RESOURCE -> GatewayErrors.RESOURCE_PARAMS_DENIED;
		};
	}

	/**
	 * A {@code prompts/list}, {@code resources/list} or {@code resources/templates/list}
	 * reply of a server that governs them, filtered to the items the caller may use, as a
	 * {@code tools/list} reply is.
	 */
	private StageDecision filtered(McpExchange exchange, ListedItems listed) {
		FilteredResponse filtering = filter(exchange.response(), exchange.context(), listed);
		return StageDecision.wrap(new IdentityEncodingRequest(exchange.request()), filtering,
				(failure) -> finish(exchange, List.of(filtering), failure));
	}

	private FilteredResponse filter(HttpServletResponse response, McpRequestContext context, ListedItems listed) {
		return new FilteredResponse(response,
				new ListResultFilter(this.replyReader, this.jsonMapper, listed.member(), listed.key(),
						(items) -> usable(context.server(), context.principal(), listed.kind(), items)),
				this.toolListMaxBytes, FilteredResponse.Unreadable.WITHHOLD);
	}

	private Set<String> usable(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind,
			List<String> items) {
		Set<String> usable = new HashSet<>();
		for (String item : items) {
			if (this.grants.mayUse(server, principal, kind, item)) {
				usable.add(item);
			}
		}
		return usable;
	}

	/**
	 * Sends on what the filter held back; a stream committed already just ends for its
	 * client, and the refusal is recorded for the audit line only.
	 */
	private @Nullable Throwable finish(McpExchange exchange, List<FilteredResponse> chain, @Nullable Throwable failure)
			throws IOException {
		if (failure != null) {
			return failure;
		}
		// Outermost first: each sends on what it held back into the next.
		for (FilteredResponse filtering : chain) {
			if (!filtering.finish()) {
				this.refusals.refuse(exchange, GatewayErrors.UPSTREAM_REPLY_UNFILTERABLE);
				return null;
			}
		}
		return null;
	}

	/**
	 * A GET that resumes a stream ({@code Last-Event-ID}, 2025-11-25): the upstream may
	 * replay on it the events of an earlier POST, a {@code tools/list} response among
	 * them, which must be filtered as the POST's own reply was.
	 */
	private static boolean isResumedStream(HttpServletRequest request, @Nullable JsonRpcMessage message) {
		return message == null && "GET".equals(request.getMethod()) && request.getHeader(LAST_EVENT_ID) != null;
	}

}
