package io.github.mcpgateway.grant;

import org.springframework.util.Assert;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.policy.condition.ConditionInput;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.StageDecision;

/**
 * The grants job of the grant stage: whether the caller may use the server and the item
 * the request names ({@link NamedItem}: the tool of a {@code tools/call}, a prompt, a
 * resource), decided against the server the request context pinned, so one request is
 * decided against one policy snapshot. The grants' conditions see the message parsed
 * once; only a decision that evaluates conditions reads and charges the caller's time. A
 * request that names no item is decided on the server alone.
 */
final class RequestGrants {

	private final GrantDecisions decisions;

	RequestGrants(GrantDecisions decisions) {
		Assert.notNull(decisions, "decisions must not be null");
		this.decisions = decisions;
	}

	GrantVerdict decide(McpRequestContext context) {
		McpServerPolicy server = context.server();
		NamedItem named = NamedItem.of(context.message());
		GrantEvaluator grants = this.decisions.grants();
		GrantDecision decision;
		if (named == null) {
			decision = grants.decideServer(server, context.principal());
		}
		else if (grants.evaluatesConditions(server, context.principal(), named.kind(), named.name())) {
			CallerConditionTime.Caller caller = GrantDecisions.callerOf(context);
			StageDecision exhausted = this.decisions.exhausted(caller);
			if (exhausted != null) {
				return GrantVerdict.refused(exhausted);
			}
			decision = this.decisions.charging(caller, () -> decide(context, named));
		}
		else {
			decision = decide(context, named);
		}
		StageDecision refusal = this.decisions.settle(server, decision);
		return (refusal != null) ? GrantVerdict.refused(refusal) : GrantVerdict.granted(decision.grantIndex());
	}

	private GrantDecision decide(McpRequestContext context, NamedItem named) {
		return this.decisions.grants()
			.decide(context.server(), context.principal(), named.kind(), named.name(), callOf(context, named));
	}

	/** What the conditions of the grants read of this request. */
	private static ConditionInput callOf(McpRequestContext context, NamedItem named) {
		JsonRpcMessage message = context.message();
		return GrantEvaluator.call(context.server(), context.principal(), message.method(),
				(named.kind() == Grant.Item.TOOL) ? named.name() : null, message.params());
	}

}
