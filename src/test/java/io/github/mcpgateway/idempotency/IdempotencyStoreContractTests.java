package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.BeginResult.Refusal;
import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;
import io.github.mcpgateway.idempotency.IdempotencyStore.TombstoneKind;

import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract of {@link IdempotencyStore}: every rule of the ADR's store section, run
 * against each implementation. Time is a fake clock, so TTLs are tested without waiting.
 */
public abstract class IdempotencyStoreContractTests {

	protected final MutableClock clock = new MutableClock();

	protected IdempotencyStore store;

	/** A fresh, empty store with {@code limits} and {@code clock}. */
	protected abstract IdempotencyStore createStore(Limits limits, GatewayClock clock);

	/**
	 * What a live replica does periodically for its in-flight entries (a shared store
	 * renews leases).
	 */
	protected void keepAlive() {
	}

	@org.junit.jupiter.api.BeforeEach
	void createDefaultStore() {
		this.store = createStore(Limits.defaults(), this.clock);
	}

	@Test
	void beginWhenNewThenStartedAndDuplicateIsInFlight() {
		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOf(BeginResult.Started.class);

		assertThat(this.store.begin(entry("k", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
	}

	@Test
	void beginWhenSameKeyDifferentRequestThenConflictWhateverTheState() {
		this.store.begin(entry("k", "s", "p"));

		assertThat(this.store.begin(new IdempotencyEntry("k", "other-hash", "s", "p")))
			.isEqualTo(new BeginResult.Refused(Refusal.CONFLICT));
	}

	@Test
	void completeThenReplayUntilTtlCountedFromCompletionNotFromBegin() {
		this.store.begin(entry("k", "s", "p"));
		this.clock.advance(Duration.ofMinutes(4));
		this.store.complete(entry("k", "s", "p"), reply("done"));

		this.clock.advance(Duration.ofMinutes(4));
		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOfSatisfying(BeginResult.Replay.class,
				(replay) -> assertThat(new String(replay.reply().body(), StandardCharsets.UTF_8)).isEqualTo("done"));

		this.clock.advance(Duration.ofSeconds(61));
		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void completionKeptAtLeastLongerThanTheTtlReplaysThatLongThenFrees() {
		this.store.begin(entry("k", "s", "p"));
		this.store.complete(entry("k", "s", "p"), reply("task"), Duration.ofMinutes(30));

		this.clock.advance(Duration.ofMinutes(29));
		keepAlive();
		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOf(BeginResult.Replay.class);

		this.clock.advance(Duration.ofMinutes(2));
		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void tombstoneKeptAtLeastLongerThanTheTtlAnswersThatLong() {
		this.store.begin(entry("k", "s", "p"));
		this.store.tombstone(entry("k", "s", "p"), TombstoneKind.NOT_REPLAYABLE, Duration.ofMinutes(30));

		this.clock.advance(Duration.ofMinutes(29));
		assertThat(this.store.begin(entry("k", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.NOT_REPLAYABLE));

		this.clock.advance(Duration.ofMinutes(2));
		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void entriesOfDifferentLifetimesExpireEachAtItsOwnTime() {
		this.store.begin(entry("long", "s", "p"));
		this.store.complete(entry("long", "s", "p"), reply("task"), Duration.ofMinutes(30));
		this.store.begin(entry("short", "s", "p"));
		this.store.complete(entry("short", "s", "p"), reply("plain"));

		this.clock.advance(Duration.ofMinutes(6));

		assertThat(this.store.begin(entry("short", "s", "p"))).isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.begin(entry("long", "s", "p"))).isInstanceOf(BeginResult.Replay.class);
		assertThat(this.store.stats().replayable()).isEqualTo(1);
	}

	@Test
	void inFlightEntryOfALiveReplicaNeverExpires() {
		this.store.begin(entry("k", "s", "p"));

		for (int i = 0; i < 1080; i++) {
			this.clock.advance(Duration.ofSeconds(10));
			keepAlive();
		}

		assertThat(this.store.begin(entry("k", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
	}

	@Test
	void tombstonesAnswerUntilTheirTtlThenTheKeyIsFree() {
		this.store.begin(entry("u", "s", "p"));
		this.store.tombstone(entry("u", "s", "p"), TombstoneKind.OUTCOME_UNKNOWN);
		this.store.begin(entry("n", "s", "p"));
		this.store.tombstone(entry("n", "s", "p"), TombstoneKind.NOT_REPLAYABLE);

		assertThat(this.store.begin(entry("u", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.OUTCOME_UNKNOWN));
		assertThat(this.store.begin(entry("n", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.NOT_REPLAYABLE));
		this.clock.advance(Duration.ofMinutes(5));
		assertThat(this.store.begin(entry("u", "s", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void releaseForgetsTheKey() {
		this.store.begin(entry("k", "s", "p"));

		this.store.release(entry("k", "s", "p"));

		assertThat(this.store.begin(entry("k", "s", "p"))).isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.stats().entries()).isEqualTo(1);
	}

	@Test
	void scopeInFlightCapRefusesWhileOtherScopesProceed() {
		for (int i = 0; i < 4; i++) {
			assertThat(this.store.begin(entry("k" + i, "s", "p"))).isInstanceOf(BeginResult.Started.class);
		}

		assertThat(this.store.begin(entry("k4", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.CAPACITY));
		assertThat(this.store.begin(entry("x", "s2", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void principalInFlightCapSpansSessions() {
		for (int i = 0; i < 8; i++) {
			assertThat(this.store.begin(entry("k" + i, "s" + (i / 4), "p"))).isInstanceOf(BeginResult.Started.class);
		}

		assertThat(this.store.begin(entry("k8", "s9", "p"))).isEqualTo(new BeginResult.Refused(Refusal.CAPACITY));
		assertThat(this.store.begin(entry("other", "t", "q"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void globalInFlightCap() {
		for (int i = 0; i < 32; i++) {
			assertThat(this.store.begin(entry("k" + i, "s" + i, "p" + i))).isInstanceOf(BeginResult.Started.class);
		}

		assertThat(this.store.begin(entry("k32", "s32", "p32"))).isEqualTo(new BeginResult.Refused(Refusal.CAPACITY));
	}

	@Test
	void tombstoneBudgetCountsInFlightReservations() {
		for (int i = 0; i < 6; i++) {
			this.store.begin(entry("t" + i, "s", "p"));
			this.store.tombstone(entry("t" + i, "s", "p"), TombstoneKind.OUTCOME_UNKNOWN);
		}
		assertThat(this.store.begin(entry("a", "s", "p"))).isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.begin(entry("b", "s", "p"))).isInstanceOf(BeginResult.Started.class);

		// 6 tombstones + 2 reserved = 8: a third in-flight key could end in a ninth
		// tombstone.
		assertThat(this.store.begin(entry("c", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.CAPACITY));

		this.store.complete(entry("a", "s", "p"), reply("ok"));
		assertThat(this.store.begin(entry("c", "s", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void scopeEntryCapEvictsOldestCompletedInThatScope() {
		for (int i = 0; i < 32; i++) {
			this.store.begin(entry("k" + i, "s", "p"));
			this.store.complete(entry("k" + i, "s", "p"), reply("r" + i));
		}

		assertThat(this.store.begin(entry("k32", "s", "p"))).isInstanceOf(BeginResult.Started.class);

		assertThat(this.store.begin(entry("k0", "s", "p"))).as("oldest evicted: runs again")
			.isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.begin(entry("k2", "s", "p"))).isInstanceOf(BeginResult.Replay.class);
	}

	@Test
	void entryCapNeverEvictsTombstonesOrInFlight() {
		this.store = createStore(new Limits(Duration.ofMinutes(5), 256, 32, 3, 4, 64, 8, 8, DataSize.ofKilobytes(32)),
				this.clock);
		this.store.begin(entry("t", "s", "p"));
		this.store.tombstone(entry("t", "s", "p"), TombstoneKind.OUTCOME_UNKNOWN);
		this.store.begin(entry("f", "s", "p"));
		this.store.begin(entry("g", "s", "p"));

		assertThat(this.store.begin(entry("h", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.CAPACITY));
		assertThat(this.store.begin(entry("t", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.OUTCOME_UNKNOWN));
		assertThat(this.store.begin(entry("f", "s", "p"))).isEqualTo(new BeginResult.Refused(Refusal.IN_FLIGHT));
	}

	@Test
	void principalEntryCapEvictsOldestCompletedOfThatPrincipalAcrossSessions() {
		for (int i = 0; i < 64; i++) {
			this.store.begin(entry("k" + i, "s" + (i / 32), "p"));
			this.store.complete(entry("k" + i, "s" + (i / 32), "p"), reply("r"));
		}

		assertThat(this.store.begin(entry("new", "s9", "p"))).isInstanceOf(BeginResult.Started.class);

		assertThat(this.store.begin(entry("k1", "s0", "p"))).isInstanceOf(BeginResult.Replay.class);
		assertThat(this.store.begin(entry("k0", "s0", "p"))).as("oldest evicted: runs again")
			.isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void globalEntryCapEvictsOldestCompletedAnywhere() {
		for (int i = 0; i < 256; i++) {
			this.store.begin(entry("k" + i, "s" + i, "p" + i));
			this.store.complete(entry("k" + i, "s" + i, "p" + i), reply("r"));
		}

		assertThat(this.store.begin(entry("new", "x", "y"))).isInstanceOf(BeginResult.Started.class);

		assertThat(this.store.stats().entries()).isEqualTo(256);
		assertThat(this.store.begin(entry("k0", "s0", "p0"))).isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.begin(entry("k5", "s5", "p5"))).isInstanceOf(BeginResult.Replay.class);
	}

	@Test
	void globalEntryCapWithNothingEvictableRefusesButUnrelatedKeysStillReplay() {
		this.store = createStore(new Limits(Duration.ofMinutes(5), 4, 32, 32, 4, 64, 8, 8, DataSize.ofKilobytes(32)),
				this.clock);
		for (int i = 0; i < 4; i++) {
			this.store.begin(entry("t" + i, "s" + i, "p" + i));
			this.store.tombstone(entry("t" + i, "s" + i, "p" + i), TombstoneKind.NOT_REPLAYABLE);
		}

		assertThat(this.store.begin(entry("new", "x", "y"))).isEqualTo(new BeginResult.Refused(Refusal.CAPACITY));
		assertThat(this.store.stats().tombstones()).isEqualTo(4);
	}

	@Test
	void statsCountStatesAndBytes() {
		this.store.begin(entry("a", "s", "p"));
		this.store.complete(entry("a", "s", "p"), reply("12345"));
		this.store.begin(entry("b", "s", "p"));
		this.store.tombstone(entry("b", "s", "p"), TombstoneKind.OUTCOME_UNKNOWN);
		this.store.begin(entry("c", "s", "p"));

		assertThat(this.store.stats().entries()).isEqualTo(3);
		assertThat(this.store.stats().inFlight()).isEqualTo(1);
		assertThat(this.store.stats().tombstones()).isEqualTo(1);
		assertThat(this.store.stats().replayable()).isEqualTo(1);
		assertThat(this.store.stats().bytes()).isEqualTo(5);
	}

	@Test
	void fullestScopeBudgetIsTheMostTombstonesPlusInFlightOfAnyScopeAndFallsAsThoseGo() {
		assertThat(this.store.stats().fullestScopeBudget()).isZero();
		for (int i = 0; i < 3; i++) {
			this.store.begin(entry("t" + i, "busy", "p"));
			this.store.tombstone(entry("t" + i, "busy", "p"), TombstoneKind.NOT_REPLAYABLE);
		}
		this.store.begin(entry("running", "busy", "p"));
		this.store.begin(entry("other", "quiet", "q"));
		this.store.begin(entry("done", "quiet", "q"));
		this.store.complete(entry("done", "quiet", "q"), reply("x"));

		assertThat(this.store.stats().fullestScopeBudget()).as("3 tombstones + 1 in flight in scope busy").isEqualTo(4);

		this.store.release(entry("running", "busy", "p"));
		assertThat(this.store.stats().fullestScopeBudget()).isEqualTo(3);
		this.clock.advance(Duration.ofMinutes(6));
		assertThat(this.store.stats().fullestScopeBudget()).as("tombstones expired; 'other' still in flight")
			.isEqualTo(1);
	}

	protected static IdempotencyEntry entry(String key, String scope, String principal) {
		return new IdempotencyEntry(key, "hash-" + key, scope, principal);
	}

	protected static StoredReply reply(String body) {
		return new StoredReply(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
	}

}
