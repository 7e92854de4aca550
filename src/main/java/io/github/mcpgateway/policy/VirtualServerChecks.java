package io.github.mcpgateway.policy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.github.mcpgateway.principal.IdentityMode;

/**
 * The checks of the {@code virtual-servers} list that need the whole file (ADR 0021); a
 * virtual server's own fields are checked by its record when it is bound.
 *
 * <ul>
 * <li>Every member names a server of the file by {@code namespace/name}; a virtual server
 * is no member (virtual servers do not nest).</li>
 * <li>No member is {@code delegated-header}, and all members share one identity mode: a
 * virtual session is bound to one verified principal, which every member must accept as
 * verified the same way ({@link VirtualServerPolicy#identity}).</li>
 * <li>Paths, UIDs and {@code namespace/name} are unique across servers and virtual
 * servers: a path selects one thing to serve, and a reference (explain, audit) names one
 * thing.</li>
 * </ul>
 *
 * Each error names the file, the line and the field as the parser's own do:
 * {@code policy.yaml line 31 (virtual-servers[0].members[1].server): demo/notes is not a server of this file}.
 */
final class VirtualServerChecks {

	private final String source;

	private final YamlLineLocator lines;

	VirtualServerChecks(String source, YamlLineLocator lines) {
		this.source = source;
		this.lines = lines;
	}

	/**
	 * @throws PolicyException at the first violation, in file order
	 */
	void check(List<McpServerPolicy> servers, List<VirtualServerPolicy> virtualServers) {
		Map<String, McpServerPolicy> byName = new HashMap<>();
		Map<String, String> paths = new HashMap<>();
		Map<String, String> uids = new HashMap<>();
		for (McpServerPolicy server : servers) {
			byName.put(server.qualifiedName(), server);
			paths.put(server.path(), "server " + server.qualifiedName());
			if (server.uid() != null) {
				uids.put(server.uid(), "server " + server.qualifiedName());
			}
		}
		Set<String> virtualNames = new HashSet<>();
		virtualServers.forEach((virtual) -> {
			if (virtual != null) {
				virtualNames.add(virtual.qualifiedName());
			}
		});
		Set<String> seenNames = new HashSet<>(byName.keySet());
		for (int i = 0; i < virtualServers.size(); i++) {
			VirtualServerPolicy virtual = virtualServers.get(i);
			if (virtual == null) {
				throw new PolicyException(
						this.source + " (virtual-servers[" + i + "]): a virtual server entry must not be empty");
			}
			String self = "virtual server " + virtual.qualifiedName();
			String pathOwner = paths.putIfAbsent(virtual.path(), self);
			if (pathOwner != null) {
				throw error(i, "path", "path " + virtual.path() + " is used by " + pathOwner);
			}
			String uidOwner = uids.putIfAbsent(virtual.uid(), self);
			if (uidOwner != null) {
				throw error(i, "uid", "uid " + virtual.uid() + " is used by " + uidOwner);
			}
			if (!seenNames.add(virtual.qualifiedName())) {
				throw error(i, "name",
						virtual.qualifiedName() + " is declared twice (servers and virtual servers share names)");
			}
			checkMembers(i, virtual, byName, virtualNames);
		}
	}

	private void checkMembers(int index, VirtualServerPolicy virtual, Map<String, McpServerPolicy> servers,
			Set<String> virtualNames) {
		McpServerPolicy first = null;
		for (int j = 0; j < virtual.members().size(); j++) {
			String field = "members[" + j + "].server";
			String name = virtual.members().get(j).server();
			McpServerPolicy member = servers.get(name);
			if (member == null) {
				throw error(index, field,
						virtualNames.contains(name)
								? name + " is a virtual server; a member must be a server (virtual servers do not nest)"
								: name + " is not a server of this file (members name servers as namespace/name)");
			}
			if (!VirtualServerPolicy.canServe(member.identity())) {
				throw error(index, field,
						name + " uses delegated-header identity; a virtual server needs a verified caller"
								+ " (oauth or adapter-certificate), because its session is bound to one");
			}
			if (first == null) {
				first = member;
			}
			else if (member.identity() != first.identity()) {
				throw error(index, field,
						name + " uses " + spelled(member.identity()) + " identity but members[0] ("
								+ first.qualifiedName() + ") uses " + spelled(first.identity())
								+ "; all members of a virtual server share one identity mode");
			}
		}
	}

	private PolicyException error(int index, String field, String message) {
		String pointer = "/virtual-servers/" + index + "/" + field.replace('.', '/').replaceAll("\\[(\\d+)]", "/$1");
		int line = this.lines.lineOf(pointer);
		return new PolicyException(this.source + ((line > 0) ? " line " + line : "") + " (virtual-servers[" + index
				+ "]." + field + "): " + message);
	}

	/** The mode as the policy file spells it. */
	private static String spelled(IdentityMode mode) {
		return mode.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

}
