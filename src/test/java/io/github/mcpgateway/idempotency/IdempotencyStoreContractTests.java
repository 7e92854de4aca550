package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.idempotency.BeginResult.Limit;
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

		assertThat(this.store.begin(new IdempotencyEntry("k", "other-hash", "s", "p", "human-of-p")))
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

		assertThat(this.store.begin(entry("k4", "s", "p")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.IN_FLIGHT_PER_SCOPE));
		assertThat(this.store.begin(entry("x", "s2", "p"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void principalInFlightCapSpansSessions() {
		for (int i = 0; i < 8; i++) {
			assertThat(this.store.begin(entry("k" + i, "s" + (i / 4), "p"))).isInstanceOf(BeginResult.Started.class);
		}

		assertThat(this.store.begin(entry("k8", "s9", "p")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.IN_FLIGHT_PER_PRINCIPAL));
		assertThat(this.store.begin(entry("other", "t", "q"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void globalInFlightCap() {
		for (int i = 0; i < 32; i++) {
			assertThat(this.store.begin(entry("k" + i, "s" + i, "p" + i))).isInstanceOf(BeginResult.Started.class);
		}

		assertThat(this.store.begin(entry("k32", "s32", "p32")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.IN_FLIGHT));
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
		assertThat(this.store.begin(entry("c", "s", "p")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.TOMBSTONES_PER_SCOPE));

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
		this.store = createStore(
				new Limits(Duration.ofMinutes(5), 256, 32, 3, 4, 64, 8, 8, null, null, null, DataSize.ofKilobytes(32)),
				this.clock);
		this.store.begin(entry("t", "s", "p"));
		this.store.tombstone(entry("t", "s", "p"), TombstoneKind.OUTCOME_UNKNOWN);
		this.store.begin(entry("f", "s", "p"));
		this.store.begin(entry("g", "s", "p"));

		assertThat(this.store.begin(entry("h", "s", "p")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.ENTRIES_PER_SCOPE));
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
		this.store = createStore(
				new Limits(Duration.ofMinutes(5), 4, 32, 32, 4, 64, 8, 8, null, null, 3, DataSize.ofKilobytes(32)),
				this.clock);
		for (int i = 0; i < 4; i++) {
			this.store.begin(entry("t" + i, "s" + i, "p" + i));
			this.store.tombstone(entry("t" + i, "s" + i, "p" + i), TombstoneKind.NOT_REPLAYABLE);
		}

		assertThat(this.store.begin(entry("new", "x", "y"))).isEqualTo(BeginResult.Refused.capacity(Limit.ENTRIES));
		assertThat(this.store.stats().tombstones()).isEqualTo(4);
	}

	/**
	 * Issue 36, finding 3: one human, four agents, eight sessions each, eight keyed calls
	 * per session that each leave a tombstone. Before the per-human budget these 256
	 * tombstones filled the global cap and every other caller's key got 429.
	 */
	@Test
	void oneHumanAcrossAgentsAndSessionsCannotFillTheGlobalCapWithTombstones() {
		int started = 0;
		BeginResult refused = null;
		for (int agent = 0; agent < 4; agent++) {
			for (int session = 0; session < 8; session++) {
				for (int call = 0; call < 8; call++) {
					IdempotencyEntry entry = entry("a" + agent + "s" + session + "c" + call,
							"alice/agent" + agent + "/s" + session, "alice/agent" + agent, "alice");
					BeginResult result = this.store.begin(entry);
					if (result instanceof BeginResult.Started) {
						this.store.tombstone(entry, TombstoneKind.NOT_REPLAYABLE);
						started++;
					}
					else {
						refused = result;
					}
				}
			}
		}

		assertThat(started).as("the human's tombstone budget").isEqualTo(32);
		assertThat(refused).isEqualTo(BeginResult.Refused.capacity(Limit.TOMBSTONES_PER_HUMAN));
		assertThat(this.store.stats().tombstones()).isEqualTo(32);
		assertThat(this.store.stats().fullestHumanBudget()).isEqualTo(32);
		assertThat(this.store.begin(entry("other", "bob/s", "bob/agent", "bob")))
			.isInstanceOf(BeginResult.Started.class);
		assertThat(this.store.begin(entry("a0s0c0", "alice/agent0/s0", "alice/agent0", "alice")))
			.as("a refusal never drops a tombstone")
			.isEqualTo(new BeginResult.Refused(Refusal.NOT_REPLAYABLE));
	}

	@Test
	void humanTombstoneBudgetCountsInFlightReservationsAndFreesWithExpiry() {
		for (int i = 0; i < 31; i++) {
			IdempotencyEntry entry = entry("t" + i, "s" + (i / 8), "alice/agent" + (i % 4), "alice");
			this.store.begin(entry);
			this.store.tombstone(entry, TombstoneKind.OUTCOME_UNKNOWN);
		}
		assertThat(this.store.begin(entry("last", "s9", "alice/new-agent", "alice")))
			.isInstanceOf(BeginResult.Started.class);

		assertThat(this.store.begin(entry("over", "s10", "alice/another-agent", "alice")))
			.as("31 tombstones + 1 reserved = 32")
			.isEqualTo(BeginResult.Refused.capacity(Limit.TOMBSTONES_PER_HUMAN));

		this.store.release(entry("last", "s9", "alice/new-agent", "alice"));
		assertThat(this.store.begin(entry("over", "s10", "alice/another-agent", "alice")))
			.isInstanceOf(BeginResult.Started.class);
		this.store.release(entry("over", "s10", "alice/another-agent", "alice"));
		this.clock.advance(Duration.ofMinutes(5));
		assertThat(this.store.stats().fullestHumanBudget()).isZero();
		assertThat(this.store.begin(entry("t0", "s0", "alice/agent0", "alice"))).as("expired: the key is free")
			.isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void humanInFlightCapSpansItsAgentsWhileOtherHumansProceed() {
		for (int i = 0; i < 16; i++) {
			assertThat(this.store.begin(entry("k" + i, "s" + (i / 4), "alice/agent" + (i / 8), "alice")))
				.isInstanceOf(BeginResult.Started.class);
		}

		assertThat(this.store.begin(entry("k16", "s99", "alice/agent9", "alice")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.IN_FLIGHT_PER_HUMAN));
		assertThat(this.store.begin(entry("other", "t", "bob/agent", "bob"))).isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void humanEntryCapEvictsThatHumansOldestCompletedNotAnotherHumans() {
		this.store.begin(entry("bob", "bob/s", "bob/agent", "bob"));
		this.store.complete(entry("bob", "bob/s", "bob/agent", "bob"), reply("bob's"));
		for (int i = 0; i < 128; i++) {
			IdempotencyEntry entry = entry("k" + i, "s" + (i / 32), "alice/agent" + (i / 64), "alice");
			this.store.begin(entry);
			this.store.complete(entry, reply("r" + i));
		}

		assertThat(this.store.begin(entry("new", "s9", "alice/agent9", "alice")))
			.isInstanceOf(BeginResult.Started.class);

		assertThat(this.store.stats().entries()).isEqualTo(129);
		assertThat(this.store.begin(entry("bob", "bob/s", "bob/agent", "bob"))).isInstanceOf(BeginResult.Replay.class);
		assertThat(this.store.begin(entry("k1", "s0", "alice/agent0", "alice"))).isInstanceOf(BeginResult.Replay.class);
		assertThat(this.store.begin(entry("k0", "s0", "alice/agent0", "alice"))).as("the human's oldest: evicted")
			.isInstanceOf(BeginResult.Started.class);
	}

	@Test
	void humanEntryCapWithNothingEvictableRefusesThatHumanOnly() {
		this.store = createStore(
				new Limits(Duration.ofMinutes(5), 256, 32, 32, 4, 64, 8, 8, 3, null, 8, DataSize.ofKilobytes(32)),
				this.clock);
		for (int i = 0; i < 3; i++) {
			IdempotencyEntry entry = entry("t" + i, "s" + i, "alice/agent" + i, "alice");
			this.store.begin(entry);
			this.store.tombstone(entry, TombstoneKind.NOT_REPLAYABLE);
		}

		assertThat(this.store.begin(entry("new", "s9", "alice/agent9", "alice")))
			.isEqualTo(BeginResult.Refused.capacity(Limit.ENTRIES_PER_HUMAN));
		assertThat(this.store.begin(entry("other", "t", "bob/agent", "bob"))).isInstanceOf(BeginResult.Started.class);
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
		return entry(key, scope, principal, "human-of-" + principal);
	}

	protected static IdempotencyEntry entry(String key, String scope, String principal, String human) {
		return new IdempotencyEntry(key, "hash-" + key, scope, principal, human);
	}

	protected static StoredReply reply(String body) {
		return new StoredReply(200, "application/json", body.getBytes(StandardCharsets.UTF_8));
	}

}
