package io.github.mcpgateway.policy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.condition.ConditionInput;
import io.github.mcpgateway.principal.IdentityMode;

/**
 * A virtual server: one path that serves the tools (and, as they are added, the prompts,
 * resources and tasks) of several servers of the same policy file, its members, each
 * under a prefix the operator chose (ADR 0021). A virtual server has no upstream of its
 * own: every request it routes is the member's request, decided by the member's rules,
 * and further narrowed by the virtual server's own grants and limits.
 *
 * <p>
 * Constructed only by {@link PolicyParser}; the parser also checks what needs the whole
 * file (members that exist, their identity mode, paths and UIDs unique across servers and
 * virtual servers).
 *
 * @param namespace the namespace, as a server's
 * @param name the name, unique within its namespace among servers and virtual servers
 * @param uid the stable UID; required, because a virtual session is bound to it
 * @param path the path the gateway serves the virtual server on
 * @param members the servers it serves, in order; at least one
 * @param grants further grants a call must also meet, on the prefixed names; omitted
 * means the members' grants alone decide
 * @param limits quotas on the virtual server's own requests, charged with the member's
 * own limits on each client message routed to one member, in buckets its members share
 * ({@code tools} patterns on the prefixed names); none when omitted
 */
public record VirtualServerPolicy(String namespace, String name, String uid, String path,
		@Nullable List<Member> members, @Nullable List<Grant> grants, @Nullable List<RateLimit> limits) {

	/**
	 * What ends a prefix in an exposed name ({@code notes_echo}): a prefix has no
	 * {@code _}, so the first one splits a name and two members' names can never be
	 * equal.
	 */
	public static final char SEPARATOR = '_';

	public VirtualServerPolicy {
		if (namespace == null || namespace.isBlank() || name == null || name.isBlank()) {
			throw new IllegalArgumentException("namespace and name are required");
		}
		if (uid == null || uid.isBlank()) {
			throw new IllegalArgumentException("uid is required: a virtual session is bound to it");
		}
		if (path == null || !McpServerPolicy.couldServe(path)) {
			throw new IllegalArgumentException("path must start with '/', must not end with '/', must be a plain,"
					+ " normalised URL path and must not be under a reserved path");
		}
		if (members == null || members.isEmpty()) {
			throw new IllegalArgumentException("members: a virtual server needs at least one member");
		}
		members = List.copyOf(requireDistinct(members));
		grants = (grants != null) ? List.copyOf(grants) : List.of();
		limits = (limits != null) ? List.copyOf(limits) : List.of();
		// A virtual server always has a verified principal (canServe), so its grants
		// follow the rules of an oauth server's.
		McpServerPolicy.validateGrants(grants, IdentityMode.OAUTH);
		McpServerPolicy.requireUniqueNames(limits);
	}

	/**
	 * How callers of the virtual server are verified: its members' mode, which
	 * {@link PolicyParser} makes one for all members and never {@code delegated-header}.
	 * Derived rather than stored, so that the file has nothing to write for it and it can
	 * never disagree with the members'.
	 * @param policy the policy that holds this virtual server and its members
	 * @throws IllegalArgumentException when {@code policy} does not hold the first member
	 */
	public IdentityMode identity(Policy policy) {
		String first = this.members.get(0).server();
		McpServerPolicy member = policy.named(first);
		if (member == null) {
			throw new IllegalArgumentException(
					"the policy does not hold " + first + ", a member of " + qualifiedName());
		}
		return member.identity();
	}

	/** The virtual server as grant conditions read it ({@code server.namespace}, ...). */
	public ConditionInput.Server conditionView() {
		return new ConditionInput.Server(this.namespace, this.name, this.uid);
	}

	/**
	 * Whether the virtual server's own grants narrow its members' {@code kind} items:
	 * tools as soon as it has grants, prompts and resources only when one of its grants
	 * lists some (as a server {@link McpServerPolicy#governs} them).
	 */
	public boolean narrows(Grant.Item kind) {
		return switch (kind) {
			case TOOL -> !this.grants.isEmpty();
			case PROMPT -> this.grants.stream().anyMatch((grant) -> !grant.prompts().isEmpty());
			case RESOURCE -> this.grants.stream().anyMatch((grant) -> !grant.resources().isEmpty());
		};
	}

	/** {@code namespace/name}, as a server's. */
	public String qualifiedName() {
		return this.namespace + "/" + this.name;
	}

	/** The member whose prefix starts {@code exposedName}, or {@code null}. */
	public @Nullable Member memberOf(String exposedName) {
		int end = exposedName.indexOf(SEPARATOR);
		if (end <= 0) {
			return null;
		}
		String prefix = exposedName.substring(0, end);
		for (Member member : this.members) {
			if (member.prefix().equals(prefix)) {
				return member;
			}
		}
		return null;
	}

	private static List<Member> requireDistinct(List<Member> members) {
		Set<String> prefixes = new HashSet<>();
		Set<String> servers = new HashSet<>();
		for (int i = 0; i < members.size(); i++) {
			Member member = members.get(i);
			if (member == null) {
				throw new IllegalArgumentException("members[" + i + "]: an entry must not be empty");
			}
			if (!prefixes.add(member.prefix())) {
				throw new IllegalArgumentException("members[" + i + "].prefix: " + member.prefix() + " is used twice");
			}
			if (!servers.add(member.server())) {
				throw new IllegalArgumentException(
						"members[" + i + "].server: " + member.server() + " is a member twice");
			}
		}
		return members;
	}

	/**
	 * One member of a virtual server.
	 *
	 * @param server the member: {@code namespace/name} of a server in the same file
	 * @param prefix what its names are exposed under ({@code notes} exposes {@code echo}
	 * as {@code notes_echo}): 1 to 16 lower-case letters, digits or {@code -}, starting
	 * with a letter, no {@code _}; stable across reloads, so a name never shifts when
	 * other members join or leave
	 * @param tools the member's tools the virtual server serves (names or patterns, as a
	 * grant's, on the member's own names); omitted means all
	 * @param prompts the member's prompts it serves, likewise; omitted means all
	 * @param resources the member's resources it serves: URIs or patterns, matched
	 * against a resource's URI and a template's {@code uriTemplate} as written (as a
	 * grant's); omitted means all
	 */
	public record Member(String server, String prefix, @Nullable List<String> tools, @Nullable List<String> prompts,
			@Nullable List<String> resources) {

		/** A member serving all its prompts and resources. */
		public Member(String server, String prefix, @Nullable List<String> tools) {
			this(server, prefix, tools, null, null);
		}

		private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9-]{0,15}");

		public Member {
			if (server == null || server.isBlank() || server.indexOf('/') <= 0) {
				throw new IllegalArgumentException("server must name a server of this file as namespace/name");
			}
			if (prefix == null || !PREFIX.matcher(prefix).matches()) {
				throw new IllegalArgumentException(
						"prefix must be 1 to 16 lower-case letters, digits or '-', starting with a letter (no '_')");
			}
			tools = selection("tools", "tool names", tools);
			prompts = selection("prompts", "prompt names", prompts);
			resources = selection("resources", "resource URIs", resources);
		}

		private static List<String> selection(String field, String what, @Nullable List<String> items) {
			if (items == null) {
				return List.of("*");
			}
			if (items.isEmpty() || items.stream().anyMatch((item) -> item == null || item.isBlank())) {
				throw new IllegalArgumentException(
						field + ": list " + what + " or patterns, none blank, or omit it for all");
			}
			return List.copyOf(items);
		}

		/** The member's own name of {@code exposedName}, which {@link #expose} made. */
		public String localName(String exposedName) {
			return exposedName.substring(this.prefix.length() + 1);
		}

		/** The name a client sees for the member's {@code localName}. */
		public String expose(String localName) {
			return this.prefix + SEPARATOR + localName;
		}

		/** Whether the virtual server serves the member's tool {@code localName}. */
		public boolean serves(String localName) {
			return serves(Grant.Item.TOOL, localName);
		}

		/**
		 * Whether the virtual server serves the member's {@code kind} item
		 * {@code localName}: a tool or prompt by its own name, a resource by its URI (or
		 * a template by its {@code uriTemplate}).
		 */
		public boolean serves(Grant.Item kind, String localName) {
			return switch (kind) {
				case TOOL -> Grant.matchesAny(this.tools, localName);
				case PROMPT -> Grant.matchesAny(this.prompts, localName);
				case RESOURCE -> Grant.matchesAny(this.resources, localName);
			};
		}

	}

	/** Virtual servers need a verified caller: their sessions are bound to one. */
	static boolean canServe(IdentityMode memberIdentity) {
		return memberIdentity != IdentityMode.DELEGATED_HEADER;
	}

}
