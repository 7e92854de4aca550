package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.virtual.MemberLists.Fetched;
import io.github.mcpgateway.virtual.MemberLists.Key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.mockito.Mockito.mock;

/**
 * The members' lists kept per caller: reused within the TTL for the same key only, and
 * dropped by a list-changed notification, the end of the session, the TTL or a failed
 * fetch.
 */
class MemberListsTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final MutableClock clock = new MutableClock();

	private final MemberLists lists = new MemberLists(Duration.ofSeconds(30), 1024 * 1024, JSON, this.clock);

	private final McpServerPolicy server = mock(McpServerPolicy.class);

	private final McpPrincipal vera = new McpPrincipal("vera", "agent", null);

	private final AtomicInteger fetches = new AtomicInteger();

	@AfterEach
	void close() {
		this.lists.close();
	}

	@Test
	void getWhenTheSameKeyWithinTheTtlThenTheMemberIsAskedOnce() {
		assertThat(get(key("s1", this.vera, "tools/list")).items()).hasSize(1);
		assertThat(get(key("s1", this.vera, "tools/list")).items()).hasSize(1);

		assertThat(this.fetches).hasValue(1);
	}

	@Test
	void getWhenAnotherPrincipalSessionOrListThenTheMemberIsAskedAgain() {
		get(key("s1", this.vera, "tools/list"));

		get(key("s1", new McpPrincipal("mallory", "agent", null), "tools/list"));
		get(key("s1", new McpPrincipal("vera", "other-agent", null), "tools/list"));
		get(key("s2", this.vera, "tools/list"));
		get(key(null, this.vera, "tools/list"));
		get(key("s1", this.vera, "prompts/list"));

		assertThat(this.fetches).hasValue(6);
	}

	@Test
	void getWhenThePolicyWasReloadedThenTheMemberIsAskedAgain() {
		get(key("s1", this.vera, "tools/list"));

		get(new Key("s1", this.vera, "test/alpha", "tools/list", "m1", mock(McpServerPolicy.class)));

		assertThat(this.fetches).hasValue(2);
	}

	/**
	 * The entry's write time is set when Caffeine handles the fetch's completion, which
	 * may follow the caller's {@code join}: the clock moves on until the entry has
	 * expired, and it does within the TTL after that.
	 */
	@Test
	void getWhenTheTtlPassedThenTheMemberIsAskedAgain() {
		get(key("s1", this.vera, "tools/list"));
		this.clock.advance(Duration.ofSeconds(29));
		get(key("s1", this.vera, "tools/list"));
		assertThat(this.fetches).as("kept within the TTL").hasValue(1);

		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
			this.clock.advance(Duration.ofSeconds(31));
			get(key("s1", this.vera, "tools/list"));
			assertThat(this.fetches).hasValue(2);
		});
	}

	@Test
	void getWhenAPageFailedThenTheListIsNotKept() {
		Supplier<Fetched> failing = () -> {
			this.fetches.incrementAndGet();
			return new Fetched(JSON.createArrayNode(), false);
		};
		this.lists.get(key("s1", this.vera, "tools/list"), failing).join();

		this.lists.get(key("s1", this.vera, "tools/list"), failing).join();

		assertThat(this.fetches).hasValue(2);
	}

	@Test
	void getWhenATaskListThenItIsNeverKept() {
		get(key("s1", this.vera, "tasks/list"));
		get(key("s1", this.vera, "tasks/list"));

		assertThat(this.fetches).hasValue(2);
	}

	@Test
	void getWhenTheTtlIsZeroThenNothingIsKept() {
		MemberLists uncached = new MemberLists(Duration.ZERO, 1024 * 1024, JSON, this.clock);
		try {
			uncached.get(key("s1", this.vera, "tools/list"), this::fetch).join();
			uncached.get(key("s1", this.vera, "tools/list"), this::fetch).join();
		}
		finally {
			uncached.close();
		}

		assertThat(this.fetches).hasValue(2);
	}

	@Test
	void getWhenTheSameKeyIsFetchingThenTheSecondRequestSharesTheFetch() throws InterruptedException {
		CountDownLatch release = new CountDownLatch(1);
		Supplier<Fetched> slow = () -> {
			awaitRelease(release);
			return fetch();
		};

		var first = this.lists.get(key("s1", this.vera, "tools/list"), slow);
		var second = this.lists.get(key("s1", this.vera, "tools/list"), slow);
		release.countDown();

		assertThat(first.join().items()).hasSize(1);
		assertThat(second.join().items()).hasSize(1);
		assertThat(this.fetches).hasValue(1);
	}

	/**
	 * The member's notification, as {@link MemberMessages} sees it on a relayed reply or
	 * stream, drops that member's list of that kind for every caller, and no other.
	 */
	@Test
	void aListChangedNotificationOfTheMemberDropsItsListForEveryCaller() {
		get(key("s1", this.vera, "tools/list"));
		get(key("s2", new McpPrincipal("mallory", null, null), "tools/list"));
		get(key("s1", this.vera, "prompts/list"));
		MemberMessages messages = new MemberMessages(new Member("test/alpha", "alpha", null), JSON, this.lists);

		messages.filter("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/tools/list_changed\"}".getBytes());
		get(key("s1", this.vera, "tools/list"));
		get(key("s2", new McpPrincipal("mallory", null, null), "tools/list"));
		get(key("s1", this.vera, "prompts/list"));

		assertThat(this.fetches).as("both tool lists fetched again, the prompt list kept").hasValue(5);
	}

	@Test
	void aListChangedNotificationOfAnotherMemberKeepsTheList() {
		get(key("s1", this.vera, "resources/list"));
		MemberMessages other = new MemberMessages(new Member("test/beta", "beta", null), JSON, this.lists);

		other.filter("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/resources/list_changed\"}".getBytes());
		get(key("s1", this.vera, "resources/list"));

		assertThat(this.fetches).hasValue(1);
	}

	@Test
	void aResourceListChangedNotificationDropsBothResourceLists() {
		get(key("s1", this.vera, "resources/list"));
		get(key("s1", this.vera, "resources/templates/list"));

		this.lists.notified("test/alpha", "notifications/resources/list_changed");
		get(key("s1", this.vera, "resources/list"));
		get(key("s1", this.vera, "resources/templates/list"));

		assertThat(this.fetches).hasValue(4);
	}

	@Test
	void endedDropsTheSessionsListsOnly() {
		get(key("s1", this.vera, "tools/list"));
		get(key("s2", this.vera, "tools/list"));

		this.lists.ended("s1");
		get(key("s1", this.vera, "tools/list"));
		get(key("s2", this.vera, "tools/list"));

		assertThat(this.fetches).hasValue(3);
	}

	private Key key(@Nullable String session, McpPrincipal principal, String method) {
		return new Key(session, principal, "test/alpha", method, "m1", this.server);
	}

	private Fetched get(Key key) {
		return this.lists.get(key, this::fetch).join();
	}

	private Fetched fetch() {
		this.fetches.incrementAndGet();
		ArrayNode items = JSON.createArrayNode();
		items.addObject().put("name", "echo");
		return new Fetched(items, true);
	}

	private static void awaitRelease(CountDownLatch latch) {
		try {
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
