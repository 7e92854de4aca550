package io.github.mcpgateway.config;

import java.util.List;
import java.util.Set;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;

/**
 * Keeps Spring Boot's Redis auto-configurations out of the context unless a store of the
 * gateway is {@code redis} ({@code gateway.idempotency.store},
 * {@code gateway.session.store} (which the task and virtual-session stores follow) or
 * {@code gateway.quota.store}).
 *
 * <p>
 * Why a gate and not laziness: Boot's Lettuce connection factory is a lifecycle bean, so
 * it is made at start-up whether or not anything uses it, with its client resources (an
 * event loop of Netty threads) and Spring Data Redis's template and repository support:
 * about 1,100 classes and a quarter of a second of every start, and threads, in a gateway
 * whose stores are all in memory (docs/performance.md, "Start-up and memory"). The health
 * contributors and Lettuce's observations go with them; the gateway reports Redis itself.
 */
public final class RedisGate extends AutoConfigurationGate {

	/** The properties that can name the {@code redis} store. */
	static final List<String> STORES = List.of("gateway.idempotency.store", "gateway.session.store",
			"gateway.quota.store");

	private static final String PACKAGE = "org.springframework.boot.data.redis.autoconfigure.";

	/** Imported only when a store is {@code redis}. */
	static final Set<String> REDIS_AUTO_CONFIGURATIONS = Set.of(PACKAGE + "DataRedisAutoConfiguration",
			PACKAGE + "DataRedisReactiveAutoConfiguration", PACKAGE + "DataRedisRepositoriesAutoConfiguration",
			PACKAGE + "health.DataRedisHealthContributorAutoConfiguration",
			PACKAGE + "health.DataRedisReactiveHealthContributorAutoConfiguration",
			PACKAGE + "observation.LettuceObservationAutoConfiguration");

	public RedisGate() {
		super(REDIS_AUTO_CONFIGURATIONS);
	}

	@Override
	protected boolean isOpen(Environment environment) {
		Binder binder = Binder.get(environment);
		return STORES.stream()
			.anyMatch((store) -> binder.bind(store, String.class).map("redis"::equalsIgnoreCase).orElse(false));
	}

}
