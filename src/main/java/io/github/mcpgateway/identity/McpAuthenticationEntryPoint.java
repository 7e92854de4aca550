package io.github.mcpgateway.identity;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.core.OAuth2AuthenticationException;
import org.springframework.security.oauth2.server.resource.BearerTokenError;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.util.Assert;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Answers an unauthenticated request: 401 with {@code WWW-Authenticate: Bearer} (RFC 6750
 * section 3) carrying {@code resource_metadata} (RFC 9728 section 5.1), which is how an
 * MCP client discovers the authorization server, and a JSON-RPC error body in the
 * gateway's one error shape.
 *
 * <p>
 * On an {@code adapter-certificate} server the answer is 401 {@code certificate_required}
 * without a bearer challenge, since only a client certificate is accepted there.
 *
 * <p>
 * Without a token the challenge carries no error code (RFC 6750 section 3.1); with a
 * rejected token it carries {@code error="invalid_token"} and a fixed description: the
 * reason a token failed is logged by Spring Security at debug level, never echoed to the
 * client.
 */
public final class McpAuthenticationEntryPoint implements AuthenticationEntryPoint {

	private final ServerLocator servers;

	private final ResourceMetadataLocator metadataLocator;

	private final GatewayErrorRenderer errorRenderer;

	public McpAuthenticationEntryPoint(ServerLocator servers, ResourceMetadataLocator metadataLocator,
			GatewayErrorRenderer errorRenderer) {
		Assert.notNull(servers, "servers must not be null");
		Assert.notNull(metadataLocator, "metadataLocator must not be null");
		Assert.notNull(errorRenderer, "errorRenderer must not be null");
		this.servers = servers;
		this.metadataLocator = metadataLocator;
		this.errorRenderer = errorRenderer;
	}

	@Override
	public void commence(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException authException) throws IOException {
		GatewayErrorRenderer.closeIfBodyUnread(request, response);
		if (this.servers.identityModeOf(request) == IdentityMode.ADAPTER_CERTIFICATE) {
			// No bearer challenge: a token is not accepted here, only a trusted client
			// certificate.
			this.errorRenderer.render(response, GatewayErrors.CERTIFICATE_REQUIRED, null);
			return;
		}
		boolean tokenRejected = authException instanceof OAuth2AuthenticationException oauth
				&& oauth.getError() instanceof BearerTokenError;
		Map<String, String> parameters = new LinkedHashMap<>();
		if (tokenRejected) {
			parameters.put("error", "invalid_token");
			parameters.put("error_description", "The token is invalid, expired or not issued for this resource");
		}
		parameters.put("resource_metadata", this.metadataLocator.metadataUrl(request));
		response.setHeader(HttpHeaders.WWW_AUTHENTICATE, challenge(parameters));
		if (GatewayErrorRenderer.isActuatorPath(UrlPathHelper.defaultInstance.getPathWithinApplication(request))) {
			this.errorRenderer.renderProblem(response,
					tokenRejected ? GatewayErrors.INVALID_TOKEN : GatewayErrors.UNAUTHENTICATED);
			return;
		}
		this.errorRenderer.render(response, tokenRejected ? GatewayErrors.INVALID_TOKEN : GatewayErrors.UNAUTHENTICATED,
				null);
	}

	private static String challenge(Map<String, String> parameters) {
		StringBuilder challenge = new StringBuilder("Bearer");
		String separator = " ";
		for (Map.Entry<String, String> parameter : parameters.entrySet()) {
			challenge.append(separator)
				.append(parameter.getKey())
				.append("=\"")
				.append(parameter.getValue())
				.append('"');
			separator = ", ";
		}
		return challenge.toString();
	}

}
