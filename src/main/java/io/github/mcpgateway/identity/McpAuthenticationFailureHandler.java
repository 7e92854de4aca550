package io.github.mcpgateway.identity;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.security.authentication.AuthenticationServiceException;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.authentication.AuthenticationFailureHandler;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.GatewayErrors;

/**
 * Tells a rejected token from a gateway that cannot check tokens. A rejected token goes
 * to the entry point (401); a failure to verify at all (the issuer's JWKS unreachable) is
 * the gateway's problem, answered 503 {@code identity_unavailable} with
 * {@code Retry-After} instead of Spring's generic 500, and logged without the token.
 */
record McpAuthenticationFailureHandler(McpAuthenticationEntryPoint entryPoint,
		GatewayErrorRenderer errorRenderer) implements AuthenticationFailureHandler {

	private static final Log logger = LogFactory.getLog(McpAuthenticationFailureHandler.class);

	@Override
	public void onAuthenticationFailure(HttpServletRequest request, HttpServletResponse response,
			AuthenticationException exception) throws IOException, ServletException {
		if (exception instanceof AuthenticationServiceException) {
			logger.warn("Cannot verify bearer tokens: " + exception.getClass().getSimpleName() + " ("
					+ ((exception.getCause() != null) ? exception.getCause().getClass().getSimpleName() : "no cause")
					+ ")");
			GatewayErrorRenderer.closeIfBodyUnread(request, response);
			this.errorRenderer.render(response, GatewayErrors.IDENTITY_UNAVAILABLE, null);
			return;
		}
		this.entryPoint.commence(request, response, exception);
	}

}
