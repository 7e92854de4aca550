package io.github.mcpgateway.policy;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * An immutable, validated snapshot of the policy file. Published whole by
 * {@link LivePolicy}, so a request sees either the old or the new policy, never a mix.
 *
 * @param version the first 12 hex characters of the SHA-256 of the file's bytes
 * @param loadedAt when this snapshot was published
 * @param serversByPath the servers, keyed by the path the gateway serves them on
 */
public record Policy(String version, Instant loadedAt, Map<String, McpServerPolicy> serversByPath) {

	public Policy {
		serversByPath = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(serversByPath));
	}

	static Policy of(String version, Instant loadedAt, List<McpServerPolicy> servers) {
		Map<String, McpServerPolicy> byPath = new LinkedHashMap<>();
		servers.forEach((server) -> byPath.put(server.path(), server));
		return new Policy(version, loadedAt, byPath);
	}

	/** The server served on exactly {@code path}, or {@code null}. */
	public @Nullable McpServerPolicy serverAt(String path) {
		return this.serversByPath.get(path);
	}

	/**
	 * The server an operator names: by the path it is served on, its {@code uid}, or
	 * {@code namespace/name}; {@code null} when none matches.
	 */
	public @Nullable McpServerPolicy find(String reference) {
		McpServerPolicy byPath = serverAt(reference);
		if (byPath != null) {
			return byPath;
		}
		for (McpServerPolicy server : this.serversByPath.values()) {
			if (reference.equals(server.uid()) || reference.equals(server.qualifiedName())) {
				return server;
			}
		}
		return null;
	}

	public Collection<McpServerPolicy> servers() {
		return this.serversByPath.values();
	}

}
