package io.github.mcpgateway.policy;

import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.condition.ConditionInput;
import io.github.mcpgateway.principal.IdentityMode;

/**
 * One MCP server as the policy file declares it. Constructed only by
 * {@link PolicyParser}, which validates every field; instances are immutable.
 *
 * @param namespace the namespace (for example a Kubernetes namespace), used in audit and
 * metrics
 * @param name the server name, unique within its namespace
 * @param uid the server's stable UID; idempotency keys are scoped to it, so a server
 * without one cannot serve keyed requests
 * @param upstream the absolute {@code http} or {@code https} URL of the upstream MCP
 * endpoint; for a server the gateway runs itself ({@code stdio}), {@code stdio:} and the
 * server's {@code namespace/name} ({@link #stdioUpstream})
 * @param stdio the command of a server the gateway runs as a child process (ADR 0023),
 * {@code null} for a server at an {@code upstream} URL; a server has one or the other
 * @param path the path the gateway serves this server on, for example
 * {@code /mcp/payments/ledger}
 * @param identity how callers are verified; {@code oauth} when omitted
 * @param grants who may call which tools; no grant means nobody may
 * @param limits quotas on the server's requests ({@link RateLimit}); none when omitted
 * @param upstreamAuth the credential sent upstream; {@link UpstreamAuth#NONE} when
 * omitted
 */
