package io.github.mcpgateway.config;

import java.util.List;

import jakarta.servlet.Filter;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.admission.ClientAddressLimitFilter;
import io.github.mcpgateway.admission.PrincipalLimitFilter;
import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.error.RefusalStatuses;
import io.github.mcpgateway.grant.PolicyStage;
import io.github.mcpgateway.guard.UpstreamGuardStage;
import io.github.mcpgateway.idempotency.IdempotencyProperties;
import io.github.mcpgateway.idempotency.IdempotencyStage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.proxy.ProxyProperties;
import io.github.mcpgateway.quota.QuotaStage;
import io.github.mcpgateway.request.McpAuditListener;
import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.request.PipelineObserver;
import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.request.RequestRefusalCustomizer;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.routing.ServerResolutionFilter;
import io.github.mcpgateway.session.SessionStage;
import io.github.mcpgateway.task.TaskStage;
import io.github.mcpgateway.transport.SilentReplies;
import io.github.mcpgateway.upstreamauth.UpstreamCredentialsStage;
import io.github.mcpgateway.virtual.VirtualServerFilter;

/**
 * The request pipeline in one place. Four servlet filters of the gateway's own run around
 * Spring Security:
 *
 * <ol>
 * <li>the cap per client address: {@link ClientAddressLimitFilter}
 * ({@value #ADDRESS_ORDER}), before anything else of the gateway's, on every path;</li>
 * <li>routing: {@link ServerResolutionFilter} ({@value #ROUTING_ORDER}), pins the
 * request's server from the policy snapshot live now, for every stage after it (Spring
 * Security needs it to choose how to verify the caller);</li>
 * <li>identity: Spring Security ({@value #IDENTITY_ORDER}), verifies the caller;</li>
 * <li>the caps per human: {@link PrincipalLimitFilter} ({@value #PRINCIPAL_ORDER}),
 * requests and listen streams in flight, before the body is read;</li>
 * <li>virtual servers: {@link VirtualServerFilter} ({@value #VIRTUAL_ORDER}), answers a
 * request on a virtual server's path and sends what a member decides through that
 * member's pipeline (ADR 0021); other paths pass;</li>
 * <li>the MCP pipeline: {@link McpPipelineFilter} ({@value #PIPELINE_ORDER}), the request
 * stage (reads and parses the body once, checks the MCP headers) and then these
 * {@link McpStage}s, in this order:
 * <ol>
 * <li>session and revocation: {@link SessionStage}, refuses revoked principals and
 * sessions that are unknown, revoked or bound to someone else, and binds new
 * sessions;</li>
 * <li>policy: {@link PolicyStage}, applies the grants;</li>
 * <li>quota: {@link QuotaStage}, the server's limits (a keyed call is charged only once
 * the Idempotency-Key stage knows it runs);</li>
 * <li>idempotency: {@link IdempotencyStage}, the opt-in Idempotency-Key contract;</li>
 * <li>tasks: {@link TaskStage}, binds the tasks a call creates to its caller and decides
 * every request about a task against its binding and the grants;</li>
 * <li>upstream credentials: {@link UpstreamCredentialsStage}, obtains the token a server
 * with {@code upstream-auth} sends upstream, or refuses before dispatch;</li>
 * <li>upstream guard: {@link UpstreamGuardStage}, circuit breaker and bulkhead;</li>
 * </ol>
 * then the Spring Cloud Gateway route proxies the request.</li>
 * </ol>
 * The order of the stages is the order of their packages that the build enforces
 * ({@code ArchitectureTest}): a stage may use an earlier one, never a later one. With
 * tracing on, two more filters run, ordered where they are registered
 * ({@code tracing.TracingConfiguration}); docs/architecture.md lists every filter.
 */
@Configuration(proxyBeanMethods = false)
class PipelineConfiguration {

	static final int IDENTITY_ORDER = SecurityFilterProperties.DEFAULT_FILTER_ORDER;

