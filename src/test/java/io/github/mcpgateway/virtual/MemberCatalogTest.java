package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.support.MutableClock;
import io.github.mcpgateway.virtual.MemberCalls.Reply;
import io.github.mcpgateway.virtual.MemberLists.Fetched;
import io.github.mcpgateway.virtual.VirtualSession.MemberSession;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * A merged list's members are asked at the same time, each with the caller's security
 * context, merged in member order; the member's kept list is filtered by the member's
 * selection on every request.
 */
class MemberCatalogTest {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final MemberCalls calls = mock(MemberCalls.class);

	private final MemberLists lists = new MemberLists(Duration.ofSeconds(30), 1024 * 1024, JSON, new MutableClock());

	private final MemberCatalog catalog = new MemberCatalog(this.calls, new MemberSessions(this.calls, JSON, "t"),
			new GrantEvaluator(), this.lists, JSON);

	private final McpServerPolicy alphaServer = mock(McpServerPolicy.class);

	private final McpServerPolicy betaServer = mock(McpServerPolicy.class);

	private final Member alpha = new Member("test/alpha", "alpha", null);

	private final Member beta = new Member("test/beta", "beta", List.of("echo"));

	private final MemberSession session = new MemberSession("m1", "2025-06-18", "{\"tools\":{}}");

	private final Authentication caller = new TestingAuthenticationToken("vera", null);

	@AfterEach
	void close() {
		this.lists.close();
		SecurityContextHolder.clearContext();
	}

	/**
	 * Each member's call waits at a barrier both must reach: asked one after the other,
	 * the first would wait alone and fail.
	 */
	@Test
	void mergeWhenTwoMembersThenBothAreAskedAtOnceWithTheCallersSecurityContext() throws Exception {
		CyclicBarrier bothAsked = new CyclicBarrier(2);
		List<Authentication> seen = new CopyOnWriteArrayList<>();
		when(this.calls.call(any(), any(), anyString(), any())).thenAnswer((invocation) -> {
			seen.add(SecurityContextHolder.getContext().getAuthentication());
			bothAsked.await(10, TimeUnit.SECONDS);
			return (invocation.getArgument(1) == this.alphaServer) ? tools("echo", "notes_list")
					: tools("admin_reset", "echo");
		});
		SecurityContextHolder.getContext().setAuthentication(this.caller);

		List<String> names = names(merge(request("s1")));

		assertThat(names).containsExactly("alpha_echo", "alpha_notes_list", "beta_echo");
		assertThat(seen).hasSize(2).containsOnly(this.caller);
	}

	@Test
	void mergeWhenTheSameSessionListsAgainThenTheMembersAreNotAskedAgain() throws Exception {
		when(this.calls.call(any(), any(), anyString(), any())).thenReturn(tools("echo", "admin_reset"));

		List<String> first = names(merge(request("s1")));
		List<String> second = names(merge(request("s1")));
		merge(request("s2"));

		assertThat(first).containsExactly("alpha_echo", "alpha_admin_reset", "beta_echo");
		assertThat(second).as("the selection applies to a kept list too").isEqualTo(first);
		verify(this.calls, times(4)).call(any(), any(), anyString(), any());
	}

	@Test
	void mergeWhenAMemberFailsThenTheOthersItemsStayAndItsListIsNotKept() throws Exception {
		when(this.calls.call(any(), any(), anyString(), any()))
			.thenAnswer((invocation) -> (invocation.getArgument(1) == this.alphaServer) ? new Reply(502, null, null)
					: tools("echo"));

		List<String> names = names(merge(request("s1")));
		merge(request("s1"));

		assertThat(names).containsExactly("beta_echo");
		verify(this.calls, times(3)).call(any(), any(), anyString(), any());
	}

	private JsonNode merge(VirtualRequest request) {
		Map<Member, CompletableFuture<Fetched>> started = new LinkedHashMap<>();
		started.put(this.alpha, this.catalog.start(request, request.client().getHeader("Mcp-Session-Id"), Listing.TOOLS,
				this.alpha, this.alphaServer, this.session));
		started.put(this.beta, this.catalog.start(request, request.client().getHeader("Mcp-Session-Id"), Listing.TOOLS,
				this.beta, this.betaServer, this.session));
		return this.catalog.merge(request, Listing.TOOLS, started);
	}

	private VirtualRequest request(String sessionId) {
		MockHttpServletRequest client = new MockHttpServletRequest("POST", "/mcp/test/workspace");
		client.addHeader("Mcp-Session-Id", sessionId);
		VirtualServerPolicy virtual = new VirtualServerPolicy("test", "workspace", "uid-workspace",
				"/mcp/test/workspace", List.of(this.alpha, this.beta), null, null);
		return new VirtualRequest(client, new MockHttpServletResponse(), null, virtual,
				new McpPrincipal("vera", null, null), null, new byte[0]);
	}

	private static Reply tools(String... names) {
		StringBuilder tools = new StringBuilder();
		for (String name : names) {
			tools.append((tools.length() > 0) ? "," : "").append("{\"name\":\"").append(name).append("\"}");
		}
		return new Reply(200, null,
				JSON.readTree("{\"jsonrpc\":\"2.0\",\"id\":\"t\",\"result\":{\"tools\":[" + tools + "]}}"));
	}

	private static List<String> names(JsonNode items) {
		List<String> names = new ArrayList<>();
		items.forEach((item) -> names.add(item.path("name").asString()));
		return names;
	}

}
