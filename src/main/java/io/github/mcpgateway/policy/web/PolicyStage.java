package io.github.mcpgateway.policy.web;

import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.PolicyProperties;
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
import tools.jackson.databind.json.JsonMapper;

/**
 * The grant stage: decides from the live policy whether the caller may use the server
 * and, for a {@code tools/call}, the tool. A refusal is 403 with the request id echoed
 * and nothing is sent upstream. A {@code tools/list} reply is filtered to the tools the
 * caller may call, and so is a resumed stream ({@code GET} with {@code Last-Event-ID}),
 * which may replay one; such requests go upstream without {@code Accept-Encoding}, so the
 * reply comes back in a form the gateway can read. The {@code x-mcp-header} annotations
 * those lists show are remembered, and a 2026-07-28 {@code tools/call}'s
 * {@code Mcp-Param-*} headers are checked against them (400 {@code header_mismatch}).
 *
 * <p>
 * The grants are read from the server the request context resolved, so one request is
 * decided against one policy snapshot even if a reload happens meanwhile.
 */
public final class PolicyStage implements McpStage {

	/**
	 * Bounds on a tools/list reply: wide (tool input schemas nest and carry numbers), but
	 * bounded, so that any reply the gateway filters is one a client reads the same way.
	 */
	private static final JsonReadLimits REPLY_LIMITS = new JsonReadLimits(1000, 10_000, 100_000,
			JsonReadLimits.DEFAULT_MAX_STRING_LENGTH);

	private static final String LAST_EVENT_ID = "Last-Event-ID";

	private final GrantEvaluator grants;

	private final Refusals refusals;

	private final JsonMapper jsonMapper;

	private final StrictJsonReader replyReader;

	private final int toolListMaxBytes;

	private final ToolHeaderAnnotations headerAnnotations = new ToolHeaderAnnotations();

	public PolicyStage(GrantEvaluator grants, Refusals refusals, JsonMapper jsonMapper, PolicyProperties properties) {
		Assert.notNull(grants, "grants must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		this.grants = grants;
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
		String tool = (message != null && message.isToolCall()) ? message.toolName() : null;
		GrantDecision grant = this.grants.decide(server, context.principal(), tool);
		if (grant.refusal() == GrantDecision.Refusal.NO_GRANT_APPLIES) {
			return StageDecision.refuse(GatewayErrors.SERVER_NOT_GRANTED);
		}
		if (grant.refusal() == GrantDecision.Refusal.NO_APPLYING_GRANT_LISTS_TOOL) {
			return StageDecision.refuse(GatewayErrors.TOOL_NOT_GRANTED);
		}
		context.granted(grant.grantIndex());
		if (message != null && message.isToolCall() && context.stateless() && !this.headerAnnotations
			.agree(exchange.request(), server.identityKey(), message.toolName(), message.params().get("arguments"))) {
			return StageDecision.refuse(GatewayErrors.HEADER_MISMATCH);
		}
		if (!(message != null && message.isToolList()) && !isResumedStream(exchange.request(), message)) {
			return StageDecision.proceed();
		}
		FilteredResponse filtering = new FilteredResponse(exchange.response(),
				new ListResultFilter(this.replyReader, this.jsonMapper, "tools", "name",
						(tools) -> callable(server, context.principal(), tools),
						(tools) -> this.headerAnnotations.learn(server.identityKey(), tools)),
				this.toolListMaxBytes, FilteredResponse.Unreadable.WITHHOLD);
		return StageDecision.wrap(new IdentityEncodingRequest(exchange.request()), filtering,
				(failure) -> finish(exchange, filtering, failure));
	}

	@Override
	public void describe(McpRequestContext context, BiConsumer<String, String> attribute) {
		if (context.grantIndex() >= 0) {
			attribute.accept(StageAttributes.GRANT, "grants[" + context.grantIndex() + "]");
		}
	}

	/**
	 * Sends on what the filter held back; a stream committed already just ends for its
	 * client, and the refusal is recorded for the audit line only.
	 */
	private @Nullable Throwable finish(McpExchange exchange, FilteredResponse filtering, @Nullable Throwable failure)
			throws IOException {
		if (failure == null && !filtering.finish()) {
			this.refusals.refuse(exchange, GatewayErrors.UPSTREAM_REPLY_UNFILTERABLE);
		}
		return failure;
	}

	/**
	 * A GET that resumes a stream ({@code Last-Event-ID}, 2025-11-25): the upstream may
	 * replay on it the events of an earlier POST, a {@code tools/list} response among
	 * them, which must be filtered as the POST's own reply was.
	 */
	private static boolean isResumedStream(HttpServletRequest request, @Nullable JsonRpcMessage message) {
		return message == null && "GET".equals(request.getMethod()) && request.getHeader(LAST_EVENT_ID) != null;
	}

	private Set<String> callable(McpServerPolicy server, @Nullable McpPrincipal principal, List<String> tools) {
		Set<String> callable = new HashSet<>();
		for (String tool : tools) {
			if (this.grants.mayCallTool(server, principal, tool)) {
				callable.add(tool);
			}
		}
		return callable;
	}

}
