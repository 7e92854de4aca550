package io.github.mcpgateway.task;

import java.time.Clock;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.poll.PeriodicTask;
import io.github.mcpgateway.request.Refusals;

/**
 * Wires the task stage and its store; the store follows {@code gateway.session.store}
 * (task bindings live where session bindings live). Its place in the pipeline is set by
 * the pipeline configuration.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(TaskProperties.class)
class TaskConfiguration {

	@Bean
	TaskStage taskStage(TaskStore store, GrantEvaluator grants, Refusals refusals, JsonMapper jsonMapper,
			TaskProperties properties, Clock clock) {
		// Wide bounds (tool results nest and carry numbers), but bounds: what the gateway
		// reads is what a client reads.
		long maxReply = properties.maxReplySize().toBytes();
		StrictJsonReader reader = new StrictJsonReader(new JsonReadLimits(1000, 10_000, 100_000,
				(int) Math.max(JsonReadLimits.DEFAULT_MAX_STRING_LENGTH, maxReply)), maxReply);
		return new TaskStage(store, new TaskRequestDecider(store, grants), new ListenRequests(jsonMapper), refusals,
				reader, jsonMapper, properties, clock);
	}

	@Bean
	TaskMeters taskMeters(MeterRegistry meterRegistry, TaskStore store) {
		return new TaskMeters(meterRegistry, store);
	}

	/** {@code gateway.session.store: memory}, the default. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.session", name = "store", havingValue = "memory", matchIfMissing = true)
	static class Memory {

		@Bean
		InMemoryTaskStore taskStore(TaskProperties properties, Clock clock) {
			return new InMemoryTaskStore(properties, clock);
		}

	}

	/** {@code gateway.session.store: redis}: bindings shared by every replica. */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnProperty(prefix = "gateway.session", name = "store", havingValue = "redis")
	static class Redis {

		/** How often bindings made while Redis was unreachable are retried. */
		private static final Duration MAINTENANCE_INTERVAL = Duration.ofSeconds(1);

		@Bean
		RedisTaskStore taskStore(StringRedisTemplate redis, TaskProperties properties, GatewayClock clock,
				MeterRegistry meterRegistry) {
			return new RedisTaskStore(redis, properties, clock, meterRegistry);
		}

		@Bean
		PeriodicTask taskStoreMaintenance(RedisTaskStore store) {
			return new PeriodicTask("task-store-maintenance", MAINTENANCE_INTERVAL, MAINTENANCE_INTERVAL,
					store::maintain);
		}

	}

}
