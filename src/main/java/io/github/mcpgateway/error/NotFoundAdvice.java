package io.github.mcpgateway.error;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.servlet.NoHandlerFoundException;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Answers a path nothing serves with the gateway's own {@code 404 not_found} problem
 * details. The gateway serves no static resources
 * ({@code spring.web.resources.add-mappings} is off), and Spring's default answer would
 * name its internals ("No static resource mcp/everything/."), which tells a client who
 * sent a server path with a trailing slash or an extra segment nothing useful.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class NotFoundAdvice {

	private final GatewayErrorRenderer errorRenderer;

	NotFoundAdvice(GatewayErrorRenderer errorRenderer) {
		this.errorRenderer = errorRenderer;
	}

	@ExceptionHandler({ NoHandlerFoundException.class, NoResourceFoundException.class })
	void notFound(HttpServletResponse response) throws IOException {
		this.errorRenderer.renderProblem(response, GatewayErrors.NOT_FOUND);
	}

}
