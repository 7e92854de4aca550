package io.github.mcpgateway.identity;

import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.Collection;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import javax.security.auth.x500.X500Principal;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Maps a verified client certificate to an {@link McpPrincipal} with the configured
 * patterns (see {@link IdentityProperties.Certificate}). Returns {@code null} when
 * nothing matches: the gateway never invents an identity for a certificate it cannot
 * name.
 */
final class CertificatePrincipalMapper {

	/** SAN type of a uniformResourceIdentifier (RFC 5280 section 4.2.1.6). */
	private static final int SAN_URI = 6;

	private final @Nullable Pattern sanUriPattern;

	private final @Nullable Pattern subjectPattern;

	CertificatePrincipalMapper(IdentityProperties.Certificate properties) {
		this.sanUriPattern = compile(properties.sanUriPattern());
		this.subjectPattern = compile(properties.subjectPattern());
	}

	@Nullable McpPrincipal map(X509Certificate certificate) {
		if (this.sanUriPattern != null) {
			for (String uri : sanUris(certificate)) {
				McpPrincipal principal = match(this.sanUriPattern, uri);
				if (principal != null) {
					return principal;
				}
			}
		}
		if (this.subjectPattern != null) {
			return match(this.subjectPattern, certificate.getSubjectX500Principal().getName(X500Principal.RFC2253));
		}
		return null;
	}

	private static @Nullable McpPrincipal match(Pattern pattern, String value) {
		Matcher matcher = pattern.matcher(value);
		if (!matcher.matches()) {
			return null;
		}
		String human = group(matcher, "human");
		return new McpPrincipal((human != null) ? human : value, group(matcher, "agent"), group(matcher, "team"));
	}

	private static @Nullable String group(Matcher matcher, String name) {
		try {
			return matcher.group(name);
		}
		catch (IllegalArgumentException ex) {
			// The pattern has no group of that name: that part of the principal stays
			// empty.
			return null;
		}
	}

	private static List<String> sanUris(X509Certificate certificate) {
		try {
			Collection<List<?>> names = certificate.getSubjectAlternativeNames();
			if (names == null) {
				return List.of();
			}
			return names.stream()
				.filter((name) -> name.size() == 2 && Integer.valueOf(SAN_URI).equals(name.get(0)))
				.map((name) -> String.valueOf(name.get(1)))
				.toList();
		}
		catch (CertificateParsingException ex) {
			return List.of();
		}
	}

	private static @Nullable Pattern compile(@Nullable String pattern) {
		return (pattern != null) ? Pattern.compile(pattern) : null;
	}

}
