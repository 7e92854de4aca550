package io.github.mcpgateway.stdio;

import java.nio.file.Path;
import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.poll.PeriodicTask;

/**
 * Wires the stdio servers' sessions: the registry of processes, its idle sweep, and the
 * ends that come from elsewhere (a policy that drops or changes a server, a session the
 * gateway forgets).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(StdioProperties.class)
public class StdioConfiguration {

	/** How often idle sessions are looked for. */
	static final Duration IDLE_SWEEP = Duration.ofSeconds(1);

	@Bean
	StdioSessions stdioSessions(StdioProperties properties, GatewayClock clock, MeterRegistry meterRegistry,
			ApplicationEventPublisher publisher, LivePolicy livePolicy) {
		StdioSessions sessions = new StdioSessions(
				new StdioCommands(System::getenv, Path.of("").toAbsolutePath(), properties.ulimit()),
				properties.limits(), properties.maxProcesses(), clock,
				new StdioEvents(meterRegistry, publisher, clock));
		livePolicy.onPublish(sessions::policyPublished);
		return sessions;
	}

	/** A policy whose stdio command this machine cannot run is not loaded. */
	@Bean
	StdioExecutables stdioExecutables() {
		return new StdioExecutables(System::getenv);
	}

	@Bean
	PeriodicTask stdioIdleSweep(StdioSessions stdioSessions) {
		return new PeriodicTask("stdio-idle", IDLE_SWEEP, IDLE_SWEEP, stdioSessions::endIdle);
	}

}
