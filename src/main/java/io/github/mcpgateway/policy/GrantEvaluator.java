package io.github.mcpgateway.policy;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.condition.Condition;
import io.github.mcpgateway.policy.condition.ConditionInput;
import io.github.mcpgateway.policy.condition.ConditionLimits;
import io.github.mcpgateway.policy.condition.ConditionResult;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Decides from a server's grants whether a principal may use the server and an item (a
 * tool, prompt or resource). The one implementation of that rule: the grant stage, the
 * list filters, the decision-explain endpoint and {@code validate} all ask it.
 *
 * <p>
 * A principal may use a server (initialize, list, ...) when at least one grant applies to
 * it, and may use an item when a grant that applies to it lists the item and, if the
 * grant has a condition ({@code when}), the condition is true for the request. Without a
 * verified principal ({@code delegated-header} servers) every grant applies: the upstream
 * authenticates the caller, the gateway only limits the items. Grants are read in file
 * order; the first that allows the request is the one reported.
 *
 * <p>
 * <b>List time and call time.</b> A list reply shows an item when a grant could allow it
 * for some request: a condition that does not read the call ({@code arguments},
 * {@code params}) is evaluated then; one that does is taken as possibly true, and decided
 * when the item is called. A call refused only by conditions that read the call is
 * {@link GrantDecision.Refusal#CONDITIONS_DENY_TOOL} (and so on); refused by conditions
 * that do not, it is refused as an item no grant lists, as the list reply hid it.
 */
public final class GrantEvaluator {

	private final ConditionLimits limits;

	private final GatewayClock clock;

	/** An evaluator with the default condition budget. */
	public GrantEvaluator() {
		this(ConditionLimits.DEFAULTS, GatewayClock.system());
	}

	/**
	 * @param limits the budget of each condition evaluation
	 * @param clock the clock its time is read from
	 */
	public GrantEvaluator(ConditionLimits limits, GatewayClock clock) {
		this.limits = limits;
		this.clock = clock;
	}

	/**
	 * Whether {@code principal} may use {@code server} at all: a request naming no item.
	 */
	public GrantDecision decideServer(McpServerPolicy server, @Nullable McpPrincipal principal) {
		return decideUse(server.grants(), principal);
	}

	private static GrantDecision decideUse(List<Grant> grants, @Nullable McpPrincipal principal) {
		for (int i = 0; i < grants.size(); i++) {
			if (grants.get(i).appliesTo(principal)) {
				return GrantDecision.allowedBy(i, List.of());
			}
		}
		return GrantDecision.NO_GRANT_APPLIES;
	}

	/**
	 * The decision for the request {@code call} of {@code principal} on {@code server},
	 * naming {@code item} of {@code kind}; for a prompt or resource, the server's use
	 * alone unless the server governs that kind one by one
	 * ({@link McpServerPolicy#governs}).
	 */
	public GrantDecision decide(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind, String item,
			ConditionInput call) {
		if (!server.governs(kind)) {
			return decideServer(server, principal);
		}
		return evaluate(server.grants(), server.conditionView(), principal, kind, item, call);
	}

	/**
	 * Whether deciding a request of {@code principal} for {@code item} of {@code kind}
	 * evaluates a condition: a grant with one applies and lists the item before any grant
	 * without one does. Evaluates nothing.
	 */
	public boolean evaluatesConditions(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind,
			String item) {
		if (!server.governs(kind)) {
			return false;
		}
		for (Grant grant : server.grants()) {
			if (grant.appliesTo(principal) && grant.allows(kind, item)) {
				return grant.when() != null;
			}
		}
		return false;
	}

	/**
	 * Whether a list reply may show {@code item} of {@code kind}: some grant could allow
	 * a request for it (the list filters ask it once per item).
	 */
	public boolean mayUse(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind, String item) {
		return evaluate(server.grants(), server.conditionView(), principal, kind, item, null).allowed();
	}

	public boolean mayUseServer(McpServerPolicy server, @Nullable McpPrincipal principal) {
		return decideServer(server, principal).allowed();
	}

	public boolean mayCallTool(McpServerPolicy server, @Nullable McpPrincipal principal, String tool) {
		return mayUse(server, principal, Grant.Item.TOOL, tool);
	}

	/**
	 * The rule itself; {@code call} {@code null} at list time. Allocates only when a
	 * condition is evaluated.
	 */
	private GrantDecision evaluate(List<Grant> grants, ConditionInput.Server server, @Nullable McpPrincipal principal,
			Grant.Item kind, String item, @Nullable ConditionInput call) {
		boolean anyApplies = false;
		int deniedBy = -1;
		List<GrantDecision.Evaluated> evaluated = List.of();
		ConditionInput listing = null;
		for (int i = 0; i < grants.size(); i++) {
			Grant grant = grants.get(i);
			if (!grant.appliesTo(principal)) {
				continue;
			}
			anyApplies = true;
			if (!grant.allows(kind, item)) {
				continue;
			}
			Condition when = grant.when();
			if (when == null || (call == null && when.readsCall())) {
				return GrantDecision.allowedBy(i, evaluated);
			}
			if (call == null && listing == null) {
				listing = ConditionInput.listing(server, principal, methodOf(kind),
						(kind == Grant.Item.TOOL) ? item : null);
			}
			ConditionResult result = when.evaluate((call != null) ? call : listing, this.limits, this.clock);
			evaluated = (evaluated.isEmpty()) ? new ArrayList<>(2) : evaluated;
			evaluated.add(new GrantDecision.Evaluated(i, grant.label(i), when.source(), when.readsCall(), result));
			if (result.allows()) {
				return GrantDecision.allowedBy(i, evaluated);
			}
			if (when.readsCall() && deniedBy < 0) {
				deniedBy = i;
			}
		}
		if (!anyApplies) {
			return GrantDecision.NO_GRANT_APPLIES;
		}
		return (deniedBy >= 0) ? GrantDecision.conditionsDeny(kind, grants.get(deniedBy).label(deniedBy), evaluated)
				: GrantDecision.notListed(kind, evaluated);
	}

	/**
	 * What conditions read of a request on {@code server}: {@code method} with its
	 * {@code params} ({@code null} when it has none), naming {@code tool} when it is a
	 * {@code tools/call}.
	 */
	public static ConditionInput call(McpServerPolicy server, @Nullable McpPrincipal principal, String method,
			@Nullable String tool, @Nullable JsonNode params) {
		return ConditionInput.of(server.conditionView(), principal, method, tool, params);
	}

	/**
	 * The decision on a request nobody sent, for explain and {@code validate}: naming
	 * {@code item} of {@code kind} ({@code null}: a request that names none) with
	 * {@code arguments}, a JSON object ({@code null} for none), decided as the grant
	 * stage decides the real one.
	 */
	public GrantDecision decideRequest(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind,
			@Nullable String item, @Nullable JsonNode arguments) {
		return (item != null) ? decide(server, principal, kind, item, request(server, principal, kind, item, arguments))
				: decideServer(server, principal);
	}

	/**
	 * What conditions read of the request for {@code item} of {@code kind}: the method a
	 * list reply's item is used with ({@link #methodOf}), its {@code params} with the
	 * item's name (or URI) and the arguments.
	 */
	private static ConditionInput request(McpServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind,
			String item, @Nullable JsonNode arguments) {
		return call(server, principal, methodOf(kind), (kind == Grant.Item.TOOL) ? item : null,
				params(kind, item, arguments));
	}

	private static ObjectNode params(Grant.Item kind, String item, @Nullable JsonNode arguments) {
		ObjectNode params = JsonNodeFactory.instance.objectNode();
		params.put((kind == Grant.Item.RESOURCE) ? "uri" : "name", item);
		if (arguments != null) {
			params.set("arguments", arguments);
		}
		return params;
	}

	/**
	 * The decision of a virtual server's own grants ({@link VirtualServerPolicy#grants})
	 * on a request of {@code principal} for the exposed tool {@code tool} (prefixed, as
	 * the grants name it; {@code null}: a request that names no tool) with
	 * {@code arguments} ({@code null} for none), by the same rule as a server's grants:
	 * conditions read the virtual server as {@code server} and the exposed name as
	 * {@code tool}. Only meaningful when the virtual server has grants: without any the
	 * members' grants alone decide, which the caller checks.
	 */
	public GrantDecision decideRequest(VirtualServerPolicy server, @Nullable McpPrincipal principal,
			@Nullable String tool, @Nullable JsonNode arguments) {
		if (tool == null) {
			return decideUse(server.grants(), principal);
		}
		return decideRequest(server, principal, Grant.Item.TOOL, tool, arguments);
	}

	/**
	 * The decision of a virtual server's own grants on a request for its exposed
	 * {@code kind} item {@code item} (a tool or prompt name, prefixed) with
	 * {@code arguments}; only meaningful where the virtual server
	 * {@link VirtualServerPolicy#narrows} that kind.
	 */
	public GrantDecision decideRequest(VirtualServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind,
			String item, @Nullable JsonNode arguments) {
		ConditionInput call = ConditionInput.of(server.conditionView(), principal, methodOf(kind),
				(kind == Grant.Item.TOOL) ? item : null, params(kind, item, arguments));
		return evaluate(server.grants(), server.conditionView(), principal, kind, item, call);
	}

	/**
	 * Whether a virtual server's merged list may show the exposed tool {@code tool} as
	 * far as its own grants go (list time, as {@link #mayUse}).
	 */
	public boolean mayCallTool(VirtualServerPolicy server, @Nullable McpPrincipal principal, String tool) {
		return mayUse(server, principal, Grant.Item.TOOL, tool);
	}

	/**
	 * Whether a virtual server's merged list may show its exposed {@code kind} item
	 * {@code item} as far as its own grants go: always where they do not narrow that
	 * kind.
	 */
	public boolean mayUse(VirtualServerPolicy server, @Nullable McpPrincipal principal, Grant.Item kind, String item) {
		return !server.narrows(kind)
				|| evaluate(server.grants(), server.conditionView(), principal, kind, item, null).allowed();
	}

	/** The method a request for {@code kind} is decided as at list time. */
	public static String methodOf(Grant.Item kind) {
		return switch (kind) {
			case TOOL -> "tools/call";
			case PROMPT -> "prompts/get";
			case RESOURCE -> "resources/read";
		};
	}

}
