package io.github.mcpgateway.policy;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.util.Assert;

/**
 * Health of the policy ({@code policy} component, part of the readiness group): down
 * until a valid policy is loaded; afterwards up, with the live version and, while a
 * broken file is kept out, {@code lastReload: failed} and the reason.
 */
public class PolicyHealthIndicator implements HealthIndicator {

	private final LivePolicy livePolicy;

	public PolicyHealthIndicator(LivePolicy livePolicy) {
		Assert.notNull(livePolicy, "livePolicy must not be null");
		this.livePolicy = livePolicy;
	}

	@Override
	public Health health() {
		if (!this.livePolicy.isLoaded()) {
			return Health.down().withDetail("reason", "no valid policy loaded").build();
		}
		Policy policy = this.livePolicy.current();
		Health.Builder builder = Health.up()
			.withDetail("version", policy.version())
			.withDetail("loadedAt", policy.loadedAt().toString())
			.withDetail("servers", policy.serversByPath().size());
		PolicyReloadStatus last = this.livePolicy.lastReload();
		if (last != null && !last.succeeded()) {
			builder.withDetail("lastReload", "failed")
				.withDetail("lastReloadAt", last.at().toString())
				.withDetail("lastReloadError", String.valueOf(last.error()));
		}
		else {
			builder.withDetail("lastReload", "ok");
		}
		return builder.build();
	}

}
