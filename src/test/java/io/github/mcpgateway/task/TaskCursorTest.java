package io.github.mcpgateway.task;

import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class TaskCursorTest {

	private final MutableClock clock = new MutableClock();

	private final byte[] secret = TaskCursor.newSecret();

	private final McpPrincipal alice = new McpPrincipal("alice", "ci/deploy", null);

	@Test
	void sealedCursorOpensForItsCallerOnServerAndShowsNothingOfTheUpstreamCursor() {
		String sealed = cursor(this.alice, "uid:a").seal("task-4711");

		assertThat(sealed).startsWith("c1.").doesNotContain("task-4711");
		assertThat(cursor(this.alice, "uid:a").open(sealed)).isEqualTo("task-4711");
		assertThat(cursor(this.alice, "uid:a").seal("task-4711")).as("a fresh nonce each time").isNotEqualTo(sealed);
	}

	@Test
	void cursorOfAnotherCallerOrServerDoesNotOpen() {
		String sealed = cursor(this.alice, "uid:a").seal("task-4711");

		assertThat(cursor(this.alice, "uid:b").open(sealed)).isNull();
		assertThat(cursor(new McpPrincipal("alice/ci", "deploy", null), "uid:a").open(sealed)).isNull();
		assertThat(cursor(new McpPrincipal("alice", "ci/deploy", "blue"), "uid:a").open(sealed)).isNull();
	}

	@Test
	void forgedTamperedOrExpiredCursorDoesNotOpen() {
		String sealed = cursor(this.alice, "uid:a").seal("task-4711");
		byte[] bytes = Base64.getUrlDecoder().decode(sealed.substring(3));
		bytes[bytes.length - 1] ^= 1;
		String tampered = "c1." + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);

		assertThat(cursor(this.alice, "uid:a").open(tampered)).isNull();
		assertThat(cursor(this.alice, "uid:a").open("task-4711")).isNull();
		assertThat(cursor(this.alice, "uid:a").open("c1.!!")).isNull();
		assertThat(cursor(this.alice, "uid:a").open("c1.AAAA")).isNull();
		assertThat(new TaskCursor(TaskCursor::newSecret, this.clock, Duration.ofHours(1), "uid:a", this.alice)
			.open(sealed)).as("another secret").isNull();

		this.clock.advance(Duration.ofHours(1));
		assertThat(cursor(this.alice, "uid:a").open(sealed)).as("expired").isNull();
	}

	@Test
	void secretIsAskedOnceAndAStoreFailureReachesTheCaller() {
		AtomicInteger asked = new AtomicInteger();
		TaskCursor cursor = new TaskCursor(() -> {
			asked.incrementAndGet();
			return this.secret;
		}, this.clock, Duration.ofHours(1), "uid:a", this.alice);

		cursor.open(cursor.seal("x"));

		assertThat(asked).hasValue(1);
		TaskCursor failing = new TaskCursor(() -> {
			throw new TaskStoreException("down", null);
		}, this.clock, Duration.ofHours(1), "uid:a", this.alice);
		assertThatExceptionOfType(TaskStoreException.class).isThrownBy(() -> failing.seal("x"));
	}

	private TaskCursor cursor(McpPrincipal principal, String server) {
		return new TaskCursor(() -> this.secret, this.clock, Duration.ofHours(1), server, principal);
	}

}
