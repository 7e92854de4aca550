package io.github.mcpgateway.config;

import java.time.Clock;

import jakarta.servlet.Filter;

import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.RefusalStatuses;
import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.idempotency.IdempotencyFilter;
import io.github.mcpgateway.policy.web.PolicyFilter;
import io.github.mcpgateway.proxy.UpstreamGuardFilter;
import io.github.mcpgateway.request.McpRequestFilter;
import io.github.mcpgateway.routing.ServerResolutionFilter;
import io.github.mcpgateway.session.SessionAndRevocationFilter;
import io.github.mcpgateway.task.TaskFilter;
import io.github.mcpgateway.upstreamauth.UpstreamCredentialFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The request pipeline in one place. Servlet filters run in this order, each after the
 * one before it has let the request through:
 *
 * <ol>
 * <li>routing: {@link ServerResolutionFilter} ({@value #ROUTING_ORDER}), pins the
 * request's server from the policy snapshot live now, for every stage after it;</li>
 * <li>identity: Spring Security ({@value #IDENTITY_ORDER}), verifies the caller;</li>
 * <li>request: {@link McpRequestFilter}, resolves the server, reads and parses the body
 * once, and audits the request when it is done;</li>
 * <li>session and revocation: {@link SessionAndRevocationFilter}, refuses revoked
 * principals and sessions that are unknown, revoked or bound to someone else, and binds
 * new sessions;</li>
 * <li>policy: {@link PolicyFilter}, applies the grants;</li>
 * <li>idempotency: {@link IdempotencyFilter}, the opt-in Idempotency-Key contract;</li>
 * <li>tasks: {@link TaskFilter}, binds the tasks a call creates to its caller and decides
 * every request about a task against its binding and the grants;</li>
 * <li>upstream credentials: {@link UpstreamCredentialFilter}, obtains the token a server
 * with {@code upstream-auth} sends upstream, or refuses before dispatch;</li>
 * <li>upstream guard: {@link UpstreamGuardFilter}, circuit breaker and bulkhead, then the
 * Spring Cloud Gateway route proxies the request.</li>
 * </ol>
 *
 */
@Configuration(proxyBeanMethods = false)
class PipelineConfiguration {

	static final int IDENTITY_ORDER = SecurityFilterProperties.DEFAULT_FILTER_ORDER;

	static final int ROUTING_ORDER = IDENTITY_ORDER - 10;

	static final int REQUEST_ORDER = IDENTITY_ORDER + 10;

	static final int SESSION_ORDER = IDENTITY_ORDER + 20;

	static final int POLICY_ORDER = IDENTITY_ORDER + 30;

	static final int IDEMPOTENCY_ORDER = IDENTITY_ORDER + 40;

	static final int TASK_ORDER = IDENTITY_ORDER + 42;

	static final int UPSTREAM_AUTH_ORDER = IDENTITY_ORDER + 45;

	static final int UPSTREAM_ORDER = IDENTITY_ORDER + 50;

	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

	@Bean
	GatewayErrorRenderer gatewayErrorRenderer(JsonMapper jsonMapper, RequestProperties request,
			IdempotencyProperties idempotency) {
		return new GatewayErrorRenderer(jsonMapper,
				new RefusalStatuses(request.refusalStatus(), idempotency.refusalStatus()));
	}

	@Bean
	FilterRegistrationBean<ServerResolutionFilter> serverResolutionFilterRegistration(ServerResolutionFilter filter) {
		return register(filter, ROUTING_ORDER);
	}

	@Bean
	FilterRegistrationBean<McpRequestFilter> mcpRequestFilterRegistration(McpRequestFilter filter) {
		return register(filter, REQUEST_ORDER);
	}

	@Bean
	FilterRegistrationBean<SessionAndRevocationFilter> sessionAndRevocationFilterRegistration(
			SessionAndRevocationFilter filter) {
		return register(filter, SESSION_ORDER);
	}

	@Bean
	FilterRegistrationBean<PolicyFilter> policyFilterRegistration(PolicyFilter filter) {
		return register(filter, POLICY_ORDER);
	}

	@Bean
	FilterRegistrationBean<IdempotencyFilter> idempotencyFilterRegistration(IdempotencyFilter filter) {
		return register(filter, IDEMPOTENCY_ORDER);
	}

	@Bean
	FilterRegistrationBean<TaskFilter> taskFilterRegistration(TaskFilter filter) {
		return register(filter, TASK_ORDER);
	}

	@Bean
	FilterRegistrationBean<UpstreamCredentialFilter> upstreamCredentialFilterRegistration(
			UpstreamCredentialFilter filter) {
		return register(filter, UPSTREAM_AUTH_ORDER);
	}

	@Bean
	FilterRegistrationBean<UpstreamGuardFilter> upstreamGuardFilterRegistration(UpstreamGuardFilter filter) {
		return register(filter, UPSTREAM_ORDER);
	}

	private static <F extends Filter> FilterRegistrationBean<F> register(F filter, int order) {
		FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(order);
		return registration;
	}

}
