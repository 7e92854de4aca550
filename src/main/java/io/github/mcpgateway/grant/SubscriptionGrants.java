package io.github.mcpgateway.grant;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

import org.springframework.util.Assert;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.policy.condition.ConditionInput;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.StageDecision;

/**
 * The subscriptions job of the grant stage: a 2026-07-28 {@code subscriptions/listen}
 * that subscribes to resources ({@code params.notifications.resourceSubscriptions}, the
 * former {@code resources/subscribe}) on a server that governs resources is refused when
 * no applying grant allows one of them, each URI decided as a {@code resources/subscribe}
 * of it is (its conditions see that method and {@code params.uri}).
 *
 * <p>
 * Each URI's decision is charged to the caller on its own, and the caller's balance is
 * read before each: a message listing many URIs is refused
 * {@code condition_budget_exhausted} as soon as its caller's time is spent, so one
 * request overdraws by at most one decision.
 */
final class SubscriptionGrants {

	private final GrantDecisions decisions;

	SubscriptionGrants(GrantDecisions decisions) {
		Assert.notNull(decisions, "decisions must not be null");
		this.decisions = decisions;
	}

	/**
	 * The refusal of the first subscription no grant allows; {@code null} when every one
	 * is allowed, and for any other request.
	 */
	@Nullable StageDecision decide(McpRequestContext context) {
		if (!context.server().governs(Grant.Item.RESOURCE) || !subscribes(context.message())) {
			return null;
		}
		CallerConditionTime.Caller caller = GrantDecisions.callerOf(context);
		JsonNode uris = context.message().params().path("notifications").path("resourceSubscriptions");
		for (JsonNode uri : uris) {
			StageDecision refusal = decide(context, caller, uri.isString() ? uri.stringValue() : "");
			if (refusal != null) {
				return refusal;
			}
		}
		return null;
	}

	/** One URI: the caller's balance read, then its decision charged and settled. */
	private @Nullable StageDecision decide(McpRequestContext context, CallerConditionTime.Caller caller, String uri) {
		StageDecision exhausted = this.decisions.exhausted(caller);
		if (exhausted != null) {
			return exhausted;
		}
		GrantDecision decision = this.decisions.charging(caller, () -> decide(context, uri));
		return this.decisions.settle(context.server(), decision);
	}

	private GrantDecision decide(McpRequestContext context, String uri) {
		ConditionInput subscribe = GrantEvaluator.call(context.server(), context.principal(), "resources/subscribe",
				null, JsonNodeFactory.instance.objectNode().put("uri", uri));
		return this.decisions.grants()
			.decide(context.server(), context.principal(), Grant.Item.RESOURCE, uri, subscribe);
	}

	/**
	 * Whether {@code message} is a 2026-07-28 {@code subscriptions/listen} that
	 * subscribes to resources.
	 */
	private static boolean subscribes(@Nullable JsonRpcMessage message) {
		return message != null && "subscriptions/listen".equals(message.method()) && message.params() != null
				&& !message.params().path("notifications").path("resourceSubscriptions").isEmpty();
	}

}
