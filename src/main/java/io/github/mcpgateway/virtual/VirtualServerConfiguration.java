package io.github.mcpgateway.virtual;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.poll.PeriodicTask;
import io.github.mcpgateway.proxy.UpstreamDispatch;
import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.RequestBodyReader;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.session.SessionProperties;

/**
 * Wires the virtual servers (ADR 0021); {@code config.PipelineConfiguration} registers
 * the filter between the caps per human and the MCP pipeline. The virtual sessions live
 * where the member sessions' bindings do ({@code gateway.session.store}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(VirtualServerProperties.class)
class VirtualServerConfiguration {

	/**
	 * The most of a member's reply the gateway reads itself (an initialize, a list page);
	 * a relayed reply past it reaches the client unread, its ids as the member chose
	 * them.
	 */
	static final int MAX_MEMBER_REPLY_BYTES = 4 * 1024 * 1024;

	/**
	 * How often virtual sessions kept while Redis was unreachable are retried (or Redis
	 * is pinged), as for the session store.
	 */
	private static final Duration MAINTENANCE_INTERVAL = Duration.ofSeconds(1);

	/** How often an idle client stream of a virtual server gets a comment. */
	private static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

	@Bean
	VirtualSessionStore virtualSessionStore(SessionProperties sessions, ObjectProvider<StringRedisTemplate> redis,
			MeterRegistry meterRegistry, GatewayClock clock) {
		return switch (sessions.store()) {
			case MEMORY -> new InMemoryVirtualSessionStore(sessions.maxBindings(), sessions.idleTimeout(), clock);
			case REDIS -> new RedisVirtualSessionStore(redis.getObject(), sessions, meterRegistry, clock);
		};
	}

	/** {@code gateway.session.store: redis}: writes what an outage kept, or pings. */
	@Bean
	@ConditionalOnProperty(prefix = "gateway.session", name = "store", havingValue = "redis")
	PeriodicTask virtualSessionStoreMaintenance(VirtualSessionStore store) {
		RedisVirtualSessionStore redis = (RedisVirtualSessionStore) store;
		return new PeriodicTask("virtual-session-store-maintenance", MAINTENANCE_INTERVAL, MAINTENANCE_INTERVAL,
				redis::maintain);
	}

	/**
	 * The members' lists, fetched concurrently and kept per caller; closed (its fetches
	 * ended) at shutdown.
	 */
	@Bean
	MemberLists virtualMemberLists(VirtualServerProperties properties, JsonMapper json, GatewayClock clock) {
		return new MemberLists(properties.listCacheTtl(), properties.listCacheMaxSize().toBytes(), json, clock);
	}

	@Bean
	VirtualServerFilter virtualServerFilter(ServerLocator servers, RequestProperties request, GatewayClock clock,
			JsonRpcMessageParser parser, McpPipelineFilter pipeline, UpstreamDispatch upstream, JsonMapper json,
			VirtualSessionStore store, GatewayErrorRenderer renderer, GrantEvaluator grants, RevocationSync revocations,
			LivePolicy livePolicy, ObjectProvider<VirtualAuditListener> auditListeners, MemberLists lists,
			VirtualServerProperties properties) {
		MemberCalls calls = new MemberCalls(pipeline, upstream, json, MAX_MEMBER_REPLY_BYTES);
		VirtualStreams streams = new VirtualStreams(calls, lists, json, MAX_MEMBER_REPLY_BYTES, KEEP_ALIVE, clock);
		livePolicy.onPublish(streams::policyPublished);
		MemberSessions members = new MemberSessions(calls, json, "mcp-gateway");
		MemberCatalog catalog = new MemberCatalog(calls, members, grants, lists, json);
		MemberRoute route = new MemberRoute(calls, members, store, lists, json, MAX_MEMBER_REPLY_BYTES);
		ResourceOwners owners = new ResourceOwners(catalog, route, json);
		MemberTargets targets = new MemberTargets(owners, grants, json);
		VirtualMethods methods = new VirtualMethods(store, new VirtualInitialize(store, members, calls, json), catalog,
				targets, route, new MemberBroadcast(calls), streams, new ListenFanOut(owners, streams, json),
				new ListPages(properties.listPageSize()), revocations, json);
		VirtualRequestReader reader = new VirtualRequestReader(
				new RequestBodyReader(request.maxBodySize(), request.bodyReadTimeout(), clock), parser);
		return new VirtualServerFilter(servers, new VirtualEndpoint(reader, methods, renderer), streams,
				auditListeners.orderedStream().toList(), clock);
	}

}
