package io.github.mcpgateway.identity;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.web.access.AccessDeniedHandler;
import org.springframework.util.Assert;
import org.springframework.web.util.UrlPathHelper;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * Renders a Spring Security access denial in the gateway's error shape (403
 * {@code access_denied}).
 */
public final class McpAccessDeniedHandler implements AccessDeniedHandler {

	private final GatewayErrorRenderer errorRenderer;

	public McpAccessDeniedHandler(GatewayErrorRenderer errorRenderer) {
		Assert.notNull(errorRenderer, "errorRenderer must not be null");
		this.errorRenderer = errorRenderer;
	}

	@Override
	public void handle(HttpServletRequest request, HttpServletResponse response,
			AccessDeniedException accessDeniedException) throws IOException {
		GatewayErrorRenderer.closeIfBodyUnread(request, response);
		if (GatewayErrorRenderer.isActuatorPath(UrlPathHelper.defaultInstance.getPathWithinApplication(request))) {
			this.errorRenderer.renderProblem(response, GatewayErrors.OPERATOR_REQUIRED);
			return;
		}
		this.errorRenderer.render(response, GatewayErrors.ACCESS_DENIED, null);
	}

}
