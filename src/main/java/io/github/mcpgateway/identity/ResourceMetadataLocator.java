package io.github.mcpgateway.identity;

import java.net.URI;
import java.util.Locale;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import org.springframework.web.util.UriComponents;
import org.springframework.web.util.UriComponentsBuilder;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * The canonical resource URIs of the gateway (RFC 8707, MCP authorization) and where
 * their RFC 9728 protected-resource metadata lives. One place computes them, so that the
 * metadata's {@code resource}, the {@code resource_metadata} of a 401 challenge and the
 * audience a token must carry always name the same URI.
 * <ul>
 * <li>The base is {@code gateway.identity.resource-base-url} when set (the public URL of
 * the gateway behind an ingress); otherwise it is built from the request (scheme, host,
 * port and context path as the servlet container sees them, so forwarded headers count
 * only where the container trusts them).</li>
 * <li>A server's resource is {@code <base><server path>}, for example
 * {@code https://mcp.example.com/mcp/team/tickets}; any other path's resource is the
 * gateway itself, {@code <base>}.</li>
 * <li>Its metadata is {@code <base>/.well-known/oauth-protected-resource<server path>}
 * (RFC 9728 section 3.1: the well-known segment goes before the resource's path).</li>
 * <li>A path no server is on but where a policy could put one
 * ({@link McpServerPolicy#couldServe}) is treated as a server path: its resource is
 * {@code <base><path>} and its metadata the same well-known URL, so that an
 * unauthenticated caller cannot tell an {@code oauth} server's path from an unknown one
 * by its 401 or its metadata. Any other path's resource is the gateway itself.</li>
 * </ul>
 * Canonical form: scheme and host in lower case, no query, no fragment, no trailing
 * slash.
 */
public final class ResourceMetadataLocator {

	public static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

	private final ServerLocator servers;

	private final @Nullable String configuredBase;

	public ResourceMetadataLocator(ServerLocator servers, @Nullable URI resourceBaseUrl) {
		this.servers = servers;
		this.configuredBase = (resourceBaseUrl != null) ? canonical(UriComponentsBuilder.fromUri(resourceBaseUrl))
				: null;
	}

	/**
	 * The resource the request is for: its server's or virtual server's, else the
	 * gateway's own.
	 */
	public String resourceUri(HttpServletRequest request) {
		McpServerPolicy server = this.servers.serverOf(request);
		VirtualServerPolicy virtual = (server == null) ? this.servers.virtualServerOf(request) : null;
		return (virtual != null) ? base(request) + virtual.path() : resourceUri(request, server);
	}

	public String resourceUri(HttpServletRequest request, @Nullable McpServerPolicy server) {
		return base(request) + ((server != null) ? server.path() : "");
	}

	/** The metadata document of the request's resource. */
	public String metadataUrl(HttpServletRequest request) {
		McpServerPolicy server = this.servers.serverOf(request);
		if (server != null) {
			return base(request) + WELL_KNOWN + server.path();
		}
		String path = UrlPathHelper.defaultInstance.getPathWithinApplication(request);
		return base(request) + WELL_KNOWN + (McpServerPolicy.couldServe(path) ? path : "");
	}

	/** The gateway's own resource URI, which every server's resource URI starts with. */
	public String base(HttpServletRequest request) {
		if (this.configuredBase != null) {
			return this.configuredBase;
		}
		return canonical(ServletUriComponentsBuilder.fromContextPath(request));
	}

	private static String canonical(UriComponentsBuilder builder) {
		UriComponents uri = builder.replaceQuery(null).fragment(null).build();
		String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : null;
		String host = (uri.getHost() != null) ? uri.getHost().toLowerCase(Locale.ROOT) : null;
		String text = UriComponentsBuilder.newInstance()
			.scheme(scheme)
			.host(host)
			.port(uri.getPort())
			.path(uri.getPath())
			.build()
			.toUriString();
		return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
	}

}
