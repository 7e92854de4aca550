package io.github.mcpgateway.grant;

import org.springframework.util.Assert;

import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.StageDecision;

/**
 * The grant stage: applies the policy model to a request through four strategies, each
 * one job, and decides nothing itself:
 * <ol>
 * <li>{@link RequestGrants}: the server and the item the request names (403
 * {@code *_not_granted}, {@code *_arguments_denied}, 429
 * {@code condition_budget_exhausted});</li>
 * <li>{@link SubscriptionGrants}: the resources a {@code subscriptions/listen} subscribes
 * to, each decided as a {@code resources/subscribe};</li>
 * <li>{@link ParamHeaderCheck}: a stateless call's {@code Mcp-Param-*} headers (400
 * {@code header_mismatch});</li>
 * <li>{@link ListFilters}: list replies filtered to what the caller may use (502
 * {@code upstream_reply_unfilterable} when one cannot be read exactly).</li>
 * </ol>
 * A refusal echoes the request id; a refusal by conditions names the grant in
 * {@code error.data.grant} and the audit line's {@code reason}, never the arguments; and
 * nothing is sent upstream. The deciding grant is recorded on the context only once both
 * grant strategies allowed the request.
 */
public final class PolicyStage implements McpStage {

	private final RequestGrants requestGrants;

	private final SubscriptionGrants subscriptionGrants;

	private final ParamHeaderCheck paramHeaders;

	private final ListFilters listFilters;

	PolicyStage(RequestGrants requestGrants, SubscriptionGrants subscriptionGrants, ParamHeaderCheck paramHeaders,
			ListFilters listFilters) {
		Assert.notNull(requestGrants, "requestGrants must not be null");
		Assert.notNull(subscriptionGrants, "subscriptionGrants must not be null");
		Assert.notNull(paramHeaders, "paramHeaders must not be null");
		Assert.notNull(listFilters, "listFilters must not be null");
		this.requestGrants = requestGrants;
		this.subscriptionGrants = subscriptionGrants;
		this.paramHeaders = paramHeaders;
		this.listFilters = listFilters;
	}

	@Override
	public StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		GrantVerdict grant = this.requestGrants.decide(context);
		if (grant.refusal() != null) {
			return grant.refusal();
		}
		StageDecision subscriptions = this.subscriptionGrants.decide(context);
		if (subscriptions != null) {
			return subscriptions;
		}
		GrantOutcome.allowed(context, grant.grantIndex());
		StageDecision headers = this.paramHeaders.decide(exchange);
		if (headers != null) {
			return headers;
		}
		StageDecision filtered = this.listFilters.decide(exchange);
		return (filtered != null) ? filtered : StageDecision.proceed();
	}

}
