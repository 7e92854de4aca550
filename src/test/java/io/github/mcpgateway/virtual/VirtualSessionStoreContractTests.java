package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.session.SessionProperties;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link VirtualSessionStore} contract, run against every store: unguessable ids, a
 * session found by its owner only, only the owner's use keeps it alive, an update never
 * revives an ended session, a session unused for the idle timeout is gone. Time passes
 * through {@link #elapse(Duration)}: the memory store reads the test clock, Redis counts
 * its own TTLs, which the Redis subclass shortens by the same amount.
 */
abstract class VirtualSessionStoreContractTests {

	protected static final Duration IDLE = Duration.ofMinutes(30);

	/** How often an owner's use renews a session (Redis); below a third of IDLE. */
	protected static final Duration TOUCH = Duration.ofMinutes(1);

	protected final MutableClock clock = new MutableClock();

	private final McpPrincipal alice = new McpPrincipal("alice", "cli", "blue");

	private final McpPrincipal bob = new McpPrincipal("bob", null, null);

	private final VirtualSession session = new VirtualSession("uid-workspace", this.alice, "2025-06-18", "{}",
			members(Map.of("stream", new MemberSession("member-1", "2025-06-18", "{}"), "json",
					new MemberSession(null, "2025-03-26", "{}"))));

	private VirtualSessionStore store;

	protected abstract VirtualSessionStore createStore(SessionProperties properties, MutableClock clock);

	/** Lets {@code duration} pass for the store's sessions. */
	protected abstract void elapse(Duration duration);

	@BeforeEach
	void createStore() {
		this.store = createStore(properties(), this.clock);
	}

	protected static SessionProperties properties() {
		return new SessionProperties(SessionProperties.StoreType.REDIS, 1_000, 1_000, IDLE,
				new SessionProperties.Redis("contract:", TOUCH));
	}

	@Test
	void openGivesA128BitIdUnderWhichTheOwnerFindsTheSessionAsOpened() {
		String id = this.store.open(this.session);
		String other = this.store.open(this.session);

		assertThat(id).matches("[0-9a-f]{32}").isNotEqualTo(other);
		assertThat(this.store.find(id, "uid-workspace", this.alice)).isEqualTo(this.session);
	}

	@Test
	void findByAnotherPrincipalOrOnAnotherVirtualServerIsNothing() {
		String id = this.store.open(this.session);

		assertThat(this.store.find(id, "uid-workspace", this.bob)).isNull();
		assertThat(this.store.find(id, "uid-other", this.alice)).isNull();
		assertThat(this.store.find(id, "uid-workspace", new McpPrincipal("alice", "cli", "red"))).isNull();
	}

	@Test
	void updateReplacesTheMemberSessions() {
		String id = this.store.open(this.session);
		VirtualSession renewed = this.session.with("stream", new MemberSession("member-2", "2025-06-18", "{}"));

		this.store.update(id, renewed);

		VirtualSession found = this.store.find(id, "uid-workspace", this.alice);
		assertThat(found).isEqualTo(renewed);
		assertThat(found.members().get("stream").sessionId()).isEqualTo("member-2");
		assertThat(found.members().get("json").sessionId()).isNull();
	}

	@Test
	void removeReturnsTheSessionOnceAndAnUpdateAfterwardsDoesNotReviveIt() {
		String id = this.store.open(this.session);

		assertThat(this.store.remove(id)).isEqualTo(this.session);
		assertThat(this.store.remove(id)).isNull();
		this.store.update(id, this.session);

		assertThat(this.store.find(id, "uid-workspace", this.alice)).isNull();
	}

	@Test
	void unknownSessionIsNothingNotAnError() {
		assertThat(this.store.find("0123456789abcdef0123456789abcdef", "uid-workspace", this.alice)).isNull();
		assertThat(this.store.remove("0123456789abcdef0123456789abcdef")).isNull();
	}

	@Test
	void sessionUnusedForTheIdleTimeoutIsGone() {
		String id = this.store.open(this.session);
		elapse(IDLE.minusSeconds(1));
		assertThat(this.store.find(id, "uid-workspace", this.bob)).isNull();

		elapse(Duration.ofSeconds(2));

		assertThat(this.store.find(id, "uid-workspace", this.alice)).isNull();
	}

	@Test
	void ownersUseKeepsTheSessionAlivePastTheIdleTimeout() {
		String id = this.store.open(this.session);
		elapse(IDLE.dividedBy(3).multipliedBy(2));
		assertThat(this.store.find(id, "uid-workspace", this.alice)).isNotNull();

		elapse(IDLE.dividedBy(3).multipliedBy(2));

		assertThat(this.store.find(id, "uid-workspace", this.alice)).as("idle for two thirds since the owner's use")
			.isEqualTo(this.session);
	}

	@Test
	void strangersLookUpDoesNotKeepTheSessionAlive() {
		String id = this.store.open(this.session);
		elapse(IDLE.dividedBy(3).multipliedBy(2));
		assertThat(this.store.find(id, "uid-workspace", this.bob)).isNull();

		elapse(IDLE.dividedBy(3).multipliedBy(2));

		assertThat(this.store.find(id, "uid-workspace", this.alice)).isNull();
	}

	private static Map<String, MemberSession> members(Map<String, MemberSession> members) {
		return new LinkedHashMap<>(members);
	}

}
