package io.github.mcpgateway.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.request.McpExchange;
import io.github.mcpgateway.request.StageDecision;
import io.github.mcpgateway.request.StageDecision.Refuse;
import io.github.mcpgateway.request.StageDecision.Wrap;
import io.github.mcpgateway.request.TestExchanges;
import io.github.mcpgateway.revocation.RevocationProperties;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.session.SessionEvent.Type;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.transport.McpHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session stage's decisions, driven with hand-built exchanges against the in-memory
 * session store and a revocation list read from a file.
 */
class SessionStageTest {

	private static final String INITIALIZE = """
			{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}""";

	private static final String TOOLS_LIST = """
			{"jsonrpc":"2.0","id":2,"method":"tools/list"}""";

	private final McpServerPolicy server = TestExchanges.server("""
			  - namespace: test
			    name: echo
			    uid: uid-echo
			    upstream: http://upstream.example/mcp
			    path: /mcp/test/echo
			    grants:
			      - tools: ["*"]
			""");

	private final McpServerPolicy other = TestExchanges.server("""
			  - namespace: test
			    name: other
			    uid: uid-other
			    upstream: http://upstream.example/mcp
			    path: /mcp/test/other
			    grants:
			      - tools: ["*"]
			""");

	private final McpPrincipal alice = new McpPrincipal("alice", null, "blue");

	private final MutableClock clock = new MutableClock();

	private final InMemorySessionStore store = new InMemorySessionStore(
			new SessionProperties(SessionProperties.StoreType.MEMORY, 100, 10, Duration.ofHours(1),
					new SessionProperties.Redis("p:", Duration.ofSeconds(1))),
			this.clock, (dropped) -> {
			});

	private final List<SessionEvent> events = new ArrayList<>();

	@TempDir
	Path directory;

	@Test
	void decideWhenPrincipalRevokedThenRefusesEvenAnInitialize() throws IOException {
		SessionStage stage = stage("{\"principals\":[{\"human\":\"alice\"}]}");

		StageDecision decision = stage
			.decide(TestExchanges.post(this.server, INITIALIZE).principal(this.alice).build());

		assertThat(decision)
			.isEqualTo(StageDecision.refuse(GatewayErrors.PRINCIPAL_REVOKED, SessionRefusal.PRINCIPAL_REVOKED));
	}

	@Test
	void decideWhenNoSessionAndNoInitializeThenGoesOnUnwrapped() throws IOException {
		StageDecision decision = stage("{}")
			.decide(TestExchanges.post(this.server, TOOLS_LIST).principal(this.alice).build());

		assertThat(decision).isSameAs(StageDecision.proceed());
	}

	@Test
	void decideWhenInitializeThenTheSessionIdTheUpstreamReturnsIsBoundToTheCaller() throws IOException {
		McpExchange exchange = TestExchanges.post(this.server, INITIALIZE).principal(this.alice).build();

		HttpServletResponse wrapped = wrappedResponse(stage("{}").decide(exchange));
		wrapped.setHeader(McpHeaders.SESSION_ID, "s-1");

		SessionBinding binding = this.store.use("s-1", SessionBinding.of(this.server, this.alice));
		assertThat(binding).isNotNull();
		assertThat(binding.principal()).isEqualTo(this.alice);
		assertThat(this.events).extracting(SessionEvent::type).containsExactly(Type.BOUND);
	}

	@Test
	void decideWhenSessionUnknownThenSessionNotFoundAndNothingGoesOn() throws IOException {
		assertRefusedAsNotFound(stage("{}"), "s-unknown", this.server, this.alice, SessionRefusal.REJECTED_UNKNOWN);
		assertThat(this.events).extracting(SessionEvent::type).containsExactly(Type.REJECTED_UNKNOWN);
	}

	@Test
	void decideWhenSessionBoundToAnotherPrincipalThenSessionNotFound() throws IOException {
		this.store.bind("s-1", SessionBinding.of(this.server, this.alice));

		assertRefusedAsNotFound(stage("{}"), "s-1", this.server, new McpPrincipal("mallory", null, null),
				SessionRefusal.REJECTED_PRINCIPAL);
	}

	@Test
	void decideWhenSessionBoundOnAnotherServerThenSessionNotFound() throws IOException {
		this.store.bind("s-1", SessionBinding.of(this.other, this.alice));

		assertRefusedAsNotFound(stage("{}"), "s-1", this.server, this.alice, SessionRefusal.REJECTED_SERVER);
	}

