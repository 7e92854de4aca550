package io.github.mcpgateway.quota;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every quota store does: a bucket gives {@code burst} tokens at once and one more
 * per interval, refuses with the wait until its next token, and a request's buckets give
 * a token each or none.
 */
abstract class QuotaStoreContractTests {

	private static final long SECOND = Duration.ofSeconds(1).toNanos();

	private QuotaStore store;

	/** A store with no bucket in use. */
	protected abstract QuotaStore createStore();

	/** Lets {@code duration} pass on the store's clock. */
	protected abstract void pass(Duration duration) throws InterruptedException;

	@BeforeEach
	void create() {
		this.store = createStore();
	}

	@Test
	void aBucketGivesItsBurstThenRefusesWithTheWaitForItsNextToken() {
		QuotaBucket bucket = new QuotaBucket("s|limit|p:alice/", 60 * SECOND, 3);

		assertThat(this.store.consume(List.of(bucket)).remaining()).containsExactly(2);
		assertThat(this.store.consume(List.of(bucket)).remaining()).containsExactly(1);
		assertThat(this.store.consume(List.of(bucket)).remaining()).containsExactly(0);
		QuotaResult refused = this.store.consume(List.of(bucket));

		assertThat(refused.allowed()).isFalse();
		assertThat(refused.refusedBy()).isZero();
		assertThat(refused.retryAfter()).isGreaterThan(Duration.ofSeconds(55))
			.isLessThanOrEqualTo(Duration.ofSeconds(60));
		assertThat(tokens(List.of(bucket))).containsExactly(0L);
	}

	@Test
	void aBucketGainsATokenPerInterval() throws InterruptedException {
		QuotaBucket bucket = new QuotaBucket("s|limit|p:bob/", SECOND, 1);
		assertThat(this.store.consume(List.of(bucket)).allowed()).isTrue();
		assertThat(this.store.consume(List.of(bucket)).allowed()).isFalse();

		pass(Duration.ofMillis(1100));

		assertThat(this.store.consume(List.of(bucket)).allowed()).isTrue();
	}

	@Test
	void aRequestsBucketsGiveATokenEachOrNone() {
		QuotaBucket wide = new QuotaBucket("s|wide|p:carol/", 60 * SECOND, 5);
		QuotaBucket tight = new QuotaBucket("s|tight|p:carol/", 60 * SECOND, 1);
		assertThat(this.store.consume(List.of(wide, tight)).allowed()).isTrue();

		QuotaResult refused = this.store.consume(List.of(wide, tight));

		assertThat(refused.refusedBy()).isEqualTo(1);
		assertThat(tokens(List.of(wide, tight))).as("the refusal took nothing from the wide bucket")
			.containsExactly(4L, 0L);
	}

	@Test
	void bucketsOfOtherKeysAreIndependent() {
		QuotaBucket alice = new QuotaBucket("s|limit|p:dave/", 60 * SECOND, 1);
		QuotaBucket bob = new QuotaBucket("s|limit|p:erin/", 60 * SECOND, 1);
		this.store.consume(List.of(alice));

		assertThat(this.store.consume(List.of(bob)).allowed()).isTrue();
		assertThat(tokens(List.of(alice, bob))).containsExactly(0L, 0L);
		assertThat(tokens(List.of(new QuotaBucket("s|limit|p:new/", SECOND, 7)))).containsExactly(7L);
	}

	@Test
	void aPeekSaysWhenTheNextTokenComesAndAFullBucketWaitsForNone() {
		QuotaBucket bucket = new QuotaBucket("s|limit|p:frank/", 12 * SECOND, 5);
		assertThat(this.store.peek(List.of(bucket))).containsExactly(new QuotaStore.BucketLevel(5, Duration.ZERO));

		this.store.consume(List.of(bucket));
		this.store.consume(List.of(bucket));

		QuotaStore.BucketLevel level = this.store.peek(List.of(bucket)).get(0);
		assertThat(level.tokens()).isEqualTo(3);
		assertThat(level.nextToken()).isGreaterThan(Duration.ofSeconds(10)).isLessThanOrEqualTo(Duration.ofSeconds(12));
	}

	private List<Long> tokens(List<QuotaBucket> buckets) {
		return this.store.peek(buckets).stream().map(QuotaStore.BucketLevel::tokens).toList();
	}

}
