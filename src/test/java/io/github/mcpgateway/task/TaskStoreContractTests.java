package io.github.mcpgateway.task;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.task.TaskStore.Reservation;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@link TaskStore} contract, run against every implementation with a clock that
 * moves only when a test says so.
 */
abstract class TaskStoreContractTests {

	protected final MutableClock clock = new MutableClock();

	protected final McpPrincipal alice = new McpPrincipal("alice", "cli", "blue");

	protected final McpPrincipal bob = new McpPrincipal("bob", null, "blue");

	protected TaskStore store;

	/** A fresh, empty store with these caps and {@code clock}. */
	protected abstract TaskStore createStore(TaskProperties properties, GatewayClock clock);

	@BeforeEach
	void createDefaultStore() {
		this.store = createStore(properties(3, 5), this.clock);
	}

	@Test
	void cursorSecretIsThirtyTwoBytesAndTheSameEveryTime() {
		byte[] secret = this.store.cursorSecret();

		assertThat(secret).hasSize(32).isEqualTo(this.store.cursorSecret());
		assertThat(secret).isNotEqualTo(new byte[32]);
	}

	@Test
	void boundTaskIsFoundForItsServerAndOwnedByItsCreatorOnly() {
		bind(this.alice, "t-1", "uid:a", Duration.ofMinutes(5));

		TaskBinding found = this.store.find("uid:a", "t-1");
		assertThat(found).isNotNull();
		assertThat(found.principal()).isEqualTo(this.alice);
		assertThat(found.tool()).isEqualTo("research");
		assertThat(this.store.find("uid:b", "t-1")).as("another server's task of the same id").isNull();
		assertThat(this.store.owned("uid:a", this.alice, List.of("t-1", "t-2"))).containsExactly("t-1");
		assertThat(this.store.owned("uid:a", this.bob, List.of("t-1"))).isEmpty();
	}

	@Test
	void bindingExpiresAtItsOwnTime() {
		bind(this.alice, "short", "uid:a", Duration.ofSeconds(10));
		bind(this.alice, "long", "uid:a", Duration.ofMinutes(10));

		this.clock.advance(Duration.ofSeconds(11));

		assertThat(this.store.find("uid:a", "short")).isNull();
		assertThat(this.store.find("uid:a", "long")).isNotNull();
		assertThat(this.store.owned("uid:a", this.alice, List.of("short", "long"))).containsExactly("long");
	}

	@Test
	void rebindingKeepsTheFirstOwner() {
		bind(this.alice, "t-1", "uid:a", Duration.ofMinutes(5));

		bind(this.bob, "t-1", "uid:a", Duration.ofMinutes(5));

		assertThat(this.store.find("uid:a", "t-1").principal()).isEqualTo(this.alice);
		assertThat(this.store.owned("uid:a", this.bob, List.of("t-1"))).isEmpty();
	}

	@Test
	void perPrincipalCapCountsBindingsAndOpenReservationsAndLeavesOthersAlone() {
		bind(this.alice, "t-1", "uid:a", Duration.ofMinutes(5));
		Reservation open = this.store.reserve(this.alice);
		assertThat(open).isNotNull();
		assertThat(this.store.reserve(this.alice)).isNotNull();

		assertThat(this.store.reserve(this.alice)).as("1 binding + 2 reservations = the cap of 3").isNull();
		assertThat(this.store.reserve(this.bob)).isNotNull();
	}

	@Test
	void releasedReservationAndExpiredBindingGiveTheirPlaceBack() {
		bind(this.alice, "t-1", "uid:a", Duration.ofSeconds(10));
		Reservation second = this.store.reserve(this.alice);
		this.store.reserve(this.alice);
		assertThat(this.store.reserve(this.alice)).isNull();

		this.store.release(second);
		assertThat(this.store.reserve(this.alice)).isNotNull();
		assertThat(this.store.reserve(this.alice)).isNull();

		this.clock.advance(Duration.ofSeconds(11));
		assertThat(this.store.reserve(this.alice)).isNotNull();
	}

	@Test
	void releaseTwiceGivesBackOnePlace() {
		Reservation reservation = this.store.reserve(this.alice);
		this.store.reserve(this.alice);
		this.store.reserve(this.alice);

		this.store.release(reservation);
		this.store.release(reservation);

		assertThat(this.store.reserve(this.alice)).isNotNull();
		assertThat(this.store.reserve(this.alice)).isNull();
	}

	@Test
	void globalCapHoldsAcrossPrincipals() {
		for (int i = 0; i < 5; i++) {
			assertThat(this.store.reserve(new McpPrincipal("p" + i, null, null))).isNotNull();
		}

		assertThat(this.store.reserve(new McpPrincipal("p-late", null, null))).isNull();
	}

	@Test
	void sizeCountsLiveBindings() {
		bind(this.alice, "t-1", "uid:a", Duration.ofSeconds(10));
		bind(this.bob, "t-2", "uid:a", Duration.ofMinutes(10));
		assertThat(this.store.size()).isEqualTo(2);

		this.clock.advance(Duration.ofSeconds(11));

		assertThat(this.store.size()).isEqualTo(1);
	}

	@Test
	void concurrentReservationsNeverPassTheCap() throws Exception {
		this.store = createStore(properties(10, 1000), this.clock);
		ExecutorService pool = Executors.newFixedThreadPool(16);
		try {
			List<Future<Reservation>> reservations = new ArrayList<>();
			for (int i = 0; i < 64; i++) {
				reservations.add(pool.submit(() -> this.store.reserve(this.alice)));
			}
			int granted = 0;
			for (Future<Reservation> reservation : reservations) {
				granted += (reservation.get() != null) ? 1 : 0;
			}
			assertThat(granted).isEqualTo(10);
		}
		finally {
			pool.shutdownNow();
		}
	}

	protected void bind(McpPrincipal principal, String taskId, String server, Duration ttl) {
		Reservation reservation = this.store.reserve(principal);
		assertThat(reservation).isNotNull();
		this.store.bind(reservation, taskId,
				new TaskBinding(server, "test/" + server, principal, "research", null, this.clock.instant().plus(ttl)));
	}

	static TaskProperties properties(int perPrincipal, int total) {
		return new TaskProperties(Duration.ofHours(1), perPrincipal, total, DataSize.ofMegabytes(1),
				new TaskProperties.Redis("{test}:task:", Duration.ofMinutes(10)));
	}

}
