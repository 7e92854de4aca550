package io.github.mcpgateway.upstreamauth;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import io.github.mcpgateway.policy.UpstreamAuth;

/**
 * The upstream credential meters, registered once:
 * <ul>
 * <li>{@value #CREDENTIALS} (counter): requests that needed an upstream credential, by
 * {@code mode} and {@code outcome} ({@code cached}, {@code fetched}, {@code refused},
 * {@code unavailable});</li>
 * <li>{@value #TOKEN_REQUESTS} (timer): requests to token endpoints, by {@code mode} and
 * {@code outcome} ({@code fetched}, {@code refused}, {@code unavailable}).</li>
 * </ul>
 */
final class UpstreamAuthMeters {

	static final String CREDENTIALS = "mcp.gateway.upstream.credentials";

	static final String TOKEN_REQUESTS = "mcp.gateway.upstream.token.requests";

	private final Map<UpstreamAuth.Mode, Map<CredentialOutcome, Counter>> credentials = new EnumMap<>(
			UpstreamAuth.Mode.class);

	private final Map<UpstreamAuth.Mode, Map<CredentialOutcome, Timer>> tokenRequests = new EnumMap<>(
			UpstreamAuth.Mode.class);

	UpstreamAuthMeters(MeterRegistry registry) {
		for (UpstreamAuth.Mode mode : UpstreamAuth.Mode.values()) {
			if (mode == UpstreamAuth.Mode.NONE) {
				continue;
			}
			Map<CredentialOutcome, Counter> counters = new EnumMap<>(CredentialOutcome.class);
			Map<CredentialOutcome, Timer> timers = new EnumMap<>(CredentialOutcome.class);
			for (CredentialOutcome outcome : CredentialOutcome.values()) {
				counters.put(outcome,
						Counter.builder(CREDENTIALS)
							.tags("mode", mode.tag(), "outcome", outcome.tag())
							.description("Requests that needed an upstream credential")
							.register(registry));
				if (outcome != CredentialOutcome.CACHED) {
					timers.put(outcome,
							Timer.builder(TOKEN_REQUESTS)
								.tags("mode", mode.tag(), "outcome", outcome.tag())
								.description("Requests to token endpoints for upstream credentials")
								.register(registry));
				}
			}
			this.credentials.put(mode, counters);
			this.tokenRequests.put(mode, timers);
		}
	}

	void credential(UpstreamAuth.Mode mode, CredentialOutcome outcome) {
		this.credentials.get(mode).get(outcome).increment();
	}

	/**
	 * A token endpoint request's time: {@code outcome} fetched, refused or unavailable.
	 */
	void tokenRequest(UpstreamAuth.Mode mode, CredentialOutcome outcome, long nanos) {
		this.tokenRequests.get(mode).get(outcome).record(nanos, TimeUnit.NANOSECONDS);
	}

}
