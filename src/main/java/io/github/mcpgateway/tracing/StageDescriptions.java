package io.github.mcpgateway.tracing;

import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.grant.GrantOutcome;
import io.github.mcpgateway.idempotency.KeyedOutcome;
import io.github.mcpgateway.quota.LimitReached;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.task.TaskHandling;
import io.github.mcpgateway.upstreamauth.CredentialHandling;

/**
 * What each stage's span says about the stage's decision, read from what the stage
 * recorded on the request context: the one place tracing reads a capability's outcome
 * (the server span's Idempotency-Key outcome included), so that a change of where a
 * capability keeps its outcome changes this class only. The stages themselves know
 * nothing of tracing.
 *
 * <p>
 * Contract: called after the stage decided (or threw); adds only the gateway's tags and
 * names ({@link McpAttributes}), never a token, key, argument or result; a stage not
 * named here ({@code upstream_guard}) or one that recorded nothing adds nothing.
 */
final class StageDescriptions {

	/**
	 * The names of the stages this class knows, in pipeline order; a test holds it equal
	 * to the registered stages, so a new or renamed stage is a decision here.
	 */
	static final List<String> STAGES = List.of("session", "policy", "quota", "idempotency", "task",
			"upstream_credentials", "upstream_guard");

	/** The codes of a refusal by conditions, whose context reason is the grant. */
	private static final Set<String> CONDITION_REFUSALS = Set.of(GatewayErrors.TOOL_ARGUMENTS_DENIED.code(),
			GatewayErrors.PROMPT_ARGUMENTS_DENIED.code(), GatewayErrors.RESOURCE_PARAMS_DENIED.code());

	private StageDescriptions() {
	}

	/** Adds what {@code stage} (its {@code name()}) recorded on {@code context}. */
	static void describe(String stage, McpRequestContext context, BiConsumer<String, String> attribute) {
		switch (stage) {
			case "session" ->
				attribute.accept(McpAttributes.GATEWAY_IN_SESSION, Boolean.toString(context.sessionId() != null));
			case "policy" -> grant(context, attribute);
			case "quota" -> limit(context, attribute);
			case "idempotency" -> accept(attribute, McpAttributes.GATEWAY_IDEMPOTENCY, idempotency(context));
			case "task" -> accept(attribute, McpAttributes.GATEWAY_TASK, task(context));
			case "upstream_credentials" -> upstreamAuth(context, attribute);
			default -> {
			}
		}
	}

	/** The Idempotency-Key outcome of a keyed request, or {@code null}. */
	static @Nullable String idempotency(McpRequestContext context) {
		KeyedOutcome keyed = context.get(KeyedOutcome.SLOT);
		return (keyed != null) ? keyed.outcome().tag() : null;
	}

	/** The task outcome of a task request, or {@code null}. */
	private static @Nullable String task(McpRequestContext context) {
		TaskHandling handling = context.get(TaskHandling.SLOT);
		return (handling != null) ? handling.outcome().tag() : null;
	}

	/** The grant that allowed the request, or the one whose condition refused it. */
	private static void grant(McpRequestContext context, BiConsumer<String, String> attribute) {
		Integer grantIndex = context.get(GrantOutcome.ALLOWED_BY);
		if (grantIndex != null) {
			attribute.accept(McpAttributes.GATEWAY_GRANT, "grants[" + grantIndex + "]");
		}
		else if (context.reason() instanceof GrantOutcome.DeniedBy denied && context.errorCode() != null
				&& CONDITION_REFUSALS.contains(context.errorCode())) {
			attribute.accept(McpAttributes.GATEWAY_GRANT, denied.grant());
		}
	}

	/** The limit that refused the request. */
	private static void limit(McpRequestContext context, BiConsumer<String, String> attribute) {
		if (context.reason() instanceof LimitReached reached) {
			attribute.accept(McpAttributes.GATEWAY_LIMIT, reached.limit());
		}
	}

	/** The server's credential mode and how the credential was obtained. */
	private static void upstreamAuth(McpRequestContext context, BiConsumer<String, String> attribute) {
		CredentialHandling handling = context.get(CredentialHandling.SLOT);
		if (handling != null) {
			attribute.accept(McpAttributes.GATEWAY_UPSTREAM_AUTH_MODE, handling.mode().tag());
			attribute.accept(McpAttributes.GATEWAY_UPSTREAM_AUTH, handling.outcome().tag());
		}
	}

	private static void accept(BiConsumer<String, String> attribute, String name, @Nullable String value) {
		if (value != null) {
			attribute.accept(name, value);
		}
	}

}
