package io.github.mcpgateway.upstreamauth;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.util.HashMap;
import java.util.Map;

import com.nimbusds.jose.jwk.JWK;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

import io.github.mcpgateway.clock.GatewayClock;

/**
 * Wires upstream credentials: the client registrations (Spring Boot's, when any are
 * configured) and their policy check, the token endpoint client, the token cache and the
 * stage filter. Its order in the pipeline is set in {@code config.PipelineConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(UpstreamAuthProperties.class)
class UpstreamAuthConfiguration {

	@Bean
	ClientRegistrations upstreamClientRegistrations(ObjectProvider<ClientRegistrationRepository> repository,
			UpstreamAuthProperties properties) {
		return new ClientRegistrations(repository.getIfAvailable(), properties.clientKeys());
	}

	@Bean
	UpstreamAuthMeters upstreamAuthMeters(MeterRegistry meterRegistry) {
		return new UpstreamAuthMeters(meterRegistry);
	}

	@Bean
	UpstreamTokens upstreamTokens(UpstreamAuthProperties properties, ClientRegistrations upstreamClientRegistrations,
			UpstreamAuthMeters upstreamAuthMeters, GatewayClock clock) {
		TokenEndpointClient endpoint = new TokenEndpointClient(properties, clientKeys(properties));
		return new UpstreamTokens(properties, endpoint, upstreamClientRegistrations, upstreamAuthMeters, clock);
	}

	@Bean
	UpstreamCredentialsStage upstreamCredentialStage(UpstreamTokens upstreamTokens,
			UpstreamAuthMeters upstreamAuthMeters, UpstreamAuthProperties properties) {
		return new UpstreamCredentialsStage(upstreamTokens, upstreamAuthMeters, properties.retryAfter());
	}

	/**
	 * Reads every configured client key; a missing, malformed or public key stops
	 * start-up.
	 */
	private static Map<String, JWK> clientKeys(UpstreamAuthProperties properties) {
		Map<String, JWK> keys = new HashMap<>();
		properties.clientKeys().forEach((id, key) -> {
			String name = "gateway.upstream-auth.client-keys." + id + ".jwk";
			try (InputStream in = key.jwk().getInputStream()) {
				JWK jwk = JWK.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
				if (!jwk.isPrivate()) {
					throw new IllegalStateException(name + " must be a private key (it has no private part)");
				}
				keys.put(id, jwk);
			}
			catch (IOException ex) {
				throw new IllegalStateException(name + " cannot be read: " + key.jwk().getDescription(), ex);
			}
			catch (ParseException ex) {
				throw new IllegalStateException(name + " is not a JSON Web Key (RFC 7517)", ex);
			}
		});
		return Map.copyOf(keys);
	}

}
