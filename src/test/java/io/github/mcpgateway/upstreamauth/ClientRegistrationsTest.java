package io.github.mcpgateway.upstreamauth;

import java.net.URI;
import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.ServerPolicyCheck.Violation;
import io.github.mcpgateway.policy.UpstreamAuth;

import static org.assertj.core.api.Assertions.assertThat;

class ClientRegistrationsTest {

	private final ClientRegistrations registrations = new ClientRegistrations(new InMemoryClientRegistrationRepository(
			registration("exchange", AuthorizationGrantType.TOKEN_EXCHANGE),
			registration("self", AuthorizationGrantType.CLIENT_CREDENTIALS),
			ClientRegistration.withClientRegistration(registration("signed", AuthorizationGrantType.CLIENT_CREDENTIALS))
				.clientAuthenticationMethod(ClientAuthenticationMethod.PRIVATE_KEY_JWT)
				.build(),
			ClientRegistration.withClientRegistration(registration("keyed", AuthorizationGrantType.CLIENT_CREDENTIALS))
				.clientAuthenticationMethod(ClientAuthenticationMethod.PRIVATE_KEY_JWT)
				.build()),
			Map.of("keyed", "a key"));

	@Test
	void anEntryNamingARegistrationOfItsGrantTypePasses() {
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.TOKEN_EXCHANGE, "exchange", "self"))).isEmpty();
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.CLIENT_CREDENTIALS, "keyed", null))).isEmpty();
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.NONE, null, null))).isEmpty();
	}

	@Test
	void anUnknownRegistrationIsAViolationOfItsField() {
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.TOKEN_EXCHANGE, "nope", null)))
			.contains(new Violation("upstream-auth.client",
					"no client registration 'nope' (spring.security.oauth2.client.registration.nope.*)"));
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.TOKEN_EXCHANGE, "exchange", "nope")))
			.hasValueSatisfying((violation) -> assertThat(violation.field()).isEqualTo("upstream-auth.actor-client"));
	}

	@Test
	void aRegistrationOfAnotherGrantTypeIsAViolation() {
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.TOKEN_EXCHANGE, "self", null)))
			.hasValueSatisfying((violation) -> assertThat(violation.message())
				.isEqualTo("client registration 'self' must have authorization-grant-type "
						+ "urn:ietf:params:oauth:grant-type:token-exchange, not client_credentials"));
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.TOKEN_EXCHANGE, "exchange", "exchange")))
			.hasValueSatisfying((violation) -> assertThat(violation.field()).isEqualTo("upstream-auth.actor-client"));
	}

	@Test
	void aPrivateKeyJwtRegistrationWithoutAKeyIsAViolation() {
		assertThat(this.registrations.check(server(UpstreamAuth.Mode.CLIENT_CREDENTIALS, "signed", null)))
			.hasValueSatisfying((violation) -> assertThat(violation.message()).isEqualTo(
					"client registration 'signed' uses private_key_jwt but gateway.upstream-auth.client-keys.signed.jwk is not set"));
	}

	@Test
	void withoutAnyRegistrationEveryEntryIsAViolation() {
		ClientRegistrations none = new ClientRegistrations(null, Map.of());

		assertThat(none.check(server(UpstreamAuth.Mode.CLIENT_CREDENTIALS, "self", null))).isPresent();
		assertThat(none.check(server(UpstreamAuth.Mode.NONE, null, null))).isEmpty();
	}

	private static McpServerPolicy server(UpstreamAuth.Mode mode, String client, String actor) {
		UpstreamAuth auth = (mode == UpstreamAuth.Mode.NONE) ? UpstreamAuth.NONE
				: new UpstreamAuth(mode, client, actor, "api", null, null, false);
		return new McpServerPolicy("ns", "name", "uid", URI.create("http://upstream/mcp"), null, "/mcp/x", null, null,
				null, auth);
	}

	private static ClientRegistration registration(String id, AuthorizationGrantType grant) {
		return ClientRegistration.withRegistrationId(id)
			.clientId(id + "-client")
			.clientSecret("secret")
			.authorizationGrantType(grant)
			.tokenUri("http://127.0.0.1:1/token")
			.build();
	}

}
