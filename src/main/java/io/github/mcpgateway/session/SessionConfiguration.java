package io.github.mcpgateway.session;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.request.Refusals;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.session.SessionEvent.Type;

/** Wires the session binding table, its meters and the session stage. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SessionProperties.class)
class SessionConfiguration {

	@Bean
	SessionRegistry sessionRegistry(SessionProperties properties, Clock clock, ApplicationEventPublisher events) {
		return new SessionRegistry(properties, clock,
				(dropped) -> events.publishEvent(new SessionEvent(clock.instant(), Type.DROPPED, dropped.sessionId(),
						dropped.binding().serverKey(),
						(dropped.binding().principal() != null) ? dropped.binding().principal().human() : null)));
	}

	@Bean
	SessionMeters sessionMeters(MeterRegistry meterRegistry, SessionRegistry registry) {
		return new SessionMeters(meterRegistry, registry);
	}

	@Bean
	SessionsEndpoint sessionsEndpoint(SessionRegistry registry, SessionProperties properties,
			RevocationSync revocations, MeterRegistry meterRegistry, Clock clock) {
		return new SessionsEndpoint(registry, properties, revocations, meterRegistry, clock);
	}

	@Bean
	SessionAndRevocationFilter sessionAndRevocationFilter(SessionRegistry registry, RevocationSync revocations,
			Refusals refusals, ApplicationEventPublisher events, Clock clock) {
		return new SessionAndRevocationFilter(registry, revocations, refusals, events, clock);
	}

}
