package io.github.mcpgateway.identity;

import java.net.URI;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class IdentityPropertiesTest {

	@Test
	void audiencesMayBeEmptyOnlyWithAResourceBaseUrl() {
		assertThatIllegalArgumentException().isThrownBy(() -> properties(List.of(), null))
			.withMessageContaining("gateway.identity.oauth.audiences must not be empty unless");
		assertThat(properties(List.of(), URI.create("https://mcp.example.com")).resourceBaseUrl()).isNotNull();
		assertThat(properties(List.of("api"), null).oauth().audiences()).containsExactly("api");
	}

	@Test
	void resourceBaseUrlMustBeAnAbsoluteHttpUrlWithoutQueryOrFragment() {
		for (String bad : new String[] { "mcp.example.com", "/mcp", "ftp://mcp.example.com",
				"https://mcp.example.com?a=1", "https://mcp.example.com/#top" }) {
			assertThatIllegalArgumentException().as(bad)
				.isThrownBy(() -> properties(List.of("api"), URI.create(bad)))
				.withMessageContaining("resource-base-url");
		}
	}

	private static IdentityProperties properties(List<String> audiences, URI resourceBaseUrl) {
		IdentityProperties.OAuth oauth = new IdentityProperties.OAuth("https://issuer.test",
				URI.create("https://issuer.test/jwks"), audiences, List.of("RS256"), Duration.ofSeconds(60),
				Duration.ofSeconds(60), 100, null);
		return new IdentityProperties(oauth, null, null, null, List.of(), resourceBaseUrl);
	}

}
