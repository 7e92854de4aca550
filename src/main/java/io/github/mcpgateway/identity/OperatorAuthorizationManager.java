package io.github.mcpgateway.identity;

import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.security.authorization.AuthorizationDecision;
import org.springframework.security.authorization.AuthorizationManager;
import org.springframework.security.authorization.AuthorizationResult;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.access.intercept.RequestAuthorizationContext;

import io.github.mcpgateway.principal.PrincipalPattern;

/**
 * Lets only operators use the non-public Actuator endpoints: a caller verified by OAuth
 * whose principal matches one of {@code gateway.identity.operators}. With no operator
 * configured, nobody can (fail closed). An unauthenticated caller gets 401, any other
 * caller 403.
 */
final class OperatorAuthorizationManager implements AuthorizationManager<RequestAuthorizationContext> {

	private final List<PrincipalPattern> operators;

	OperatorAuthorizationManager(List<PrincipalPattern> operators) {
		this.operators = List.copyOf(operators);
	}

	@Override
	public @Nullable AuthorizationResult authorize(Supplier<? extends @Nullable Authentication> authentication,
			RequestAuthorizationContext context) {
		boolean operator = authentication.get() instanceof McpAuthentication mcp && "oauth".equals(mcp.method())
				&& this.operators.stream().anyMatch((pattern) -> pattern.matches(mcp.getPrincipal()));
		return new AuthorizationDecision(operator);
	}

}
