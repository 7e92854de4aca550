package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;

import org.springframework.security.concurrent.DelegatingSecurityContextExecutorService;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * Each member's list as the member's pipeline returned it for one caller, fetched on a
 * thread of its own (so the members of one merged list are asked at the same time) and
 * reused for a short time ({@code gateway.virtual-servers.list-cache-ttl}).
 *
 * <p>
 * Design notes:
 * <ul>
 * <li><b>Key.</b> A member's reply depends on the caller: its pipeline filters it by the
 * member's grants for this principal (conditions read {@code human}, {@code agent} and
 * {@code team}), its upstream credentials may be the caller's, and a member with sessions
 * may answer each session its own list. An entry is therefore keyed by the client's
 * virtual session id ({@code null} for a request without one), the whole principal, the
 * member's server, the list method, the gateway's session with the member, and the
 * member's policy entry in the snapshot that fetched it, compared by identity (after a
 * reload every entry is fetched afresh, so changed grants count at once). One principal's
 * filtered list is never served to another principal, nor to another client session.
 * <li><b>What is kept</b> is the member pipeline's answer, before the member's selection
 * and the virtual server's own grants ({@link MemberCatalog} applies those on every
 * request). Not kept: {@code tasks/list} (live state that no list-changed notification
 * announces), and a list of which a page failed (the member is asked again next time, not
 * left out for a TTL).
 * <li><b>Expiry.</b> {@code ttl} after the fetch. A member's list-changed notification,
 * on any stream the gateway relays ({@link MemberMessages}), drops that member's entries
 * of that list for every caller on this replica (a list change is usually the member's
 * whole catalogue; dropping more costs one fetch). The end of a client's virtual session
 * drops its entries. A {@code ttl} of zero keeps nothing.
 * <li><b>Replicas.</b> Each replica keeps its own entries in memory and sees only the
 * notifications it relays; on the others the TTL bounds how stale a list gets.
 * <li><b>Staleness never grants.</b> A listed item is not a permission: a call, a
 * {@code prompts/get} or a {@code resources/read} is decided by the member's pipeline
 * when it is made.
 * <li><b>Concurrency.</b> An {@link AsyncCache}: requests with one key share one fetch,
 * so at most one request per member and list is in flight for a caller. A fetch runs with
 * the security context of the request that started it (the member pipeline reads the
 * caller from it); sharers have the same key, so the same principal. A fetch uses the
 * client's servlet request, so the client's thread waits for it without a timeout (the
 * member pipeline's upstream timeouts bound it) and the request outlives every fetch.
 * <li><b>Bounds.</b> Entries weigh their items' JSON size, at most {@code maxBytes} in
 * all; one list is at most {@link MemberCatalog#MAX_PAGES} replies of at most
 * {@link VirtualServerConfiguration#MAX_MEMBER_REPLY_BYTES} each. Threads: one per member
 * of each merged list in progress (bounded by the request threads).
 * <li><b>Attack notes.</b> A member that floods list-changed notifications costs a scan
 * of the keys per notification (bounded by the weight) and turns its own lists uncached.
 * </ul>
 */
final class MemberLists implements AutoCloseable {

	private final ExecutorService executor;

	private final @Nullable AsyncCache<Key, Fetched> cache;

	MemberLists(Duration ttl, long maxBytes, JsonMapper json, GatewayClock clock) {
		AtomicInteger count = new AtomicInteger();
		this.executor = new DelegatingSecurityContextExecutorService(Executors.newCachedThreadPool((runnable) -> {
			Thread thread = new Thread(runnable, "virtual-list-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}));
		this.cache = (ttl.isZero() || maxBytes == 0) ? null
				: Caffeine.newBuilder()
					.expireAfterWrite(ttl)
					.maximumWeight(maxBytes)
					.weigher((Key key, Fetched fetched) -> json.writeValueAsBytes(fetched.items()).length)
					.ticker(clock.ticker())
					.buildAsync();
	}

	/**
	 * The member's list for {@code key}: the entry, else {@code fetch} run on a thread of
	 * its own with the caller's security context and kept if it completed.
	 */
	CompletableFuture<Fetched> get(Key key, Supplier<Fetched> fetch) {
		AsyncCache<Key, Fetched> entries = this.cache;
		if (entries == null || Listing.TASKS.method().equals(key.method())) {
			return CompletableFuture.supplyAsync(fetch, this.executor);
		}
		CompletableFuture<Fetched> future = entries.get(key,
				(ignored, caffeine) -> CompletableFuture.supplyAsync(fetch, this.executor));
		return future.whenComplete((fetched, failure) -> {
			if (fetched != null && !fetched.complete()) {
				entries.asMap().remove(key, future);
			}
		});
	}

	/**
	 * A member's notification {@code method}: a list-changed one drops the member's
	 * entries of that list (both resource lists for resources), for every caller.
	 */
	void notified(String server, @Nullable String method) {
		Set<String> lists = switch (String.valueOf(method)) {
			case "notifications/tools/list_changed" -> Set.of(Listing.TOOLS.method());
			case "notifications/prompts/list_changed" -> Set.of(Listing.PROMPTS.method());
			case "notifications/resources/list_changed" ->
				Set.of(Listing.RESOURCES.method(), Listing.TEMPLATES.method());
			default -> Set.of();
		};
		if (!lists.isEmpty()) {
			drop((key) -> key.server().equals(server) && lists.contains(key.method()));
		}
	}

	/** A client's virtual session ended: its entries go. */
	void ended(String sessionId) {
		drop((key) -> sessionId.equals(key.session()));
	}

	private void drop(Predicate<Key> which) {
		if (this.cache != null) {
			Map<Key, CompletableFuture<Fetched>> entries = this.cache.asMap();
			entries.keySet().removeIf(which);
		}
	}

	/** Ends the fetches still running: the gateway is shutting down. */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/**
	 * What one member's list is kept under (see the design notes above).
	 *
	 * @param session the client's virtual session id, {@code null} without one
	 * @param principal the caller
	 * @param server the member's server ({@code namespace/name})
	 * @param method the list method
	 * @param memberSession the gateway's session with the member, {@code null} for a
	 * member without sessions
	 * @param policy the member's entry in the policy snapshot, compared by identity
	 */
	record Key(@Nullable String session, McpPrincipal principal, String server, String method,
			@Nullable String memberSession, McpServerPolicy policy) {

		@Override
		public boolean equals(@Nullable Object other) {
			return other instanceof Key key && Objects.equals(this.session, key.session)
					&& this.principal.equals(key.principal) && this.server.equals(key.server)
					&& this.method.equals(key.method) && Objects.equals(this.memberSession, key.memberSession)
					&& this.policy == key.policy;
		}

		@Override
		public int hashCode() {
			return Objects.hash(this.session, this.principal, this.server, this.method, this.memberSession,
					System.identityHashCode(this.policy));
		}

	}

	/**
	 * A member's list as its pipeline returned it: every page's items, read only once
	 * fetched (they are shared by every request the entry serves).
	 *
	 * @param items the items of every page read
	 * @param complete whether every page was read (else a page failed and the list is not
	 * kept)
	 */
	record Fetched(ArrayNode items, boolean complete) {
	}

}