	@Test
	void decideWhenSessionRevokedThenSessionNotFoundAndTheBindingIsGone() throws IOException {
		this.store.bind("s-1", SessionBinding.of(this.server, this.alice));

		assertRefusedAsNotFound(stage("{\"sessions\":[\"s-1\"]}"), "s-1", this.server, this.alice,
				SessionRefusal.REJECTED_REVOKED);
		assertThat(this.store.size()).isZero();
		assertThat(this.events).extracting(SessionEvent::type).containsExactly(Type.REVOKED, Type.REJECTED_REVOKED);
	}

	@Test
	void decideWhenTheOwnerUsesItsSessionThenGoesOnAndADeleteTheUpstreamAcceptsEndsIt() throws IOException {
		this.store.bind("s-1", SessionBinding.of(this.server, this.alice));
		McpExchange exchange = TestExchanges.delete(this.server).principal(this.alice).sessionId("s-1").build();

		HttpServletResponse wrapped = wrappedResponse(stage("{}").decide(exchange));
		assertThat(this.store.size()).isEqualTo(1);
		wrapped.setStatus(204);

		assertThat(this.store.size()).isZero();
		assertThat(this.events).extracting(SessionEvent::type).containsExactly(Type.ENDED);
	}

	@Test
	void decideWhenTheUpstreamAnswers404OnTheSessionThenTheBindingIsDropped() throws IOException {
		this.store.bind("s-1", SessionBinding.of(this.server, this.alice));
		McpExchange exchange = TestExchanges.post(this.server, TOOLS_LIST)
			.principal(this.alice)
			.sessionId("s-1")
			.build();

		wrappedResponse(stage("{}").decide(exchange)).setStatus(404);

		assertThat(this.store.size()).isZero();
		assertThat(this.events).extracting(SessionEvent::type).containsExactly(Type.UPSTREAM_NOT_FOUND);
	}

	@Test
	void decideWhenTheStoreCannotAnswerThenARequestWithASessionFailsClosed() throws IOException {
		SessionStage stage = new SessionStage(new UnavailableStore(), revocations("{}"), this::published, this.clock);

		StageDecision withSession = stage
			.decide(TestExchanges.post(this.server, TOOLS_LIST).principal(this.alice).sessionId("s-1").build());
		StageDecision initialize = stage
			.decide(TestExchanges.post(this.server, INITIALIZE).principal(this.alice).build());

		assertThat(withSession).isEqualTo(StageDecision.refuse(GatewayErrors.SESSION_STORE_UNAVAILABLE,
				SessionRefusal.SESSION_STORE_UNAVAILABLE));
		assertThat(initialize).isInstanceOf(Wrap.class);
	}

	private void assertRefusedAsNotFound(SessionStage stage, String sessionId, McpServerPolicy server,
			McpPrincipal principal, SessionRefusal reason) throws IOException {
		StageDecision decision = stage
			.decide(TestExchanges.post(server, TOOLS_LIST).principal(principal).sessionId(sessionId).build());

		assertThat(decision).isInstanceOf(Refuse.class);
		assertThat(((Refuse) decision).error().code()).isEqualTo(GatewayErrors.SESSION_NOT_FOUND.code());
		assertThat(((Refuse) decision).reason()).isEqualTo(reason);
	}

	private static HttpServletResponse wrappedResponse(StageDecision decision) {
		assertThat(decision).isInstanceOf(Wrap.class);
		Wrap wrap = (Wrap) decision;
		assertThat(wrap.response()).isNotNull();
		return wrap.response();
	}

	private SessionStage stage(String revocations) throws IOException {
		return new SessionStage(this.store, revocations(revocations), this::published, this.clock);
	}

	private RevocationSync revocations(String document) throws IOException {
		Path file = Files.writeString(this.directory.resolve("revoked.json"), document, StandardCharsets.UTF_8);
		return new RevocationSync(
				new RevocationProperties(file.toString(), Duration.ofMinutes(1), Duration.ofSeconds(1), Map.of()),
				this.clock, new SimpleMeterRegistry());
	}

	private void published(Object event) {
		this.events.add((SessionEvent) event);
	}

	/** A store that cannot answer, as Redis out of reach. */
	private static final class UnavailableStore implements SessionStore {

		@Override
		public boolean bind(String sessionId, SessionBinding binding) {
			return false;
		}

		@Override
		public @Nullable SessionBinding use(String sessionId, SessionBinding owner) {
			throw new SessionStoreException("unavailable", new IOException("connection refused"));
		}

		@Override
		public @Nullable SessionBinding remove(String sessionId) {
			return null;
		}

		@Override
		public long size() {
			return -1;
		}

		@Override
		public String type() {
			return "unavailable";
		}

	}

}
