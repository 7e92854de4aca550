package io.github.mcpgateway.identity;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.IdentityMode;

/**
 * Serves RFC 9728 OAuth 2.0 protected-resource metadata: one document for the gateway
 * itself and one per server path of the live policy, so that an MCP client that got a 401
 * on {@code /mcp/a/b} finds {@code /.well-known/oauth-protected-resource/mcp/a/b}, and
 * from it the authorization server to get a token from.
 *
 * <p>
 * A path no server is on answers as an {@code oauth} server's path does when a policy
 * could put a server on it ({@link McpServerPolicy#couldServe}), and neither document
 * names the server: an unauthenticated caller cannot probe which paths have a server (the
 * 401 challenge points here for both alike, {@link ResourceMetadataLocator}). A path no
 * policy could serve, and the path of a server that accepts no bearer token, is 404.
 */
@RestController
class ProtectedResourceMetadataController {

	private final LivePolicy livePolicy;

	private final IdentityProperties properties;

	private final ResourceMetadataLocator resources;

	ProtectedResourceMetadataController(LivePolicy livePolicy, IdentityProperties properties,
			ResourceMetadataLocator resources) {
		this.livePolicy = livePolicy;
		this.properties = properties;
		this.resources = resources;
	}

	@GetMapping({ ResourceMetadataLocator.WELL_KNOWN, ResourceMetadataLocator.WELL_KNOWN + "/**" })
	ResponseEntity<Map<String, Object>> metadata(HttpServletRequest request) {
		String path = UrlPathHelper.defaultInstance.getPathWithinApplication(request)
			.substring(ResourceMetadataLocator.WELL_KNOWN.length());
		Map<String, Object> metadata = new LinkedHashMap<>();
		if (path.isEmpty()) {
			metadata.put("resource", this.resources.base(request));
		}
		else {
			McpServerPolicy server = this.livePolicy.current().serverAt(path);
			if ((server != null && server.identity() != IdentityMode.OAUTH)
					|| (server == null && !McpServerPolicy.couldServe(path))) {
				// Only oauth servers accept the issuer's bearer tokens; advertising it
				// elsewhere would send clients for a token the server refuses.
				return ResponseEntity.notFound().build();
			}
			metadata.put("resource", this.resources.base(request) + path);
		}
		List<String> authorizationServers = this.properties.oauth().authorizationServers();
		if (!authorizationServers.isEmpty()) {
			metadata.put("authorization_servers", authorizationServers);
		}
		metadata.put("bearer_methods_supported", List.of("header"));
		return ResponseEntity.ok().cacheControl(CacheControl.noCache()).body(metadata);
	}

}
