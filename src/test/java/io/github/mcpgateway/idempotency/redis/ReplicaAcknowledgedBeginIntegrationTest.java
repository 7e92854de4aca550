package io.github.mcpgateway.idempotency.redis;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.mcpgateway.support.GatewayReplica;
import io.github.mcpgateway.support.RedisServer;
import io.github.mcpgateway.support.Replies;
import io.github.mcpgateway.support.TestHttp;
import io.github.mcpgateway.support.TestJwts;
import io.github.mcpgateway.support.TestUpstream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ADR 0025, issue 44: with {@code gateway.idempotency.redis.wait-for-replicas: 1} and a
 * real redis-server replicating the store's, a keyed call's {@code begin} is on the
 * replica before the upstream sees the call (the upstream looks at the replica when the
 * call arrives); with the replica gone, keyed calls are refused with
 * {@code 503 idempotency_unavailable} and never reach the upstream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReplicaAcknowledgedBeginIntegrationTest {

	private final RedisServer master = RedisServer.start();

	private final RedisServer replica = RedisServer.replicaOf(this.master);

	private final TestUpstream upstream = TestUpstream.start();

	private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

	private ConfigurableApplicationContext gateway;

	private final String token = TestJwts.jwt().human("alice-" + UUID.randomUUID()).sign();

	/** The store's entries the replica held when each call reached the upstream. */
	private final List<Set<String>> seenOnTheReplica = new CopyOnWriteArrayList<>();

	@BeforeAll
	void startTheGateway() {
		Path policy = GatewayReplica.policy(this.upstream);
		this.gateway = GatewayReplica.start(policy,
				Map.of("gateway.idempotency.store", "redis", "gateway.idempotency.redis.wait-for-replicas", "1",
						"gateway.idempotency.redis.wait-timeout", "3s", "spring.data.redis.lettuce.pool.enabled",
						"true", "spring.data.redis.host", "127.0.0.1", "spring.data.redis.port",
						Integer.toString(this.master.port())));
		this.upstream.reply((request, exchange) -> {
			this.seenOnTheReplica.add(this.replica.template().keys("{mcp-gateway}:idempotency:e:*"));
			Replies.jsonResult("{}").write(request, exchange);
		});
	}

	@AfterAll
	void stopEverything() {
		this.gateway.close();
		this.replica.close();
		this.master.close();
	}

	@Test
	void keyedCallsBeginIsOnTheReplicaBeforeTheUpstreamSeesItAndWithoutTheReplicaNoneRuns() {
		for (int i = 0; i < 5; i++) {
			assertThat(keyed(UUID.randomUUID().toString()).statusCode()).isEqualTo(200);
		}

		assertThat(this.seenOnTheReplica).hasSize(5);
		for (int i = 0; i < 5; i++) {
			assertThat(this.seenOnTheReplica.get(i)).as("call %d", i + 1).hasSize(i + 1);
		}

		this.replica.stop();
		HttpResponse<String> refused = keyed(UUID.randomUUID().toString());
		assertThat(refused.statusCode()).isEqualTo(503);
		assertThat(refused.body()).contains("\"code\":\"idempotency_unavailable\"");
		assertThat(this.upstream.count()).as("the refused call never reached the upstream").isEqualTo(5);
	}

	private HttpResponse<String> keyed(String key) {
		return TestHttp.send(http,
				GatewayReplica.post(this.gateway, this.token, null, key,
						"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"notes_create\","
								+ "\"arguments\":{\"text\":\"x\"}}}"));
	}

}
