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
 * @param virtualServersByPath the virtual servers (ADR 0021), keyed likewise
 */
public record Policy(String version, Instant loadedAt, Map<String, McpServerPolicy> serversByPath,
		Map<String, VirtualServerPolicy> virtualServersByPath) {

	public Policy {
		serversByPath = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(serversByPath));
		virtualServersByPath = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(virtualServersByPath));
	}

	static Policy of(String version, Instant loadedAt, List<McpServerPolicy> servers,
			List<VirtualServerPolicy> virtualServers) {
		Map<String, McpServerPolicy> byPath = new LinkedHashMap<>();
		servers.forEach((server) -> byPath.put(server.path(), server));
		Map<String, VirtualServerPolicy> virtualByPath = new LinkedHashMap<>();
		virtualServers.forEach((server) -> virtualByPath.put(server.path(), server));
		return new Policy(version, loadedAt, byPath, virtualByPath);
	}

	/** The virtual server served on exactly {@code path}, or {@code null}. */
	public @Nullable VirtualServerPolicy virtualServerAt(String path) {
		return this.virtualServersByPath.get(path);
	}

	/** The server named {@code namespace/name}, or {@code null}. */
	public @Nullable McpServerPolicy named(String qualifiedName) {
		for (McpServerPolicy server : this.serversByPath.values()) {
			if (server.qualifiedName().equals(qualifiedName)) {
				return server;
			}
		}
		return null;
	}

	public java.util.Collection<VirtualServerPolicy> virtualServers() {
		return this.virtualServersByPath.values();
	}

	/**
	 * The virtual server an operator names: by its path, {@code uid} or
	 * {@code namespace/name}; {@code null} when none matches. Paths, UIDs and names are
	 * unique across servers and virtual servers, so a reference names at most one of this
	 * and {@link #find}.
	 */
	public @Nullable VirtualServerPolicy findVirtual(String reference) {
		return find(this.virtualServersByPath, reference, VirtualServerPolicy::uid, VirtualServerPolicy::qualifiedName);
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
		return find(this.serversByPath, reference, McpServerPolicy::uid, McpServerPolicy::qualifiedName);
	}

	private static <S> @Nullable S find(Map<String, S> byPath, String reference,
			java.util.function.Function<S, @Nullable String> uid, java.util.function.Function<S, String> name) {
		S byPathMatch = byPath.get(reference);
		if (byPathMatch != null) {
			return byPathMatch;
		}
		for (S server : byPath.values()) {
			if (reference.equals(uid.apply(server)) || reference.equals(name.apply(server))) {
				return server;
			}
		}
		return null;
	}

	public Collection<McpServerPolicy> servers() {
		return this.serversByPath.values();
	}

}
