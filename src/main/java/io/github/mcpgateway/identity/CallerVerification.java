package io.github.mcpgateway.identity;

import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;

import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * How callers are verified, on every path but the public documents (the actuator chain
 * and the MCP chain alike): a bearer JWT, or a verified adapter certificate where the
 * server asks for one; no HTTP session, no form login, no Servlet API integration. Each
 * chain it is applied to gets filters of its own.
 */
record CallerVerification(JwtDecoder jwtDecoder, IdentityProperties properties, ServerLocator servers,
		ResourceMetadataLocator resources, McpAuthenticationEntryPoint entryPoint,
		McpAccessDeniedHandler accessDeniedHandler, GatewayErrorRenderer errorRenderer) {

	void applyTo(HttpSecurity http) throws Exception {
		http.addFilterBefore(
				new AdapterCertificateAuthenticationFilter(this.servers,
						new CertificatePrincipalMapper(this.properties.certificate())),
				BearerTokenAuthenticationFilter.class)
			.oauth2ResourceServer((resourceServer) -> resourceServer
				.bearerTokenResolver(new PolicyAwareBearerTokenResolver(this.servers))
				.withObjectPostProcessor(new ObjectPostProcessor<BearerTokenAuthenticationFilter>() {
					@Override
					public <O extends BearerTokenAuthenticationFilter> O postProcess(O filter) {
						filter.setAuthenticationFailureHandler(new McpAuthenticationFailureHandler(
								CallerVerification.this.entryPoint, CallerVerification.this.errorRenderer));
						return filter;
					}
				})
				.authenticationManagerResolver(new ResourceAudienceAuthenticationManagerResolver(this.jwtDecoder,
						this.properties.oauth().audiences(), this.resources,
						new JwtPrincipalConverter(this.properties.claims())))
				.authenticationEntryPoint(this.entryPoint)
				.accessDeniedHandler(this.accessDeniedHandler))
			.exceptionHandling((exceptions) -> exceptions.authenticationEntryPoint(this.entryPoint)
				.accessDeniedHandler(this.accessDeniedHandler))
			.formLogin((form) -> form.disable())
			.httpBasic((basic) -> basic.disable());
		SecurityConfiguration.stateless(http);
	}

}
