package io.github.mcpgateway.upstreamauth;

import java.util.Map;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.ServerPolicyCheck;
import io.github.mcpgateway.policy.UpstreamAuth;

/**
 * The client registrations an {@code upstream-auth} entry may name, from Spring Boot's
 * {@code spring.security.oauth2.client.registration.*} (none when that is not
 * configured), and the policy check that every entry names one that fits: it exists, its
 * grant type is the mode's, and a {@code private_key_jwt} registration has a key.
 */
final class ClientRegistrations implements ServerPolicyCheck {

	private final @Nullable ClientRegistrationRepository repository;

	private final Map<String, ?> clientKeys;

	ClientRegistrations(@Nullable ClientRegistrationRepository repository, Map<String, ?> clientKeys) {
		this.repository = repository;
		this.clientKeys = clientKeys;
	}

	/** The registration {@code id}, which the policy check made sure exists. */
	ClientRegistration require(String id) {
		ClientRegistration registration = find(id);
		if (registration == null) {
			throw UpstreamTokenException.refused("unknown_client_registration");
		}
		return registration;
	}

	@Override
	public Optional<Violation> check(McpServerPolicy server) {
		UpstreamAuth auth = server.upstreamAuth();
		if (auth.mode() == UpstreamAuth.Mode.NONE) {
			return Optional.empty();
		}
		AuthorizationGrantType grant = (auth.mode() == UpstreamAuth.Mode.TOKEN_EXCHANGE)
				? AuthorizationGrantType.TOKEN_EXCHANGE : AuthorizationGrantType.CLIENT_CREDENTIALS;
		Optional<Violation> client = check("upstream-auth.client", auth.client(), grant);
		if (client.isPresent() || auth.actorClient() == null) {
			return client;
		}
		return check("upstream-auth.actor-client", auth.actorClient(), AuthorizationGrantType.CLIENT_CREDENTIALS);
	}

	private Optional<Violation> check(String field, @Nullable String id, AuthorizationGrantType grant) {
		ClientRegistration registration = (id != null) ? find(id) : null;
		if (registration == null) {
			return Optional.of(new Violation(field,
					"no client registration '" + id + "' (spring.security.oauth2.client.registration." + id + ".*)"));
		}
		if (!grant.equals(registration.getAuthorizationGrantType())) {
			return Optional
				.of(new Violation(field, "client registration '" + id + "' must have authorization-grant-type "
						+ grant.getValue() + ", not " + registration.getAuthorizationGrantType().getValue()));
		}
		if (ClientAuthenticationMethod.PRIVATE_KEY_JWT.equals(registration.getClientAuthenticationMethod())
				&& !this.clientKeys.containsKey(id)) {
			return Optional.of(new Violation(field, "client registration '" + id
					+ "' uses private_key_jwt but gateway.upstream-auth.client-keys." + id + ".jwk is not set"));
		}
		return Optional.empty();
	}

	private @Nullable ClientRegistration find(String id) {
		return (this.repository != null) ? this.repository.findByRegistrationId(id) : null;
	}

}
