package io.github.mcpgateway.quota;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.RateLimit;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.transport.McpMetaKeys;

/**
 * The quota stage, after the grants (a refused request consumes nothing) and before the
 * Idempotency-Key: every limit of the server that applies to the request
 * ({@link QuotaPlan}) must give a token, or the request is refused with 429
 * {@code rate_limited}, the limit's name in {@code error.data.limit} and
 * {@code Retry-After} from its bucket, and nothing goes upstream.
 *
 * <p>
 * A keyed {@code tools/call} is charged only once it is known to run
 * ({@link StageDecision#deferCharge}; the Idempotency-Key stage commits a call it
 * started): a replay does not run the tool and consumes nothing, and a call refused by a
 * limit gives its key back, so it stores nothing. A store that cannot be asked refuses
 * with 503 {@code quota_store_unavailable} (fail closed) unless
 * {@code gateway.quota.on-store-failure: allow}.
 *
 * <p>
 * A member request a virtual server routed ({@link VirtualQuota}) is charged the virtual
 * server's own limits too, in the same consume: all of them give a token, or none is
 * taken.
 */
public final class QuotaStage implements McpStage {

	private static final Log logger = LogFactory.getLog(QuotaStage.class);

	private final QuotaStore store;

	private final QuotaMeters meters;

	private final boolean allowOnStoreFailure;

	QuotaStage(QuotaStore store, QuotaMeters meters, boolean allowOnStoreFailure) {
		this.store = store;
		this.meters = meters;
		this.allowOnStoreFailure = allowOnStoreFailure;
	}

	@Override
	public boolean appliesTo(McpExchange exchange) {
		return !exchange.context().server().limits().isEmpty() || VirtualQuota.find(exchange.request()) != null;
	}

	@Override
	public StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		JsonRpcMessage message = context.message();
		String tool = (message != null && message.isToolCall()) ? message.toolName() : null;
		QuotaPlan plan = QuotaPlan.of(context.server(), context.principal(), tool,
				VirtualQuota.find(exchange.request()));
		if (plan.isEmpty()) {
			return StageDecision.proceed();
		}
		if (tool != null && McpMetaKeys.carriesIdempotencyKey(exchange.request(), message)) {
			return StageDecision.deferCharge(() -> charge(plan));
		}
		StageDecision.Refuse refusal = charge(plan);
		return (refusal != null) ? refusal : StageDecision.proceed();
	}

	/** Takes a token of each planned limit; the refusal, or {@code null}. */
	private StageDecision.@Nullable Refuse charge(QuotaPlan plan) {
		QuotaResult result;
		try {
			result = this.store.consume(plan.buckets());
		}
		catch (QuotaStoreException ex) {
			logger.warn(ex.getMessage());
			count(plan, QuotaOutcome.UNAVAILABLE);
			return this.allowOnStoreFailure ? null
					: (StageDecision.Refuse) StageDecision.refuse(GatewayErrors.QUOTA_STORE_UNAVAILABLE);
		}
		if (result.allowed()) {
			count(plan, QuotaOutcome.ALLOWED);
			return null;
		}
		RateLimit refusing = plan.limits().get(result.refusedBy());
		this.meters.count(plan.servers().get(result.refusedBy()), refusing, QuotaOutcome.REFUSED);
		return (StageDecision.Refuse) StageDecision.refuse(
				GatewayErrors.RATE_LIMITED.withRetryAfter(result.retryAfter()).withDetail("limit", refusing.name()),
				new LimitReached(refusing.name()));
	}

	private void count(QuotaPlan plan, QuotaOutcome outcome) {
		for (int i = 0; i < plan.limits().size(); i++) {
			this.meters.count(plan.servers().get(i), plan.limits().get(i), outcome);
		}
	}

}
