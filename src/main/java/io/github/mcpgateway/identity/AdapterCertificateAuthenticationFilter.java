package io.github.mcpgateway.identity;

import java.io.IOException;
import java.security.cert.X509Certificate;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.routing.ServerLocator;

/**
 * Authenticates a request to an {@code adapter-certificate} server from the client
 * certificate of its TLS connection. The servlet container has already verified the
 * certificate chain against the configured trust store; this filter only maps the leaf
 * certificate to a principal. No certificate, or one that maps to nothing, leaves the
 * request unauthenticated, and the entry point answers 401.
 */
final class AdapterCertificateAuthenticationFilter extends OncePerRequestFilter {

	static final String CERTIFICATE_ATTRIBUTE = "jakarta.servlet.request.X509Certificate";

	private final ServerLocator servers;

	private final CertificatePrincipalMapper mapper;

	private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

	AdapterCertificateAuthenticationFilter(ServerLocator servers, CertificatePrincipalMapper mapper) {
		this.servers = servers;
		this.mapper = mapper;
	}

	@Override
	protected boolean shouldNotFilter(HttpServletRequest request) {
		return this.servers.identityModeOf(request) != IdentityMode.ADAPTER_CERTIFICATE;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getAttribute(CERTIFICATE_ATTRIBUTE) instanceof X509Certificate[] chainOfTrust
				&& chainOfTrust.length > 0) {
			McpPrincipal principal = this.mapper.map(chainOfTrust[0]);
			if (principal != null) {
				SecurityContext context = this.contexts.createEmptyContext();
				context.setAuthentication(new McpAuthentication(principal, "adapter-certificate"));
				this.contexts.setContext(context);
			}
		}
		chain.doFilter(request, response);
	}

}
