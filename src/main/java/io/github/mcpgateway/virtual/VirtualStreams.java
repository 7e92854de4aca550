package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.security.concurrent.DelegatingSecurityContextExecutorService;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.transport.FilteredResponse;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

/**
 * The client's stream of a virtual server (its GET): one GET per member the session
 * holds, each through the member's pipeline and the proxy as the member's own, merged
 * into one event stream ({@link MergedStream}). Each member's messages and event ids
 * reach the client under its prefix ({@link MemberMessages}): its requests (sampling,
 * elicitation, {@code roots/list}), whose answers the client posts back, and its
 * notifications (a list change, which is the virtual server's list changing, a resource
 * update by the member's own URI). A client that resumes ({@code Last-Event-ID}) resumes
 * the member its event id names; the other members' streams open afresh.
 *
 * <p>
 * The stream ends when every member's has ended (or none began: the GET is refused as a
 * server without a stream refuses it). While it runs, a comment every {@code keepAlive}
 * keeps idle intermediaries from ending it and tells the gateway that the client has
 * left; each member's relay then ends at its next event or at the proxy's idle timeout,
 * as a relayed GET on a server's own path does.
 */
final class VirtualStreams implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(VirtualStreams.class);

	/** How long a member's stream may take to begin before the client's opens anyway. */
	private static final Duration OPEN_AFTER = Duration.ofMillis(500);

	private final MemberCalls calls;

	private final MemberLists lists;

	private final JsonMapper json;

	private final int maxEventBytes;

	private final ExecutorService executor;

	private final Duration keepAlive;

	private final GatewayClock clock;

	private final Map<MergedStream, Watched> open = new ConcurrentHashMap<>();

	VirtualStreams(MemberCalls calls, MemberLists lists, JsonMapper json, int maxEventBytes, Duration keepAlive,
			GatewayClock clock) {
		this.calls = calls;
		this.lists = lists;
		this.clock = clock;
		this.json = json;
		this.maxEventBytes = maxEventBytes;
		this.keepAlive = keepAlive;
		// One thread per member of each open stream, with the client's security context
		// (the member's pipeline reads the caller from it).
		AtomicInteger count = new AtomicInteger();
		this.executor = new DelegatingSecurityContextExecutorService(Executors.newCachedThreadPool((runnable) -> {
			Thread thread = new Thread(runnable, "virtual-stream-" + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		}));
	}

	/** Ends every relay: the gateway is shutting down. */
	@Override
	public void close() {
		this.executor.shutdownNow();
	}

	/**
	 * Relays the members' streams to {@code response} until they end.
	 * @return whether any member's stream began (else nothing was written)
	 */
	boolean relay(HttpServletRequest client, HttpServletResponse response, Policy policy, VirtualServerPolicy virtual,
			VirtualSession session) {
		String lastEventId = client.getHeader(McpHeaders.LAST_EVENT_ID);
		Member resumed = (lastEventId != null) ? virtual.memberOf(lastEventId) : null;
		Map<Member, MemberRequest> gets = new LinkedHashMap<>();
		for (Member member : virtual.members()) {
			McpServerPolicy server = policy.named(member.server());
			MemberSession memberSession = session.members().get(member.prefix());
			if (server != null && memberSession != null) {
				String resumeAt = member.equals(resumed) ? member.localName(lastEventId) : null;
				gets.put(member, MemberRequest.get(client, server.path(), headers(memberSession, resumeAt)));
			}
		}
		MergedStream merged = new MergedStream(response);
		this.open.put(merged, new Watched(virtual.uid(), stateOf(policy, virtual.uid())));
		try {
			merge(gets, policy, response, merged, false);
		}
		finally {
			this.open.remove(merged);
		}
		return merged.committed();
	}

	/**
	 * A 2026-07-28 {@code subscriptions/listen}: the client's stream opens at once with
	 * the virtual server's own {@code acknowledgement} (one, not one per member), then
	 * carries what each member's listen stream ({@code listens}, each member's request)
	 * sends, the members' own acknowledgements left out, until the members' streams end
	 * or the client leaves (which, in this revision, ends the subscription).
	 */
	void listen(HttpServletResponse response, Policy policy, Map<Member, MemberRequest> listens, byte[] acknowledgement)
			throws IOException {
		MergedStream merged = new MergedStream(response);
		merged.open();
		merged.write(acknowledgement, 0, acknowledgement.length);
		merge(listens, policy, response, merged, true);
	}

	private void merge(Map<Member, MemberRequest> requests, Policy policy, HttpServletResponse response,
			MergedStream merged, boolean listen) {
		List<Future<?>> relays = new ArrayList<>();
		requests.forEach((member, request) -> {
			McpServerPolicy server = policy.named(member.server());
			relays.add(this.executor.submit(() -> relayOne(request, policy, server, member, response, merged, listen)));
		});
		awaitAll(relays, merged);
	}

	/**
	 * A policy was published: each open stream whose virtual server changed (its members,
	 * their selections, its or their grants) is told that its lists changed. A reload may
	 * say so once more than needed (a grant's condition compares by identity); a client
	 * lists again.
	 */
	void policyPublished(Policy policy) {
		this.open.forEach((stream, watched) -> {
			List<Object> state = stateOf(policy, watched.virtualUid());
			if (!state.equals(watched.state())) {
				this.open.replace(stream, watched, new Watched(watched.virtualUid(), state));
				stream.listsChanged();
			}
		});
	}

	/**
	 * What a virtual server's lists depend on in {@code policy}: the virtual server and
	 * its members' servers; empty when it is gone.
	 */
	private static List<Object> stateOf(Policy policy, String virtualUid) {
		for (VirtualServerPolicy virtual : policy.virtualServers()) {
			if (virtual.uid().equals(virtualUid)) {
				List<Object> state = new ArrayList<>();
				state.add(virtual);
				virtual.members().forEach((member) -> state.add(policy.named(member.server())));
				return state;
			}
		}
		return List.of();
	}

	/** An open stream's virtual server, and what its lists depended on when last told. */
	private record Watched(String virtualUid, List<Object> state) {
	}

	private Void relayOne(MemberRequest get, Policy policy, McpServerPolicy server, Member member,
			HttpServletResponse response, MergedStream merged, boolean listen) throws IOException, ServletException {
		StreamPart part = new StreamPart(response, merged);
		FilteredResponse filtered = new FilteredResponse(part,
				new MemberMessages(member, this.json, this.lists, listen), this.maxEventBytes,
				FilteredResponse.Unreadable.WITHHOLD);
		this.calls.send(get, policy, server, filtered);
		filtered.finish();
		logger.debug("The stream of member {} ended: {} {}", member.prefix(), part.getStatus(), part.getContentType());
		return null;
	}

	/**
	 * Waits for every relay, writing a keep-alive between. A member that offers no stream
	 * refuses at once, but one that does may send its headers only with its first event:
	 * when a relay is still running after {@link #OPEN_AFTER}, the client's stream opens.
	 */
	private void awaitAll(List<Future<?>> relays, MergedStream merged) {
		long openAt = this.clock.nanoTime() + OPEN_AFTER.toNanos();
		for (Future<?> relay : relays) {
			if (!waitFor(relay, openAt - this.clock.nanoTime(), relays)) {
				return;
			}
		}
		if (relays.stream().anyMatch((relay) -> !relay.isDone())) {
			merged.open();
		}
		for (Future<?> relay : relays) {
			while (!relay.isDone()) {
				if (!waitFor(relay, this.keepAlive.toNanos(), relays)) {
					return;
				}
				if (!relay.isDone()) {
					merged.keepAlive();
				}
			}
		}
	}

	/**
	 * Waits up to {@code nanos} for {@code relay} to end; {@code false} when this thread
	 * was interrupted (every relay is then cancelled). A relay that failed (the client
	 * left, the member went away) ended that member's part only.
	 */
	private static boolean waitFor(Future<?> relay, long nanos, List<Future<?>> relays) {
		if (nanos <= 0) {
			return true;
		}
		try {
			relay.get(nanos, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			// Still running.
		}
		catch (ExecutionException ex) {
			logger.debug("A member's stream of a virtual server ended: {}", ex.getCause().toString());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			relays.forEach((each) -> each.cancel(true));
			return false;
		}
		return true;
	}

	private static Map<String, @Nullable String> headers(MemberSession session, @Nullable String lastEventId) {
		Map<String, @Nullable String> headers = MemberCalls.headers(session);
		headers.put(HttpHeaders.ACCEPT, MediaType.TEXT_EVENT_STREAM_VALUE);
		headers.put(McpHeaders.LAST_EVENT_ID, lastEventId);
		return headers;
	}

}
