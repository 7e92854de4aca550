package io.github.mcpgateway.policy;

import java.net.URI;
import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;

/**
 * The credential the gateway sends to one server's upstream in place of the caller's
 * (which it never forwards). Constructed by {@link PolicyParser}; immutable, and equal
 * when every field is, so a cached credential is never reused for a changed entry.
 *
 * <p>
 * The token endpoint and the gateway's own client credentials are not here:
 * {@link #client} names a Spring Security client registration
 * ({@code spring.security.oauth2.client.registration.<id>}), so no secret is ever in the
 * policy file. Whether that registration exists is checked when the policy is loaded.
 *
 * @param mode what the upstream receives; {@code none} when omitted
 * @param client the client registration used at the token endpoint
 * @param actorClient a {@code client_credentials} registration whose token is sent as the
 * exchange's {@code actor_token}, so that an authorization server that supports it names
 * the gateway in the {@code act} claim; {@code token-exchange} only
 * @param audience the {@code audience} parameter: the upstream's name at the
 * authorization server
 * @param resource the {@code resource} parameter (RFC 8707): the upstream's absolute URI
 * @param scope the {@code scope} parameter, space separated; replaces the registration's
 * scopes when set
 * @param principalHeaders whether the verified principal's parts are also sent in the
 * {@code Mcp-Gateway-Human}, {@code -Agent} and {@code -Team} headers; never null
 * ({@code false} when omitted)
 */
public record UpstreamAuth(@Nullable Mode mode, @Nullable String client,
		@JsonProperty("actor-client") @Nullable String actorClient, @Nullable String audience,
		@Nullable String resource, @Nullable String scope,
		@JsonProperty("principal-headers") @Nullable Boolean principalHeaders) {

	/** No upstream credential: today's behaviour. */
	public static final UpstreamAuth NONE = new UpstreamAuth(Mode.NONE, null, null, null, null, null, false);

	public UpstreamAuth {
		mode = (mode != null) ? mode : Mode.NONE;
		principalHeaders = Boolean.TRUE.equals(principalHeaders);
		if (mode == Mode.NONE) {
			if (client != null || actorClient != null || audience != null || resource != null || scope != null
					|| principalHeaders) {
				throw new IllegalArgumentException(
						"upstream-auth fields need mode token-exchange or client-credentials");
			}
		}
		else {
			requireText(client, "upstream-auth.client names no client registration");
			optionalText(audience, "audience");
			optionalText(scope, "scope");
			optionalText(actorClient, "actor-client");
			if (resource != null) {
				validateResource(resource);
			}
		}
		if (mode == Mode.TOKEN_EXCHANGE && audience == null && resource == null) {
			throw new IllegalArgumentException(
					"token-exchange needs an audience or a resource: the upstream must be able to check that the token is for it");
		}
		if (mode == Mode.CLIENT_CREDENTIALS && actorClient != null) {
			throw new IllegalArgumentException("actor-client applies to token-exchange only");
		}
	}

	private static void requireText(@Nullable String value, String message) {
		if (value == null || value.isBlank()) {
			throw new IllegalArgumentException(message);
		}
	}

	private static void optionalText(@Nullable String value, String field) {
		if (value != null && value.isBlank()) {
			throw new IllegalArgumentException(field + " must not be blank; omit it instead");
		}
	}

	private static void validateResource(String resource) {
		try {
			URI uri = new URI(resource);
			String scheme = (uri.getScheme() != null) ? uri.getScheme().toLowerCase(Locale.ROOT) : "";
			if (!uri.isAbsolute() || uri.getRawFragment() != null || scheme.isEmpty()) {
				throw new IllegalArgumentException("resource must be an absolute URI without a fragment (RFC 8707)");
			}
		}
		catch (java.net.URISyntaxException ex) {
			throw new IllegalArgumentException("resource must be an absolute URI without a fragment (RFC 8707)");
		}
	}

	/** How the upstream learns who is calling. */
	public enum Mode {

		/** The upstream receives no credential. */
		@JsonProperty("none")
		NONE,

		/**
		 * RFC 8693: the caller's verified access token is exchanged for one issued to the
		 * upstream, naming the caller as subject.
		 */
		@JsonProperty("token-exchange")
		TOKEN_EXCHANGE,

		/** The gateway's own token for the upstream, one for every caller. */
		@JsonProperty("client-credentials")
		CLIENT_CREDENTIALS;

		/** The name used in the policy file, audit lines and metrics. */
		public String tag() {
			return name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

	}

}
