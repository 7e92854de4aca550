package io.github.mcpgateway.policy.condition;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import dev.cel.runtime.CelVariableResolver;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The values a condition reads (the environment {@link ConditionLanguage} declares), for
 * one request. {@code arguments} and {@code params} are views over the request's parsed
 * tree ({@link JsonValues}), converted as the expression reads them. Not thread-safe: one
 * request's input.
 *
 * <ul>
 * <li>{@code principal}: {@code human}, and {@code agent} and {@code team} when the
 * principal has them; no value at all on a server without a verified principal
 * ({@code delegated-header}, whose grants the parser refuses a condition on it), so that
 * no expression over it is true there;
 * <li>{@code server}: {@code namespace}, {@code name}, and {@code uid} when it has one;
 * <li>{@code method}: the JSON-RPC method ({@code tools/call}, {@code prompts/get}, ...);
 * <li>{@code tool}: the tool of a {@code tools/call}, the empty string otherwise;
 * <li>{@code arguments}: {@code params.arguments} of a {@code tools/call} or
 * {@code prompts/get}, an empty map when absent;
 * <li>{@code params}: the request's whole {@code params}, an empty map when absent.
 * </ul>
 */
public final class ConditionInput implements CelVariableResolver {

	private final Server server;

	private final @Nullable McpPrincipal principal;

	private final String method;

	private final String tool;

	private final @Nullable JsonNode params;

	private @Nullable Object arguments;

	private @Nullable Object paramValues;

	private @Nullable Map<String, String> principalValue;

	private @Nullable Map<String, String> serverValue;

	private ConditionInput(Server server, @Nullable McpPrincipal principal, String method, String tool,
			@Nullable JsonNode params) {
		this.server = server;
		this.principal = principal;
		this.method = method;
		this.tool = tool;
		this.params = (params != null && params.isObject()) ? params : null;
	}

	/**
	 * A request: {@code method} with its {@code params} ({@code null} when it has none),
	 * naming {@code tool} when it is a {@code tools/call}.
	 */
	public static ConditionInput of(Server server, @Nullable McpPrincipal principal, String method,
			@Nullable String tool, @Nullable JsonNode params) {
		return new ConditionInput(server, principal, method, (tool != null) ? tool : "", params);
	}

	/**
	 * What a list reply knows of a later request for one of its items: no arguments or
	 * params (conditions that read them are not evaluated at list time).
	 */
	public static ConditionInput listing(Server server, @Nullable McpPrincipal principal, String method,
			@Nullable String tool) {
		return of(server, principal, method, tool, null);
	}

	/**
	 * The server a request is for, as conditions read it ({@code server.namespace},
	 * {@code server.name}, {@code server.uid}).
	 */
	public record Server(String namespace, String name, @Nullable String uid) {
	}

	@Override
	public Optional<Object> find(String name) {
		return Optional.ofNullable(switch (name) {
			case "principal" -> principal();
			case "server" -> server();
			case "method" -> this.method;
			case "tool" -> this.tool;
			case "arguments" -> arguments();
			case "params" -> params();
			default -> null;
		});
	}

	private Object arguments() {
		if (this.arguments == null) {
			JsonNode given = (this.params != null) ? this.params.get("arguments") : null;
			this.arguments = (given != null && given.isObject()) ? JsonValues.valueOf(given) : Map.of();
		}
		return this.arguments;
	}

	private Object params() {
		if (this.paramValues == null) {
			this.paramValues = (this.params != null) ? JsonValues.valueOf(this.params) : Map.of();
		}
		return this.paramValues;
	}

	private @Nullable Map<String, String> principal() {
		if (this.principal == null) {
			// No verified principal: the variable has no value, and any condition that
			// reads it (has() and in included) is not true.
			return null;
		}
		if (this.principalValue == null) {
			Map<String, String> value = new HashMap<>(4);
			value.put("human", this.principal.human());
			putIfPresent(value, "agent", this.principal.agent());
			putIfPresent(value, "team", this.principal.team());
			this.principalValue = Map.copyOf(value);
		}
		return this.principalValue;
	}

	private Map<String, String> server() {
		if (this.serverValue == null) {
			Map<String, String> value = new HashMap<>(4);
			value.put("namespace", this.server.namespace());
			value.put("name", this.server.name());
			putIfPresent(value, "uid", this.server.uid());
			this.serverValue = Map.copyOf(value);
		}
		return this.serverValue;
	}

	private static void putIfPresent(Map<String, String> map, String key, @Nullable String value) {
		if (value != null) {
			map.put(key, value);
		}
	}

}
