package io.github.mcpgateway.proxy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ProxyPropertiesTest {

	@Test
	void probeIntervalAndSilentReplyDelayMayBeZeroButNotNegative() {
		assertThat(properties(Duration.ZERO, Duration.ZERO).silentReplyStreamAfter()).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> properties(Duration.ofSeconds(-1), Duration.ZERO))
			.withMessage("gateway.proxy.stream-probe-interval must not be negative");
		assertThatIllegalArgumentException().isThrownBy(() -> properties(Duration.ZERO, Duration.ofSeconds(-1)))
			.withMessage("gateway.proxy.silent-reply-stream-after must not be negative");
	}

	private static ProxyProperties properties(Duration probeInterval, Duration silentReplyStreamAfter) {
		return new ProxyProperties(Duration.ofSeconds(5), Duration.ofSeconds(60), Duration.ofMinutes(5), probeInterval,
				silentReplyStreamAfter, 500, 200, null, null);
	}

}
