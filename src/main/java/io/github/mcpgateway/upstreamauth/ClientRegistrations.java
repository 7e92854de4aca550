package io.github.mcpgateway.upstreamauth;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientProperties;
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
 *
 * <p>
 * The check needs only each registration's grant type and client authentication method,
 * so the offline {@code validate} command runs the same check from the properties
 * ({@link #offlineCheck}), without resolving any issuer over the network.
 */
public final class ClientRegistrations implements ServerPolicyCheck {

	/** What the check needs to know of a registration. */
	private record Facts(@Nullable AuthorizationGrantType grantType, @Nullable ClientAuthenticationMethod method) {
	}

	private final @Nullable ClientRegistrationRepository repository;

	private final Function<String, @Nullable Facts> facts;

	private final Map<String, ?> clientKeys;

	ClientRegistrations(@Nullable ClientRegistrationRepository repository, Map<String, ?> clientKeys) {
		this.repository = repository;
		this.facts = (id) -> {
			ClientRegistration registration = (repository != null) ? repository.findByRegistrationId(id) : null;
			return (registration != null)
					? new Facts(registration.getAuthorizationGrantType(), registration.getClientAuthenticationMethod())
					: null;
		};
		this.clientKeys = clientKeys;
	}

	private ClientRegistrations(Function<String, @Nullable Facts> facts, Map<String, ?> clientKeys) {
		this.repository = null;
		this.facts = facts;
		this.clientKeys = clientKeys;
	}

	/**
	 * The policy check of a gateway configured with {@code clients} and
	 * {@code upstreamAuth}, for validating a policy file without starting the gateway.
	 */
	public static ServerPolicyCheck offlineCheck(OAuth2ClientProperties clients, UpstreamAuthProperties upstreamAuth) {
		Map<String, OAuth2ClientProperties.Registration> registrations = clients.getRegistration();
		Function<String, @Nullable Facts> facts = (id) -> {
			OAuth2ClientProperties.Registration registration = registrations.get(id);
			if (registration == null) {
				return null;
			}
			return new Facts(
					(registration.getAuthorizationGrantType() != null)
							? new AuthorizationGrantType(registration.getAuthorizationGrantType()) : null,
					(registration.getClientAuthenticationMethod() != null)
							? new ClientAuthenticationMethod(registration.getClientAuthenticationMethod()) : null);
		};
		return new ClientRegistrations(facts, upstreamAuth.clientKeys());
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
		Facts registration = (id != null) ? this.facts.apply(id) : null;
		if (registration == null) {
			return Optional.of(new Violation(field,
					"no client registration '" + id + "' (spring.security.oauth2.client.registration." + id + ".*)"));
		}
		if (!grant.equals(registration.grantType())) {
			return Optional.of(new Violation(field,
					"client registration '" + id + "' must have authorization-grant-type " + grant.getValue() + ", not "
							+ ((registration.grantType() != null) ? registration.grantType().getValue() : "none")));
		}
		if (ClientAuthenticationMethod.PRIVATE_KEY_JWT.equals(registration.method())
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
