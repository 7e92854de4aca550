package io.github.mcpgateway.identity;

import java.util.List;
import java.util.Set;

import jakarta.servlet.Filter;

import org.springframework.security.oauth2.server.resource.web.OAuth2ProtectedResourceMetadataFilter;
import org.springframework.security.web.DefaultSecurityFilterChain;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationFilter;
import org.springframework.security.web.context.request.async.WebAsyncManagerIntegrationFilter;
import org.springframework.security.web.header.HeaderWriterFilter;
import org.springframework.security.web.session.DisableEncodeUrlFilter;
import org.springframework.security.web.session.SessionManagementFilter;

/**
 * Spring Security's chain on MCP paths, cut to the filters that decide there. Spring
 * Security configures them all (the shared objects, such as the request-scoped security
 * context repository a stateless chain uses, stay as configured); this drops the filters
 * that have nothing to do on an MCP request, each one pass and some one wrapper less per
 * request:
 * <ul>
 * <li>{@code DisableEncodeUrlFilter} and {@code SessionManagementFilter}: the gateway
 * keeps no HTTP session ({@code STATELESS}), so there is no session id to keep out of
 * URLs and no session to fix;</li>
 * <li>{@code WebAsyncManagerIntegrationFilter}: nothing on these paths runs
 * asynchronously (the proxy and the stages are blocking code on the request thread);</li>
 * <li>{@code HeaderWriterFilter}: a proxy relays the upstream's reply headers as they
 * are; the gateway's own answers carry {@code Cache-Control: no-store} themselves.
 * Actuator's chain keeps the security headers;</li>
 * <li>{@code OAuth2ProtectedResourceMetadataFilter}: the gateway serves that document
 * itself, per server, on the public chain;</li>
 * <li>the plain {@code AuthenticationFilter} the resource server adds for DPoP-bound
 * tokens: the gateway accepts bearer tokens only (RFC 6750), and an
 * {@code Authorization: DPoP} header is answered as a missing token.</li>
 * </ul>
 * What stays, in order: {@code SecurityContextHolderFilter} (the request's security
 * context, cleared after it), {@link AdapterCertificateAuthenticationFilter} and
 * {@code BearerTokenAuthenticationFilter} (who the caller is),
 * {@code AnonymousAuthenticationFilter} (a caller without credentials, for
 * {@code delegated-header} servers), {@code ExceptionTranslationFilter} (a refusal as 401
 * or 403 in the gateway's error shape) and {@code AuthorizationFilter} (the server's
 * identity mode).
 */
final class McpSecurityFilters {

	/** Filters that decide nothing on an MCP path. */
	static final Set<Class<? extends Filter>> UNNEEDED = Set.of(DisableEncodeUrlFilter.class,
			WebAsyncManagerIntegrationFilter.class, HeaderWriterFilter.class,
			OAuth2ProtectedResourceMetadataFilter.class, SessionManagementFilter.class, AuthenticationFilter.class);

	private McpSecurityFilters() {
	}

	/** {@code chain} without the {@link #UNNEEDED} filters. */
	static SecurityFilterChain trim(DefaultSecurityFilterChain chain) {
		List<Filter> kept = chain.getFilters()
			.stream()
			.filter((filter) -> !UNNEEDED.contains(filter.getClass()))
			.toList();
		return new DefaultSecurityFilterChain(chain.getRequestMatcher(), kept);
	}

}
