package io.github.mcpgateway.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisConnectionFailureException;

import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The outage mechanism of the session and task stores without Redis: what is kept, when
 * it is written and forgotten, the recovery window on the monotonic reading, the meters.
 */
class RedisOutageTest {

	private static final DataAccessException DOWN = new RedisConnectionFailureException("down");

	private final MutableClock clock = new MutableClock();

	private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

	private final RedisOutage<String> outage = new RedisOutage<>(new RedisOutage.Names(RedisOutageTest.class,
			"Test store", "test.store.pending", "test.store.errors", List.of("bind", "maintain")), 2, this.meters,
			this.clock);

	@Test
	void everyNamedOperationIsCountedFromTheStartAtZero() {
		assertThat(this.meters.get("test.store.errors").tag("operation", "bind").counter().count()).isZero();
		assertThat(this.meters.get("test.store.errors").tag("operation", "maintain").counter().count()).isZero();
		assertThat(this.meters.get("test.store.pending").gauge().value()).isZero();
	}

	@Test
	void recoveringForTheWindowAfterAFailureOnly() {
		assertThat(this.outage.recovering()).as("no failure yet, even at clock reading 0").isFalse();

		this.outage.failed("bind", DOWN);
		assertThat(this.outage.recovering()).isTrue();
		this.clock.advance(RedisOutage.RECOVERY.minusMillis(1));
		assertThat(this.outage.recovering()).isTrue();
		this.clock.advance(Duration.ofMillis(2));

		assertThat(this.outage.recovering()).isFalse();
		assertThat(this.meters.get("test.store.errors").tag("operation", "bind").counter().count()).isEqualTo(1);
	}

	@Test
	void keepsTheFirstValueOfAKeyUpToTheBound() {
		this.outage.keep("a", "first", "lost");
		this.outage.keep("a", "second", "lost");
		this.outage.keep("b", "b", "lost");
		this.outage.keep("c", "c", "lost");

		assertThat(this.outage.pending("a")).isEqualTo("first");
		assertThat(this.outage.pending("c")).as("past the bound: dropped").isNull();
		assertThat(this.outage.size()).isEqualTo(2);
		assertThat(this.meters.get("test.store.pending").gauge().value()).isEqualTo(2);
	}

	@Test
	void flushWritesAndForgetsOnlyWhatIsPending() {
		this.outage.keep("a", "value", "lost");
		List<String> written = new ArrayList<>();

		assertThat(this.outage.flush("a", (key, value) -> written.add(key + "=" + value))).isTrue();
		assertThat(this.outage.flush("a", (key, value) -> written.add(key + "=" + value))).isFalse();

		assertThat(written).containsExactly("a=value");
		assertThat(this.outage.size()).isZero();
	}

	@Test
	void failedFlushKeepsTheWriteAndPropagates() {
		this.outage.keep("a", "value", "lost");

		assertThatExceptionOfType(DataAccessException.class).isThrownBy(() -> this.outage.flush("a", (key, value) -> {
			throw DOWN;
		}));

		assertThat(this.outage.pending("a")).isEqualTo("value");
	}

	@Test
	void maintainWritesEverythingPendingAndRunsIdleOnlyWithNothingPending() {
		this.outage.keep("a", "1", "lost");
		this.outage.keep("b", "2", "lost");
		List<String> written = new ArrayList<>();
		List<String> idle = new ArrayList<>();

		this.outage.maintain((key, value) -> written.add(key), () -> idle.add("ping"));
		assertThat(written).containsExactlyInAnyOrder("a", "b");
		assertThat(idle).isEmpty();
		assertThat(this.outage.size()).isZero();

		this.outage.maintain((key, value) -> written.add(key), () -> idle.add("ping"));
		assertThat(idle).containsExactly("ping");
	}

	@Test
	void maintainRecordsAFailureAndKeepsWhatItCouldNotWrite() {
		this.outage.keep("a", "1", "lost");

		this.outage.maintain((key, value) -> {
			throw DOWN;
		});

		assertThat(this.outage.pending("a")).isEqualTo("1");
		assertThat(this.outage.recovering()).isTrue();
		assertThat(this.meters.get("test.store.errors").tag("operation", "maintain").counter().count()).isEqualTo(1);
	}

	@Test
	void failedIdlePingIsRecordedAsMaintain() {
		this.outage.maintain((key, value) -> {
		}, () -> {
			throw DOWN;
		});

		assertThat(this.outage.recovering()).isTrue();
		assertThat(this.meters.get("test.store.errors").tag("operation", "maintain").counter().count()).isEqualTo(1);
	}

}
