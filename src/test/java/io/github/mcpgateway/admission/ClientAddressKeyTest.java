package io.github.mcpgateway.admission;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ClientAddressKeyTest {

	@Test
	void anIpv4AddressIsItsOwnKey() {
		assertThat(ClientAddressKey.of("203.0.113.7")).isEqualTo("203.0.113.7");
		assertThat(ClientAddressKey.of("203.0.113.8")).isNotEqualTo(ClientAddressKey.of("203.0.113.7"));
	}

	@Test
	void everyAddressOfOneIpv6Slash64SharesOneKey() {
		assertThat(ClientAddressKey.of("2001:db8:0:1:aaaa::1")).isEqualTo(ClientAddressKey.of("2001:db8:0:1::ffff"))
			.isEqualTo(ClientAddressKey.of("2001:0db8:0000:0001:1:2:3:4"))
			.isEqualTo("20010db800000001::/64");
		assertThat(ClientAddressKey.of("2001:db8:0:2::1")).isNotEqualTo(ClientAddressKey.of("2001:db8:0:1::1"));
	}

	@Test
	void theIpv6LoopbackAsTomcatWritesItIsOneKey() {
		assertThat(ClientAddressKey.of("0:0:0:0:0:0:0:1")).isEqualTo(ClientAddressKey.of("::1"));
	}

}
