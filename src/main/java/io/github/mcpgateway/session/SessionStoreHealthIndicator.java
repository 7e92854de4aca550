package io.github.mcpgateway.session;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the shared session store ({@code sessionStore} component, Redis only). Down
 * when Redis cannot be reached: requests that carry a session then fail closed with 503,
 * while requests without one (initialize included) go on, which is why this component is
 * not part of the readiness group (one Redis outage must not take every replica out of
 * the Service).
 */
class SessionStoreHealthIndicator implements HealthIndicator {

	private final RedisSessionStore store;

	SessionStoreHealthIndicator(RedisSessionStore store) {
		this.store = store;
	}

	@Override
	public Health health() {
		Health.Builder health = this.store.ping() ? Health.up() : Health.down().withDetail("reason", "unreachable");
		return health.withDetail("store", this.store.type())
			.withDetail("pendingBindings", this.store.pending())
			.build();
	}

}