	static final int ROUTING_ORDER = IDENTITY_ORDER - 10;

	static final int PIPELINE_ORDER = IDENTITY_ORDER + 10;

	static final int ADDRESS_ORDER = ROUTING_ORDER - 10;

	static final int PRINCIPAL_ORDER = IDENTITY_ORDER + 5;

	static final int VIRTUAL_ORDER = IDENTITY_ORDER + 7;

	/**
	 * The one time source; beans that need only instants inject it as a {@code Clock}.
	 */
	@Bean
	GatewayClock clock() {
		return GatewayClock.system();
	}

	/** Every meter of the gateway has a description ({@code HELP}). */
	@Bean
	static MeterDescriptions meterDescriptions() {
		return new MeterDescriptions();
	}

	@Bean
	GatewayErrorRenderer gatewayErrorRenderer(JsonMapper jsonMapper, RequestProperties request,
			IdempotencyProperties idempotency) {
		return new GatewayErrorRenderer(jsonMapper,
				new RefusalStatuses(request.refusalStatus(), idempotency.refusalStatus()));
	}

	@Bean
	McpPipelineFilter mcpPipelineFilter(ServerLocator servers, RequestProperties properties,
			JsonRpcMessageParser parser, SessionStage session, PolicyStage policy, QuotaStage quota,
			IdempotencyStage idempotency, TaskStage task, UpstreamCredentialsStage upstreamCredentials,
			UpstreamGuardStage upstreamGuard, Refusals refusals,
			ObjectProvider<RequestRefusalCustomizer> refusalCustomizers,
			ObjectProvider<McpAuditListener> auditListeners, GatewayClock clock,
			ObjectProvider<PipelineObserver> observer, GatewayErrorRenderer errors, JsonMapper jsonMapper,
			ProxyProperties proxy) {
		List<McpStage> stages = List.of(session, policy, quota, idempotency, task, upstreamCredentials, upstreamGuard);
		return new McpPipelineFilter(servers, properties, parser, stages, refusals,
				refusalCustomizers.orderedStream().toList(), auditListeners.orderedStream().toList(), clock,
				observer.getIfAvailable(() -> PipelineObserver.NONE), silentReplies(errors, jsonMapper, proxy));
	}

	/** Silent replies turn into event streams only where probes can open them. */
	private static SilentReplies silentReplies(GatewayErrorRenderer errors, JsonMapper jsonMapper,
			ProxyProperties proxy) {
		boolean on = !proxy.silentReplyStreamAfter().isZero() && !proxy.streamProbeInterval().isZero();
		return on ? SilentReplies.on(errors, jsonMapper) : SilentReplies.OFF;
	}

	@Bean
	FilterRegistrationBean<VirtualServerFilter> virtualServerFilterRegistration(VirtualServerFilter filter) {
		return register(filter, VIRTUAL_ORDER);
	}

	@Bean
	FilterRegistrationBean<ServerResolutionFilter> serverResolutionFilterRegistration(ServerResolutionFilter filter) {
		return register(filter, ROUTING_ORDER);
	}

	@Bean
	FilterRegistrationBean<ClientAddressLimitFilter> clientAddressLimitFilterRegistration(
			ClientAddressLimitFilter filter) {
		return register(filter, ADDRESS_ORDER);
	}

	@Bean
	FilterRegistrationBean<PrincipalLimitFilter> principalLimitFilterRegistration(PrincipalLimitFilter filter) {
		return register(filter, PRINCIPAL_ORDER);
	}

	@Bean
	FilterRegistrationBean<McpPipelineFilter> mcpPipelineFilterRegistration(McpPipelineFilter filter) {
		return register(filter, PIPELINE_ORDER);
	}

	private static <F extends Filter> FilterRegistrationBean<F> register(F filter, int order) {
		FilterRegistrationBean<F> registration = new FilterRegistrationBean<>(filter);
		registration.setOrder(order);
		return registration;
	}

}
