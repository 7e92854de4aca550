package io.github.mcpgateway.policy;

import java.time.Duration;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

import io.github.mcpgateway.policy.condition.CallerConditionTime;
import io.github.mcpgateway.policy.condition.ConditionLimits;

/**
 * Where the policy file is and how often it is re-read ({@code gateway.policy.*}).
 *
 * @param location a file path ({@code /etc/mcp-gateway/policy.yaml}, {@code file:} prefix
 * optional) or a {@code classpath:} resource
 * @param reloadInterval how often the file is re-read; a changed file takes effect within
 * this interval
 * @param toolListMaxSize the largest JSON {@code tools/list} reply the gateway holds to
 * filter; a larger one is withheld (502 {@code upstream_reply_unfilterable}) rather than
 * passed unfiltered
 * @param conditions the budget of one grant condition's evaluation
 * ({@code gateway.policy.conditions.max-steps}, {@code .max-allocation},
 * {@code .max-time}) and of each caller's evaluations ({@code .caller-time-per-second},
 * {@code .caller-burst})
 */
@Validated
@ConfigurationProperties(prefix = "gateway.policy", ignoreUnknownFields = false)
public record PolicyProperties(@NotBlank String location, @DefaultValue("5s") @NotNull Duration reloadInterval,
		@DefaultValue("8MB") @NotNull DataSize toolListMaxSize, @DefaultValue @NotNull Conditions conditions) {

	/**
	 * The budget of one condition evaluation ({@link ConditionLimits}) and the evaluation
	 * time of each caller ({@link CallerConditionTime}).
	 *
	 * @param maxSteps the most expression nodes one evaluation may evaluate
	 * @param maxAllocation the most string characters and list or map elements one
	 * evaluation may create
	 * @param maxTime the longest one evaluation may run
	 * @param callerTimePerSecond the condition evaluation time one caller (a human, or
	 * every caller of a server without verified principals) gains each second on a
	 * replica
	 * @param callerBurst the most evaluation time one caller may have to spend at once
	 */
	public record Conditions(@DefaultValue("100000") long maxSteps, @DefaultValue("1000000") long maxAllocation,
			@DefaultValue("50ms") Duration maxTime, @DefaultValue("100ms") Duration callerTimePerSecond,
			@DefaultValue("1s") Duration callerBurst) {

		/** The defaults of {@code .caller-time-per-second} and {@code .caller-burst}. */
		static final Duration DEFAULT_CALLER_TIME_PER_SECOND = Duration.ofMillis(100);

		static final Duration DEFAULT_CALLER_BURST = Duration.ofSeconds(1);

		public Conditions {
			new ConditionLimits(maxSteps, maxAllocation, maxTime);
			if (callerTimePerSecond == null || callerTimePerSecond.isNegative() || callerTimePerSecond.isZero()) {
				throw new IllegalArgumentException("gateway.policy.conditions.caller-time-per-second must be positive");
			}
			if (callerBurst == null || callerBurst.isNegative() || callerBurst.isZero()) {
				throw new IllegalArgumentException("gateway.policy.conditions.caller-burst must be positive");
			}
		}

		public ConditionLimits limits() {
			return new ConditionLimits(this.maxSteps, this.maxAllocation, this.maxTime);
		}

	}

	/** The file's location and reading, with the default condition budget. */
	public PolicyProperties(String location, Duration reloadInterval, DataSize toolListMaxSize) {
		this(location, reloadInterval, toolListMaxSize,
				new Conditions(ConditionLimits.DEFAULTS.maxSteps(), ConditionLimits.DEFAULTS.maxAllocation(),
						ConditionLimits.DEFAULTS.maxTime(), Conditions.DEFAULT_CALLER_TIME_PER_SECOND,
						Conditions.DEFAULT_CALLER_BURST));
	}

	@ConstructorBinding
	public PolicyProperties {
		if (reloadInterval != null && (reloadInterval.isNegative() || reloadInterval.isZero())) {
			throw new IllegalArgumentException("gateway.policy.reload-interval must be positive");
		}
		if (toolListMaxSize != null && (toolListMaxSize.toKilobytes() < 1
				|| toolListMaxSize.toBytes() > DataSize.ofGigabytes(1).toBytes())) {
			throw new IllegalArgumentException("gateway.policy.tool-list-max-size must be between 1KB and 1GB");
		}
	}

}
