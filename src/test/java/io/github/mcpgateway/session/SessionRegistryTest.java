package io.github.mcpgateway.session;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.SessionEvent.Type;

import static org.assertj.core.api.Assertions.assertThat;

class SessionRegistryTest {

	private static final java.util.function.Predicate<SessionBinding> OWNER = (binding) -> true;

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final MutableClock clock = new MutableClock();

	private final List<SessionRegistry.Dropped> dropped = new ArrayList<>();

	@Test
	void bindWhenTenThousandInitializationsThenTableStaysWithinBoundAndCountsWhatItDropped() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		SessionMeters[] sessionMeters = new SessionMeters[1];
		SessionRegistry registry = new SessionRegistry(new SessionProperties(1_000, Duration.ofHours(1)), this.clock,
				(drop) -> sessionMeters[0].onSessionEvent(new SessionEvent(this.clock.instant(), Type.DROPPED,
						drop.sessionId(), drop.binding().serverKey(), null)));
		sessionMeters[0] = new SessionMeters(meters, registry);

		for (int i = 0; i < 10_000; i++) {
			registry.bind("s-" + i, "test/echo", this.alice);
		}

		assertThat(registry.size()).isEqualTo(1_000);
		assertThat(meters.get(SessionMeters.ACTIVE).gauge().value()).isEqualTo(1_000);
		assertThat(meters.get(SessionMeters.EVENTS).tag("event", "dropped").counter().count()).isEqualTo(9_000);
		assertThat(registry.use("s-8999", OWNER)).isNull();
		assertThat(registry.use("s-9000", OWNER)).isNotNull();
	}

	@Test
	void bindWhenFullThenLeastRecentlyUsedIsDropped() {
		SessionRegistry registry = registry(2, Duration.ofHours(1));
		registry.bind("a", "test/echo", this.alice);
		registry.bind("b", "test/echo", this.alice);
		registry.use("a", OWNER);

		registry.bind("c", "test/echo", this.alice);

		assertThat(this.dropped).extracting(SessionRegistry.Dropped::sessionId).containsExactly("b");
		assertThat(registry.use("a", OWNER)).isNotNull();
	}

	@Test
	void useByAnyoneButTheOwnerDoesNotKeepTheBindingAlive() {
		SessionRegistry registry = registry(2, Duration.ofHours(1));
		registry.bind("a", "test/echo", this.alice);
		registry.bind("b", "test/echo", this.alice);
		this.clock.advance(Duration.ofMinutes(1));

		assertThat(registry.use("a", (binding) -> false)).isNotNull();
		registry.bind("c", "test/echo", this.alice);

		assertThat(this.dropped).extracting(SessionRegistry.Dropped::sessionId).containsExactly("a");
	}

	@Test
	void useWhenIdlePastTimeoutThenForgotten() {
		SessionRegistry registry = registry(10, Duration.ofMinutes(30));
		registry.bind("a", "test/echo", this.alice);

		this.clock.advance(Duration.ofMinutes(31));

		assertThat(registry.use("a", OWNER)).isNull();
		assertThat(this.dropped).extracting(SessionRegistry.Dropped::sessionId).containsExactly("a");
	}

	@Test
	void bindWhenAlreadyBoundThenKeepsTheFirstOwner() {
		SessionRegistry registry = registry(10, Duration.ofHours(1));

		assertThat(registry.bind("a", "test/echo", this.alice)).isTrue();
		assertThat(registry.bind("a", "test/echo", new McpPrincipal("bob", null, null))).isFalse();
		assertThat(registry.use("a", OWNER).principal()).isEqualTo(this.alice);
	}

	private SessionRegistry registry(int max, Duration idle) {
		return new SessionRegistry(new SessionProperties(max, idle), this.clock, this.dropped::add);
	}

	static final class MutableClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
