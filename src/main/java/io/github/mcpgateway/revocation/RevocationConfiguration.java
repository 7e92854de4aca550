package io.github.mcpgateway.revocation;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.poll.PeriodicTask;

/** Wires the revocation sync and its health. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(RevocationProperties.class)
class RevocationConfiguration {

	@Bean
	RevocationSync revocationSync(RevocationProperties properties, Clock clock, MeterRegistry meterRegistry) {
		return new RevocationSync(properties, clock, meterRegistry);
	}

	@Bean
	@ConditionalOnProperty(prefix = "gateway.revocation", name = "source")
	PeriodicTask revocationSyncSchedule(RevocationSync sync, RevocationProperties properties) {
		return new PeriodicTask("revocation-sync", properties.pollInterval(), properties.pollInterval(), sync::syncNow);
	}

	@Bean
	RevocationHealthIndicator revocationHealthIndicator(RevocationSync sync, Clock clock) {
		return new RevocationHealthIndicator(sync, clock);
	}

}
