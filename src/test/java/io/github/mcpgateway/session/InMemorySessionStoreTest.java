package io.github.mcpgateway.session;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.SessionEvent.Type;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

class InMemorySessionStoreTest extends SessionStoreContractTests {

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final SessionBinding echo = new SessionBinding("uid:echo", "test/echo", this.alice);

	private final SessionBinding stranger = new SessionBinding("uid:echo", "test/echo",
			new McpPrincipal("mallory", null, null));

	private final List<InMemorySessionStore.Dropped> dropped = new ArrayList<>();

	@Override
	protected SessionStore createStore(SessionProperties properties, MutableClock clock) {
		return new InMemorySessionStore(properties, clock, this.dropped::add);
	}

	@Override
	protected void elapse(Duration duration) {
		this.clock.advance(duration);
	}

	@Test
	void bindWhenTenThousandInitializationsThenTableStaysWithinBoundAndCountsWhatItDropped() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		SessionMeters[] sessionMeters = new SessionMeters[1];
		InMemorySessionStore registry = new InMemorySessionStore(properties(1_000, Duration.ofHours(1)), this.clock,
				(drop) -> sessionMeters[0].onSessionEvent(new SessionEvent(this.clock.instant(), Type.DROPPED,
						drop.sessionId(), drop.binding().serverKey(), null)));
		sessionMeters[0] = new SessionMeters(meters, registry);

		for (int i = 0; i < 10_000; i++) {
			registry.bind("s-" + i, this.echo);
		}

		assertThat(registry.size()).isEqualTo(1_000);
		assertThat(meters.get(SessionMeters.ACTIVE).gauge().value()).isEqualTo(1_000);
		assertThat(meters.get(SessionMeters.EVENTS).tag("event", "dropped").counter().count()).isEqualTo(9_000);
		assertThat(registry.use("s-8999", this.echo)).isNull();
		assertThat(registry.use("s-9000", this.echo)).isNotNull();
	}

	@Test
	void bindWhenFullThenLeastRecentlyUsedIsDropped() {
		InMemorySessionStore registry = registry(2, Duration.ofHours(1));
		registry.bind("a", this.echo);
		registry.bind("b", this.echo);
		registry.use("a", this.echo);

		registry.bind("c", this.echo);

		assertThat(this.dropped).extracting(InMemorySessionStore.Dropped::sessionId).containsExactly("b");
		assertThat(registry.use("a", this.echo)).isNotNull();
	}

	@Test
	void useByAnyoneButTheOwnerDoesNotKeepTheBindingAlive() {
		InMemorySessionStore registry = registry(2, Duration.ofHours(1));
		registry.bind("a", this.echo);
		registry.bind("b", this.echo);
		this.clock.advance(Duration.ofMinutes(1));

		assertThat(registry.use("a", this.stranger)).isNotNull();
		registry.bind("c", this.echo);

		assertThat(this.dropped).extracting(InMemorySessionStore.Dropped::sessionId).containsExactly("a");
	}

	@Test
	void bindWhenOneHumanFloodsThenOnlyThatHumansLeastRecentlyUsedSessionsAreDropped() {
		InMemorySessionStore registry = new InMemorySessionStore(
				new SessionProperties(SessionProperties.StoreType.MEMORY, 100, 3, Duration.ofHours(1),
						new SessionProperties.Redis("p:", Duration.ofSeconds(1))),
				this.clock, this.dropped::add);
		registry.bind("alice-1", this.echo);
		registry.bind("mallory-first", this.stranger);
		registry.bind("mallory-kept", this.stranger);
		registry.use("mallory-first", this.stranger);

		for (int i = 0; i < 1_000; i++) {
			registry.bind("mallory-" + i, this.stranger);
		}

		assertThat(registry.use("alice-1", this.echo)).isNotNull();
		assertThat(registry.sizeOf("mallory")).isEqualTo(3);
		assertThat(registry.sizeOf("alice")).isEqualTo(1);
		assertThat(registry.size()).isEqualTo(4);
		assertThat(registry.use("mallory-999", this.stranger)).isNotNull();
		assertThat(registry.use("mallory-first", this.stranger)).isNull();
		assertThat(this.dropped).hasSize(999).allMatch(InMemorySessionStore.Dropped::principalCap);
		assertThat(this.dropped.get(0).sessionId()).isEqualTo("mallory-kept");
		assertThat(this.dropped.get(1).sessionId()).isEqualTo("mallory-first");
	}

	@Test
	void removedAndExpiredSessionsNoLongerCountAgainstTheirHuman() {
		InMemorySessionStore registry = registry(10, Duration.ofMinutes(1));
		registry.bind("a", this.echo);
		registry.bind("b", this.echo);
		registry.remove("a");
		this.clock.advance(Duration.ofMinutes(2));
		registry.use("b", this.echo);

		assertThat(registry.sizeOf("alice")).isZero();
	}

	private InMemorySessionStore registry(int max, Duration idle) {
		return new InMemorySessionStore(properties(max, idle), this.clock, this.dropped::add);
	}

	private static SessionProperties properties(int max, Duration idle) {
		return new SessionProperties(SessionProperties.StoreType.MEMORY, max, max, idle,
				new SessionProperties.Redis("p:", Duration.ofSeconds(1)));
	}

}