public record McpServerPolicy(String namespace, String name, @Nullable String uid, URI upstream,
		@Nullable StdioUpstream stdio, String path, @Nullable IdentityMode identity, @Nullable List<Grant> grants,
		@Nullable List<RateLimit> limits, @JsonProperty("upstream-auth") @Nullable UpstreamAuth upstreamAuth) {

	private static final List<String> RESERVED_PREFIXES = List.of("/.well-known", "/actuator", "/demo", "/error");

	public McpServerPolicy {
		requireText(namespace, "namespace");
		requireText(name, "name");
		if (uid != null && uid.isBlank()) {
			throw new IllegalArgumentException("uid must not be blank; omit it if the server has none");
		}
		if (stdio != null) {
			upstream = stdioUpstream(namespace, name, upstream);
		}
		else {
			validateUpstream(upstream);
		}
		validatePath(path);
		identity = (identity != null) ? identity : IdentityMode.OAUTH;
		validateGrants((grants != null) ? grants : List.of(), identity);
		grants = (grants != null) ? List.copyOf(grants) : List.of();
		limits = (limits != null) ? List.copyOf(limits) : List.of();
		requireUniqueNames(limits);
		upstreamAuth = (upstreamAuth != null) ? upstreamAuth : UpstreamAuth.NONE;
		validateUpstreamAuth(identity, upstreamAuth);
		if (stdio != null && upstreamAuth.mode() != UpstreamAuth.Mode.NONE) {
			throw new IllegalArgumentException(
					"upstream-auth sends a credential over HTTP; a stdio server gets its credentials from stdio.environment");
		}
	}

	/**
	 * The {@code upstream} of a stdio server: {@code stdio:<namespace>/<name>}, which
	 * names the server in traces and in the policy endpoint and which no HTTP client can
	 * reach. A server given both an {@code upstream} URL and a command is refused.
	 */
	private static URI stdioUpstream(String namespace, String name, @Nullable URI given) {
		URI upstream = URI.create("stdio:" + namespace + "/" + name);
		if (given != null && !given.equals(upstream)) {
			throw new IllegalArgumentException("a server has an upstream URL or a stdio command, not both");
		}
		return upstream;
	}

	/** Whether the gateway runs this server itself, as a child process (ADR 0023). */
	public boolean runsStdio() {
		return this.stdio != null;
	}

	/**
	 * The server's stable identity in keys (session bindings, cached upstream tokens):
	 * {@code uid:<uid>}, or {@code name:<namespace>/<name>} for a server without a UID.
	 */
	public String identityKey() {
		return (this.uid != null) ? "uid:" + this.uid : "name:" + qualifiedName();
	}

	/**
	 * Whether the server's {@code kind} items are governed one by one: tools always;
	 * prompts and resources only when one of the server's grants lists some (a policy
	 * that lists none keeps them open to anyone a grant applies to).
	 */
	public boolean governs(Grant.Item kind) {
		return switch (kind) {
			case TOOL -> true;
			case PROMPT -> this.grants.stream().anyMatch((grant) -> !grant.prompts().isEmpty());
			case RESOURCE -> this.grants.stream().anyMatch((grant) -> !grant.resources().isEmpty());
		};
	}

	/** The server as grant conditions read it ({@code server.namespace}, ...). */
	public ConditionInput.Server conditionView() {
		return new ConditionInput.Server(this.namespace, this.name, this.uid);
	}

	/** {@code namespace/name}, the server's display identity in logs and metrics. */
	public String qualifiedName() {
		return this.namespace + "/" + this.name;
	}

	/**
	 * Grant names are unique on a server (a refusal names the grant); a
	 * {@code delegated-header} server has no verified principal, so a condition there
	 * must not read {@code principal}.
	 */
	static void validateGrants(List<Grant> grants, IdentityMode identity) {
		Set<String> names = new HashSet<>();
		for (int i = 0; i < grants.size(); i++) {
			Grant grant = grants.get(i);
			if (grant == null) {
				throw new IllegalArgumentException("grants: an entry must not be empty");
			}
			if (grant.name() != null && !names.add(grant.name())) {
				throw new IllegalArgumentException("grants: the name " + grant.name() + " is used twice");
			}
			if (identity == IdentityMode.DELEGATED_HEADER && grant.when() != null && grant.when().reads("principal")) {
				throw new IllegalArgumentException("grants[" + i
						+ "].when: a delegated-header server has no verified principal; the condition must not read principal");
			}
		}
	}

	static void requireUniqueNames(List<RateLimit> limits) {
		Set<String> names = new HashSet<>();
		for (RateLimit limit : limits) {
			if (limit == null) {
				throw new IllegalArgumentException("limits: an entry must not be empty");
			}
			if (!names.add(limit.name())) {
				throw new IllegalArgumentException("limits: the name " + limit.name() + " is used twice");
			}
		}
	}

	private static void requireText(@Nullable String value, String field) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException(field + " is required");
		}
	}

	private static void validateUpstream(@Nullable URI upstream) {
		if (upstream == null) {
			throw new IllegalArgumentException("upstream is required (an http or https URL), or stdio (a command)");
		}
		String scheme = (upstream.getScheme() != null) ? upstream.getScheme().toLowerCase(Locale.ROOT) : "";
		if (!(scheme.equals("http") || scheme.equals("https")) || upstream.getHost() == null) {
			throw new IllegalArgumentException("upstream must be an absolute http or https URL");
		}
		if (upstream.getRawQuery() != null || upstream.getRawFragment() != null) {
			throw new IllegalArgumentException("upstream must not have a query or fragment");
		}
		if (upstream.getRawUserInfo() != null) {
			// The policy is shown (health, explain, validate) and holds no secret; a
			// credential for the upstream is upstream-auth's, kept outside the file.
			throw new IllegalArgumentException(
					"upstream must not carry user information (user:password@); send a credential with upstream-auth");
		}
	}

	private static void validateUpstreamAuth(IdentityMode identity, UpstreamAuth upstreamAuth) {
		if (identity == IdentityMode.DELEGATED_HEADER && upstreamAuth.mode() != UpstreamAuth.Mode.NONE) {
			throw new IllegalArgumentException(
					"upstream-auth needs a verified caller; a delegated-header server forwards the caller's own credentials");
		}
		if (identity == IdentityMode.ADAPTER_CERTIFICATE && upstreamAuth.mode() == UpstreamAuth.Mode.TOKEN_EXCHANGE) {
			throw new IllegalArgumentException(
					"token-exchange needs the caller's access token; adapter-certificate callers have none (use client-credentials)");
		}
	}

	private static void validatePath(@Nullable String path) {
		if (path == null || !path.startsWith("/") || path.length() < 2 || path.endsWith("/")) {
			throw new IllegalArgumentException("path must start with '/' and must not end with '/'");
		}
		if (!plain(path)) {
			throw new IllegalArgumentException("path must be a plain, normalised URL path");
		}
		String reserved = reservedPrefixOf(path);
		if (reserved != null) {
			throw new IllegalArgumentException("path must not be under " + reserved);
		}
	}

	/**
	 * Whether a policy could put a server on {@code path} (the rules of {@code path}
	 * above): what the gateway shows about a path no server is on must not differ from
	 * what it shows about such a path (identity's 401 and protected-resource metadata).
	 */
	public static boolean couldServe(String path) {
		return path.startsWith("/") && path.length() >= 2 && !path.endsWith("/") && plain(path)
				&& reservedPrefixOf(path) == null;
	}

	private static boolean plain(String path) {
		boolean dotSegment = java.util.Arrays.stream(path.substring(1).split("/", -1))
			.anyMatch((segment) -> segment.isEmpty() || segment.equals(".") || segment.equals(".."));
		return !dotSegment && path.matches("[A-Za-z0-9._~/-]+");
	}

	private static @Nullable String reservedPrefixOf(String path) {
		for (String reserved : RESERVED_PREFIXES) {
			if (path.equals(reserved) || path.startsWith(reserved + "/")) {
				return reserved;
			}
		}
		return null;
	}

}
