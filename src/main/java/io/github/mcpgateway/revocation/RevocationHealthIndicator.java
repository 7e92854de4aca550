package io.github.mcpgateway.revocation;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Health of the revocation sync ({@code revocation} component, part of the readiness
 * group): down until the first good read of a configured source; afterwards up, with the
 * age of the last good sync and, while the source is broken, the reason.
 */
public class RevocationHealthIndicator implements HealthIndicator {

	private final RevocationSync sync;

	private final Clock clock;

	public RevocationHealthIndicator(RevocationSync sync, Clock clock) {
		this.sync = sync;
		this.clock = clock;
	}

	@Override
	public Health health() {
		if (!this.sync.isEnabled()) {
			return Health.up().withDetail("source", "none").build();
		}
		Instant last = this.sync.lastGoodSync();
		Health.Builder builder = (last != null) ? Health.up() : Health.down();
		if (last != null) {
			builder.withDetail("lastGoodSync", last.toString())
				.withDetail("ageMillis", Duration.between(last, this.clock.instant()).toMillis());
		}
		builder.withDetail("sessions", this.sync.current().sessions().size())
			.withDetail("principals", this.sync.current().principals().size());
		String error = this.sync.lastError();
		if (error != null) {
			builder.withDetail("lastSync", "failed").withDetail("lastError", error);
		}
		return builder.build();
	}

}
