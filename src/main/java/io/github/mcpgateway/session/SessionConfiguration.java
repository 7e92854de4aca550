package io.github.mcpgateway.session;

import java.time.Clock;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.poll.PeriodicTask;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.session.SessionEvent.Type;

/** Wires the session store, its meters and the session stage. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SessionProperties.class)
class SessionConfiguration {

	@Bean
	SessionMeters sessionMeters(MeterRegistry meterRegistry, SessionStore store) {
		return new SessionMeters(meterRegistry, store);
	}

	@Bean
	SessionsEndpoint sessionsEndpoint(SessionStore store, SessionProperties properties, RevocationSync revocations,
			MeterRegistry meterRegistry, Clock clock) {
		return new SessionsEndpoint(store, properties, revocations, meterRegistry, clock);
	}

	@Bean
	StatelessSessionHeaderRule statelessSessionHeaderRule() {
		return new StatelessSessionHeaderRule();
	}

	@Bean
	SessionStage sessionStage(SessionStore store, RevocationSync revocations, ApplicationEventPublisher events,
			Clock clock) {
		return new SessionStage(store, revocations, events, clock);
	}

	/** {@code gateway.session.store: memory}, the default. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.session", name = "store", havingValue = "memory", matchIfMissing = true)
	static class Memory {

		@Bean
		InMemorySessionStore sessionStore(SessionProperties properties, Clock clock, ApplicationEventPublisher events) {
			return new InMemorySessionStore(properties, clock,
					(dropped) -> events.publishEvent(new SessionEvent(clock.instant(),
							dropped.principalCap() ? Type.DROPPED_PRINCIPAL_CAP : Type.DROPPED, dropped.sessionId(),
							dropped.binding().serverKey(),
							(dropped.binding().principal() != null) ? dropped.binding().principal().human() : null)));
		}

	}

	/** {@code gateway.session.store: redis}: bindings shared by every replica. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.session", name = "store", havingValue = "redis")
	static class Redis {

		/**
		 * How often bindings made while Redis was unreachable are retried (or Redis is
		 * pinged).
		 */
		private static final Duration MAINTENANCE_INTERVAL = Duration.ofSeconds(1);

		@Bean
		RedisSessionStore sessionStore(StringRedisTemplate redis, SessionProperties properties,
				MeterRegistry meterRegistry, GatewayClock clock) {
			return new RedisSessionStore(redis, properties, meterRegistry, clock);
		}

		@Bean
		PeriodicTask sessionStoreMaintenance(RedisSessionStore store) {
			return new PeriodicTask("session-store-maintenance", MAINTENANCE_INTERVAL, MAINTENANCE_INTERVAL,
					store::maintain);
		}

		@Bean
		SessionStoreHealthIndicator sessionStoreHealthIndicator(RedisSessionStore store) {
			return new SessionStoreHealthIndicator(store);
		}

	}

}
