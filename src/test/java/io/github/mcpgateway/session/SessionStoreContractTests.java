package io.github.mcpgateway.session;

import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link SessionStore} contract, run against every store: bindings keep their first
 * owner, only the owner's use keeps a binding alive, and a binding unused for the idle
 * timeout is gone. Time passes through {@link #elapse(Duration)}: the memory store reads
 * the test clock, Redis counts its own TTLs, which the Redis subclass shortens by the
 * same amount, so that no test waits.
 */
abstract class SessionStoreContractTests {

	/** The idle timeout of every store under test. */
	protected static final Duration IDLE = Duration.ofMinutes(30);

	/**
	 * How often an owner's use renews a binding (Redis); below a third of {@link #IDLE}.
	 */
	protected static final Duration TOUCH = Duration.ofMinutes(1);

	protected final MutableClock clock = new MutableClock();

	private final SessionBinding alice = new SessionBinding("uid:echo", "test/echo",
			new McpPrincipal("alice", "cli", "blue"));

	private final SessionBinding bob = new SessionBinding("uid:echo", "test/echo", new McpPrincipal("bob", null, null));

	private SessionStore store;

	protected abstract SessionStore createStore(SessionProperties properties, MutableClock clock);

	/** Lets {@code duration} pass for the store's bindings. */
	protected abstract void elapse(Duration duration);

	@BeforeEach
	void createStore() {
		this.store = createStore(properties(), this.clock);
	}

	protected static SessionProperties properties() {
		return new SessionProperties(SessionProperties.StoreType.MEMORY, 1_000, 1_000, IDLE,
				new SessionProperties.Redis("contract:", TOUCH));
	}

	@Test
	void bindReturnsWhetherTheSessionIsNewAndTheFirstOwnerKeepsIt() {
		assertThat(this.store.bind("s-1", this.alice)).isTrue();
		assertThat(this.store.bind("s-1", this.bob)).isFalse();

		assertThat(this.store.use("s-1", this.bob)).isEqualTo(this.alice);
		assertThat(this.store.use("s-1", this.alice)).isEqualTo(this.alice);
	}

	@Test
	void removeReturnsTheBindingOnceAndForgetsIt() {
		this.store.bind("s-2", this.alice);

		assertThat(this.store.remove("s-2")).isEqualTo(this.alice);
		assertThat(this.store.remove("s-2")).isNull();
		assertThat(this.store.use("s-2", this.alice)).isNull();
	}

	@Test
	void unknownSessionIsNullNotAnError() {
		assertThat(this.store.use("never-bound", this.alice)).isNull();
		assertThat(this.store.remove("never-bound")).isNull();
	}

	@Test
	void bindingUnusedForTheIdleTimeoutIsGone() {
		this.store.bind("s-3", this.alice);
		elapse(IDLE.minusSeconds(1));
		assertThat(this.store.use("s-3", this.bob)).as("a second before the idle timeout").isEqualTo(this.alice);

		elapse(Duration.ofSeconds(2));

		assertThat(this.store.use("s-3", this.alice)).isNull();
	}

	@Test
	void ownersUseKeepsTheBindingAlivePastTheIdleTimeout() {
		this.store.bind("s-4", this.alice);
		elapse(IDLE.dividedBy(3).multipliedBy(2));
		assertThat(this.store.use("s-4", this.alice)).isEqualTo(this.alice);

		elapse(IDLE.dividedBy(3).multipliedBy(2));

		assertThat(this.store.use("s-4", this.alice)).as("idle for two thirds since the owner's use")
			.isEqualTo(this.alice);
	}

	@Test
	void strangersUseDoesNotKeepTheBindingAlive() {
		this.store.bind("s-5", this.alice);
		elapse(IDLE.dividedBy(3).multipliedBy(2));
		assertThat(this.store.use("s-5", this.bob)).isEqualTo(this.alice);

		elapse(IDLE.dividedBy(3).multipliedBy(2));

		assertThat(this.store.use("s-5", this.alice)).isNull();
	}

	@Test
	void sizeCountsBindingsOrSaysItDoesNot() {
		long before = this.store.size();
		this.store.bind("s-6", this.alice);

		long after = this.store.size();

		assertThat(after).isEqualTo((before == -1) ? -1 : before + 1);
	}

}
