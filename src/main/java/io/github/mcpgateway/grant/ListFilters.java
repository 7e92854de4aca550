package io.github.mcpgateway.grant;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.transport.FilteredResponse;
import io.github.mcpgateway.transport.IdentityEncodingRequest;
import io.github.mcpgateway.transport.ListResultFilter;

/**
 * The list filtering job of the grant stage: a {@code tools/list} reply is filtered to
 * the tools the caller may call (and the {@code x-mcp-header} annotations it shows are
 * learned, {@link ToolHeaderAnnotations}); a {@code prompts/list}, {@code resources/list}
 * or {@code resources/templates/list} reply of a server that governs that kind to the
 * items the caller may use ({@link ListedItems}); a resumed stream ({@code GET} with
 * {@code Last-Event-ID}), which may replay any of them, through each governed kind's
 * filter in turn.
 *
 * <p>
 * Contract: a filtered request goes upstream without {@code Accept-Encoding}, so the
 * reply comes back in a form the gateway can read. A reply that cannot be read exactly
 * (past {@code tool-list-max-size}, or outside {@link #REPLY_LIMITS}) is withheld and
 * answered 502 {@code upstream_reply_unfilterable}; a stream committed already just ends
 * for its client, and the refusal is recorded for the audit line only.
 */
final class ListFilters {

	/**
	 * Bounds on a tools/list reply: wide (tool input schemas nest and carry numbers), but
	 * bounded, so that any reply the gateway filters is one a client reads the same way.
	 */
	static final JsonReadLimits REPLY_LIMITS = new JsonReadLimits(1000, 10_000, 100_000,
			JsonReadLimits.DEFAULT_MAX_STRING_LENGTH);

	private static final String LAST_EVENT_ID = "Last-Event-ID";

	private final GrantEvaluator grants;

	private final ToolHeaderAnnotations annotations;

	private final Refusals refusals;

	private final JsonMapper jsonMapper;

	private final StrictJsonReader replyReader;

	private final int maxBytes;

	/**
	 * @param maxBytes the largest reply filtered
	 * ({@code gateway.policy.tool-list-max-size})
	 */
	ListFilters(GrantEvaluator grants, ToolHeaderAnnotations annotations, Refusals refusals, JsonMapper jsonMapper,
			int maxBytes) {
		Assert.notNull(grants, "grants must not be null");
		Assert.notNull(annotations, "annotations must not be null");
		Assert.notNull(refusals, "refusals must not be null");
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		this.grants = grants;
		this.annotations = annotations;
		this.refusals = refusals;
		this.jsonMapper = jsonMapper;
		this.maxBytes = maxBytes;
		this.replyReader = new StrictJsonReader(REPLY_LIMITS, maxBytes);
	}

	/**
	 * The exchange wrapped so that its reply is filtered, or {@code null} for a request
	 * whose reply lists nothing governed.
	 */
	@Nullable StageDecision decide(McpExchange exchange) {
		McpRequestContext context = exchange.context();
		JsonRpcMessage message = context.message();
		ListedItems listed = ListedItems.of(message);
		if (listed != null && context.server().governs(listed.kind())) {
			return wrap(exchange, List.of(filter(exchange.response(), context, listed)));
		}
		boolean resumed = isResumedStream(exchange.request(), message);
		if (resumed || (message != null && message.isToolList())) {
			return wrap(exchange, toolsAndOthers(exchange, resumed));
		}
		return null;
	}

	/**
	 * The filters of a {@code tools/list} reply, outermost first; for a resumed stream,
	 * with each other governed kind's filter beneath it.
	 */
	private List<FilteredResponse> toolsAndOthers(McpExchange exchange, boolean resumed) {
		McpRequestContext context = exchange.context();
		HttpServletResponse inner = exchange.response();
		List<FilteredResponse> chain = new ArrayList<>(3);
		if (resumed) {
			for (ListedItems others : ListedItems.OTHERS) {
				if (context.server().governs(others.kind())) {
					inner = filter(inner, context, others);
					chain.add(0, (FilteredResponse) inner);
				}
			}
		}
		String server = context.server().identityKey();
		chain.add(0,
				new FilteredResponse(inner,
						new ListResultFilter(this.replyReader, this.jsonMapper, "tools", "name",
								(tools) -> usable(context, Grant.Item.TOOL, tools),
								(tools) -> this.annotations.learn(server, tools)),
						this.maxBytes, FilteredResponse.Unreadable.WITHHOLD));
		return chain;
	}

	private FilteredResponse filter(HttpServletResponse response, McpRequestContext context, ListedItems listed) {
		return new FilteredResponse(response,
				new ListResultFilter(this.replyReader, this.jsonMapper, listed.member(), listed.key(),
						(items) -> usable(context, listed.kind(), items)),
				this.maxBytes, FilteredResponse.Unreadable.WITHHOLD);
	}

	/** The request without {@code Accept-Encoding}, the reply through {@code chain}. */
	private StageDecision wrap(McpExchange exchange, List<FilteredResponse> chain) {
		return StageDecision.wrap(new IdentityEncodingRequest(exchange.request()), chain.get(0),
				(failure) -> finish(exchange, chain, failure));
	}

	private Set<String> usable(McpRequestContext context, Grant.Item kind, List<String> items) {
		Set<String> usable = new HashSet<>();
		for (String item : items) {
			if (this.grants.mayUse(context.server(), context.principal(), kind, item)) {
				usable.add(item);
			}
		}
		return usable;
	}

	/**
	 * Sends on what the filters held back; a stream committed already just ends for its
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
