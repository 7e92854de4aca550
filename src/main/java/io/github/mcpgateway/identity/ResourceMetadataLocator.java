package io.github.mcpgateway.identity;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.web.servlet.support.ServletUriComponentsBuilder;

import io.github.mcpgateway.policy.McpServerPolicy;

/**
 * Where the RFC 9728 protected-resource metadata of a request's resource lives. For a
 * server path {@code /mcp/a/b} that is
 * {@code <base>/.well-known/oauth-protected-resource/mcp/a/b} (RFC 9728 section 3.1: the
 * well-known segment is inserted before the resource's path); for any other path, the
 * gateway's own {@code <base>/.well-known/oauth-protected-resource}.
 */
public final class ResourceMetadataLocator {

	public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

	private final ServerLocator servers;

	public ResourceMetadataLocator(ServerLocator servers) {
		this.servers = servers;
	}

	public String metadataUrl(HttpServletRequest request) {
		McpServerPolicy server = this.servers.serverOf(request);
		String base = ServletUriComponentsBuilder.fromContextPath(request).replaceQuery(null).toUriString();
		return base + WELL_KNOWN + ((server != null) ? server.path() : "");
	}

}
