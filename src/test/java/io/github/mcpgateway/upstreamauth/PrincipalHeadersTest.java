package io.github.mcpgateway.upstreamauth;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.principal.McpPrincipal;

import static org.assertj.core.api.Assertions.assertThat;

class PrincipalHeadersTest {

	@Test
	void visibleAsciiIsSentAsIs() {
		assertThat(PrincipalHeaders.encode("alice@example.com")).isEqualTo("alice@example.com");
		assertThat(PrincipalHeaders.encode("team/blue+1")).isEqualTo("team/blue+1");
	}

	@Test
	void everythingElseAndThePercentSignArePercentEncodedAndDecodeToTheClaim() {
		for (String claim : new String[] { "Zoë Ünal", "a\r\nInjected: yes", "100%", "名前" }) {
			String encoded = PrincipalHeaders.encode(claim);
			assertThat(encoded).as(claim).matches("[\\x21-\\x7E]+");
			assertThat(URLDecoder.decode(encoded.replace("+", "%2B"), StandardCharsets.UTF_8)).isEqualTo(claim);
		}
		assertThat(PrincipalHeaders.encode("a b")).isEqualTo("a%20b");
	}

	@Test
	void anAbsentAgentOrTeamSendsNoHeader() {
		HttpHeaders headers = new HttpHeaders();

		PrincipalHeaders.set(headers, new McpPrincipal("alice", null, null));

		assertThat(headers.headerNames()).containsExactly(PrincipalHeaders.HUMAN);
	}

}
