package io.github.mcpgateway.admission;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightLimiterTest {

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	@Test
	void tryAcquireWhenKeyAtItsCapThenRefusedAndCountedWhileAnotherKeyIsAdmitted() {
		InFlightLimiter limiter = new InFlightLimiter("principal", 2, this.meters);

		assertThat(limiter.tryAcquire("mallory")).isTrue();
		assertThat(limiter.tryAcquire("mallory")).isTrue();
		assertThat(limiter.tryAcquire("mallory")).isFalse();
		assertThat(limiter.tryAcquire("carol")).isTrue();

		assertThat(this.meters.get(AdmissionMeters.REFUSED).tag("limit", "principal").counter().count()).isEqualTo(1);
		assertThat(this.meters.get(AdmissionMeters.IN_FLIGHT).tag("limit", "principal").gauge().value()).isEqualTo(3);
	}

	@Test
	void releaseGivesThePlaceBackAndForgetsAKeyWithNothingInFlight() {
		InFlightLimiter limiter = new InFlightLimiter("address", 1, this.meters);
		for (int i = 0; i < 1_000; i++) {
			assertThat(limiter.tryAcquire("10.0.0." + i)).isTrue();
			limiter.release("10.0.0." + i);
		}
		assertThat(limiter.tryAcquire("10.0.0.1")).isTrue();
		assertThat(limiter.tryAcquire("10.0.0.1")).isFalse();
		limiter.release("10.0.0.1");

		assertThat(limiter.keys()).isZero();
		assertThat(limiter.tryAcquire("10.0.0.1")).isTrue();
	}

	@Test
	void tryAcquireWhenCapIsZeroThenNeverRefused() {
		InFlightLimiter limiter = new InFlightLimiter("stream", 0, this.meters);
		for (int i = 0; i < 100; i++) {
			assertThat(limiter.tryAcquire("mallory")).isTrue();
		}
		assertThat(limiter.keys()).isZero();
	}

}
