package io.github.mcpgateway.policy;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.Resource;
import org.springframework.util.Assert;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.condition.Condition;
import io.github.mcpgateway.policy.condition.ConditionWarmUp;
import io.github.mcpgateway.poll.PeriodicTask;

/**
 * Loads the policy file at start-up and re-reads it when its {@link PeriodicTask} says,
 * every {@code reload-interval}.
 *
 * <p>
 * Contract: the constructor loads the file or throws {@link PolicyException}, so the
 * gateway never starts without a valid policy. Afterwards a changed file (by content, not
 * timestamp) is parsed off the request path; a valid one is published atomically through
 * {@link LivePolicy}, an invalid or unreadable one is refused, logged and counted once
 * per distinct reason, and shown in health, while the last good policy stays live. It
 * never falls back to defaults. A valid policy's grant conditions are evaluated before it
 * is published ({@link ConditionWarmUp}), so that no request meets one cold.
 */
public class PolicyReloader {

	private static final Log logger = LogFactory.getLog(PolicyReloader.class);

	private final Resource resource;

	private final PolicyParser parser;

	private final LivePolicy livePolicy;

	private final GatewayClock clock;

	private final ConditionWarmUp warmUp;

	private final Counter reloadsOk;

	private final Counter reloadsFailed;

	/**
	 * The bytes last read, {@code null} after a failed read so that any next content is
	 * parsed.
	 */
	private byte @Nullable [] lastSeen;

	private @Nullable String lastFailure;

	private volatile boolean lastReadValid = true;

	public PolicyReloader(PolicyProperties properties, PolicyParser parser, LivePolicy livePolicy, GatewayClock clock,
			MeterRegistry meterRegistry) {
		Assert.notNull(properties, "properties must not be null");
		Assert.notNull(parser, "parser must not be null");
		Assert.notNull(livePolicy, "livePolicy must not be null");
		Assert.notNull(clock, "clock must not be null");
		this.resource = resolve(properties.location());
		this.parser = parser;
		this.livePolicy = livePolicy;
		this.clock = clock;
		this.warmUp = new ConditionWarmUp(properties.conditions().limits(), clock);
		this.reloadsOk = Counter.builder(PolicyMeters.RELOADS).tag("result", "ok").register(meterRegistry);
		this.reloadsFailed = Counter.builder(PolicyMeters.RELOADS).tag("result", "failed").register(meterRegistry);
		Gauge.builder(PolicyMeters.VALID, this, (reloader) -> reloader.lastReadValid ? 1 : 0).register(meterRegistry);
		Gauge
			.builder(PolicyMeters.SERVERS, livePolicy,
					(live) -> live.isLoaded() ? live.current().serversByPath().size() : 0)
			.register(meterRegistry);
		this.lastSeen = read();
		Policy policy = this.parser.parse(this.lastSeen, this.resource.getDescription(), clock.instant());
		String warmed = warm(policy);
		this.livePolicy.publish(policy, new PolicyReloadStatus(clock.instant(), true, null));
		logger.info("Loaded policy " + policy.version() + " with " + policy.serversByPath().size() + " server(s) from "
				+ this.resource.getDescription() + warmed);
	}

	static Resource resolve(String location) {
		if (location.startsWith("classpath:")) {
			return new ClassPathResource(location.substring("classpath:".length()));
		}
		return new FileSystemResource(location.startsWith("file:") ? location.substring("file:".length()) : location);
	}

	/** Re-reads the file once; called by the schedule and by tests that cannot wait. */
	public synchronized void reloadNow() {
		byte[] content;
		try {
			content = read();
		}
		catch (PolicyException ex) {
			this.lastSeen = null;
			refuse(ex.getMessage());
			return;
		}
		if (Arrays.equals(content, this.lastSeen)) {
			return;
		}
		this.lastSeen = content;
		try {
			Policy policy = this.parser.parse(content, this.resource.getDescription(), this.clock.instant());
			String warmed = warm(policy);
			this.livePolicy.publish(policy, new PolicyReloadStatus(this.clock.instant(), true, null));
			this.lastFailure = null;
			this.lastReadValid = true;
			this.reloadsOk.increment();
			logger.info("Reloaded policy " + policy.version() + " with " + policy.serversByPath().size() + " server(s)"
					+ warmed);
		}
		catch (PolicyException ex) {
			refuse(ex.getMessage());
		}
	}

	/**
	 * Evaluates the policy's conditions before it is published; what it did, for the log
	 * line.
	 */
	private String warm(Policy policy) {
		List<Condition> conditions = new ArrayList<>();
		for (McpServerPolicy server : policy.servers()) {
			for (Grant grant : server.grants()) {
				if (grant.when() != null) {
					conditions.add(grant.when());
				}
			}
		}
		if (conditions.isEmpty()) {
			return "";
		}
		ConditionWarmUp.Result result = this.warmUp.warm(conditions);
		return ", " + result.warmed() + " of " + result.conditions() + " condition(s) warmed in "
				+ result.took().toMillis() + " ms";
	}

	private void refuse(String reason) {
		this.lastReadValid = false;
		this.livePolicy.reportFailure(new PolicyReloadStatus(this.clock.instant(), false, reason));
		if (!reason.equals(this.lastFailure)) {
			this.lastFailure = reason;
			this.reloadsFailed.increment();
			logger
				.error("Refused policy change, keeping policy " + this.livePolicy.current().version() + ": " + reason);
		}
	}

	private byte[] read() {
		try (InputStream in = this.resource.getInputStream()) {
			return in.readAllBytes();
		}
		catch (IOException ex) {
			throw new PolicyException(
					this.resource.getDescription() + ": cannot be read (" + ex.getClass().getSimpleName() + ")", ex);
		}
	}

}
