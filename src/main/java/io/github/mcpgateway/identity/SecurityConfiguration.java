package io.github.mcpgateway.identity;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.config.observation.SecurityObservationSettings;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.firewall.HttpFirewall;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * The identity stage: Spring Security as an OAuth2 resource server.
 *
 * <p>
 * How a caller is verified depends on the identity mode of the server its path is on: a
 * bearer JWT ({@code oauth}, also required on paths no server is on), a trusted client
 * certificate ({@code adapter-certificate}), or nothing ({@code delegated-header}: the
 * upstream authenticates). Public documents need nothing (RFC 9728 metadata, the health
 * and Prometheus endpoints, and the demo token endpoint when the demo profile is on). The
 * token is read from the {@code Authorization} header only, never from a query parameter
 * or form field, so it cannot leak into access logs. The gateway keeps no HTTP session.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(IdentityProperties.class)
class SecurityConfiguration {

	/** Paths anyone may read; each serves public, non-sensitive content. */
	static final String[] PUBLIC_PATHS = { ResourceMetadataLocator.WELL_KNOWN,
			ResourceMetadataLocator.WELL_KNOWN + "/**", "/actuator/health", "/actuator/health/**", "/actuator/info",
			"/actuator/prometheus", "/demo/token", "/demo/jwks.json", "/error" };

	/**
	 * Public documents bypass the resource-server chain entirely. Spring Security's own
	 * protected-resource metadata filter knows nothing of server paths or the issuer, so
	 * the gateway serves that document itself
	 * ({@link ProtectedResourceMetadataController}).
	 */
	@Bean
	@Order(1)
	SecurityFilterChain publicDocumentsSecurityFilterChain(HttpSecurity http) throws Exception {
		http.securityMatcher(PUBLIC_PATHS).authorizeHttpRequests((requests) -> requests.anyRequest().permitAll());
		return stateless(http).build();
	}

	/**
	 * Actuator: the operator endpoints. Spring Security's defaults stay on (security
	 * headers among them); callers are verified as on MCP paths.
	 */
	@Bean
	@Order(2)
	SecurityFilterChain actuatorSecurityFilterChain(HttpSecurity http, IdentityProperties properties,
			CallerVerification callers) throws Exception {
		http.securityMatcher("/actuator", "/actuator/**")
			.authorizeHttpRequests((requests) -> requests.anyRequest()
				.access(new OperatorAuthorizationManager(properties.operators())));
		callers.applyTo(http);
		return http.build();
	}

	/**
	 * MCP server paths (and every other path, whose answer is the gateway's 404): the
	 * caller verified as the server's identity mode asks, and nothing else. The chain
	 * keeps only the filters that decide for these paths ({@link McpSecurityFilters}).
	 */
	@Bean
	@Order(3)
	SecurityFilterChain gatewaySecurityFilterChain(HttpSecurity http, ServerLocator servers, CallerVerification callers)
			throws Exception {
		http.authorizeHttpRequests(
				(requests) -> requests.anyRequest().access(new IdentityModeAuthorizationManager(servers)));
		callers.applyTo(http);
		return McpSecurityFilters.trim(http.build());
	}

	@Bean
	CallerVerification callerVerification(JwtDecoder jwtDecoder, IdentityProperties properties, ServerLocator servers,
			ResourceMetadataLocator resources, McpAuthenticationEntryPoint entryPoint,
			McpAccessDeniedHandler accessDeniedHandler, GatewayErrorRenderer errorRenderer) {
		return new CallerVerification(jwtDecoder, properties, servers, resources, entryPoint, accessDeniedHandler,
				errorRenderer);
	}

	/**
	 * What every chain turns off: no HTTP session, no CSRF token (no cookies, no forms),
	 * no saved request, no logout, and no Servlet API integration. Nothing reads the
	 * caller through the Servlet API (getUserPrincipal, isUserInRole): the stages read
	 * the security context. Without it, one filter and one request wrapper less, whose
	 * every getAttribute every later filter walks through.
	 */
	static HttpSecurity stateless(HttpSecurity http) throws Exception {
		return http.sessionManagement((sessions) -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
			.csrf((csrf) -> csrf.disable())
			.requestCache((cache) -> cache.disable())
			.logout((logout) -> logout.disable())
			.servletApi((servletApi) -> servletApi.disable());
	}

	/**
	 * No observation of Spring Security's filters, authentication or authorization: one
	 * per filter per request costs more than it tells, and the gateway's own meters count
	 * requests and decisions.
	 */
	@Bean
	SecurityObservationSettings securityObservationSettings() {
		return SecurityObservationSettings.noObservations();
	}

	/**
	 * Spring Security's strict firewall with its default character rules, checked without
	 * regular expressions ({@link FirewallText}).
	 */
	@Bean
	HttpFirewall httpFirewall() {
		return FirewallText.firewall();
	}

	@Bean
	JwtDecoder jwtDecoder(IdentityProperties properties, GatewayClock clock) {
		return JwtDecoderFactory.create(properties.oauth(), clock);
	}

	@Bean
	ResourceMetadataLocator resourceMetadataLocator(ServerLocator servers, IdentityProperties properties) {
		return new ResourceMetadataLocator(servers, properties.resourceBaseUrl());
	}

	@Bean
	McpAuthenticationEntryPoint mcpAuthenticationEntryPoint(ServerLocator servers, ResourceMetadataLocator locator,
			GatewayErrorRenderer errorRenderer) {
		return new McpAuthenticationEntryPoint(servers, locator, errorRenderer);
	}

	@Bean
	McpAccessDeniedHandler mcpAccessDeniedHandler(GatewayErrorRenderer errorRenderer) {
		return new McpAccessDeniedHandler(errorRenderer);
	}

}
