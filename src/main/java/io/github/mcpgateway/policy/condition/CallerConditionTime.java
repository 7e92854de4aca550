package io.github.mcpgateway.policy.condition;

import java.math.BigInteger;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The condition evaluation time each caller may spend on this replica: a token bucket of
 * nanoseconds per caller, {@code perSecond} added every second up to {@code burst}. The
 * time of every evaluation a caller's request makes is charged to it when the evaluation
 * ends; while its balance is negative, a request of it that would evaluate a condition is
 * refused before any is evaluated (429 {@code condition_budget_exhausted}, with
 * {@code Retry-After} the time until it is not negative again). So a caller whose
 * arguments make conditions expensive ({@code arguments.xs.all(x, arguments.xs.all(y,
 * ...))}) spends its own share of the replica's CPU, not everyone's: the per-evaluation
 * budget ({@link ConditionLimits}) bounds one call, this bounds a caller's rate of them.
 *
 * <p>
 * <b>Design notes.</b> The caller is the human of a verified principal, across its agents
 * (the agent part is often the client's own choice: {@code azp}, {@code act.sub}), or the
 * server for a server without verified principals (as a limit {@code per: server}). A key
 * is a record, never a joined string, so no two callers share one. Time is wall time read
 * from the gateway's clock: on a loaded machine a caller pays for waiting too, which errs
 * on the side of the others. Evaluations in flight are charged when they end, so a caller
 * may overdraw by what it has in flight (at most one evaluation, {@code max-time}, per
 * request: a request that decides several items reads the balance before each). The whole
 * debt is kept, up to {@value #MAX_DEBT_BURSTS} bursts (ten seconds of evaluation time
 * with the defaults, far past what its requests in flight can overdraw), so a caller that
 * overdrew pays it back before it evaluates again: it waits at most
 * {@code (MAX_DEBT_BURSTS + 1) * burst / perSecond}. CPU is a replica's own, so the
 * buckets are in memory, per replica, not shared through Redis. At most
 * {@value #MAX_CALLERS} callers are held (Caffeine, least recently used first); a bucket
 * idle long enough to be full again from the deepest debt is dropped, as it would be new.
 */
public final class CallerConditionTime {

	/** The most callers whose balance is held. */
	static final int MAX_CALLERS = 100_000;

	/** The deepest debt a caller's balance keeps, in bursts. */
	static final int MAX_DEBT_BURSTS = 10;

	static final String TIME = "mcp.gateway.policy.condition.time";

	static final String REFUSALS = "mcp.gateway.policy.condition.budget.refusals";

	private final long perSecond;

	private final double perNanosecond;

	private final long burst;

	private final GatewayClock clock;

	private final Cache<Caller, Bucket> buckets;

	private final Counter time;

	private final Counter refusals;

	/**
	 * @param perSecond the evaluation time a caller gains each second
	 * @param burst the most a caller may have at once
	 */
	public CallerConditionTime(Duration perSecond, Duration burst, GatewayClock clock, MeterRegistry registry) {
		Assert.isTrue(perSecond.toNanos() > 0, "perSecond must be positive");
		Assert.isTrue(burst.toNanos() > 0, "burst must be positive");
		Assert.notNull(clock, "clock must not be null");
		this.perSecond = perSecond.toNanos();
		this.perNanosecond = (double) this.perSecond / TimeUnit.SECONDS.toNanos(1);
		this.burst = burst.toNanos();
		this.clock = clock;
		long full = (long) Math.ceil((MAX_DEBT_BURSTS + 1) * (double) this.burst / this.perNanosecond);
		this.buckets = Caffeine.newBuilder()
			.maximumSize(MAX_CALLERS)
			.expireAfterAccess(Duration.ofNanos(Math.max(full, 1)))
			.ticker(clock.ticker())
			.build();
		this.time = Counter.builder(TIME)
			.baseUnit("seconds")
			.description("Condition evaluation time charged to callers on the request path")
			.register(registry);
		this.refusals = Counter.builder(REFUSALS)
			.description("Requests refused because their caller had spent its condition evaluation time")
			.register(registry);
	}

	/**
	 * Who pays for a request's condition evaluations.
	 *
	 * @param human the verified principal's human, or {@code null}
	 * @param server the server, for a caller without a verified principal, or
	 * {@code null}
	 */
	public record Caller(@Nullable String human, ConditionInput.@Nullable Server server) {

		/** The human of {@code principal}, or {@code server} when there is none. */
		public static Caller of(@Nullable McpPrincipal principal, ConditionInput.Server server) {
			return (principal != null) ? new Caller(principal.human(), null) : new Caller(null, server);
		}

	}

	/**
	 * {@code null} when {@code caller} may evaluate conditions now; otherwise how long
	 * until it may (the refusal is counted).
	 */
	public @Nullable Duration retryAfter(Caller caller) {
		Bucket bucket = this.buckets.getIfPresent(caller);
		if (bucket == null) {
			return null;
		}
		long balance = bucket.balance(this.clock.nanoTime());
		if (balance >= 0) {
			return null;
		}
		this.refusals.increment();
		// The debt times one second over the rate, exactly (the product passes a long).
		BigInteger[] wait = BigInteger.valueOf(-balance)
			.multiply(BigInteger.valueOf(TimeUnit.SECONDS.toNanos(1)))
			.divideAndRemainder(BigInteger.valueOf(this.perSecond));
		return Duration.ofNanos(wait[0].longValueExact() + (wait[1].signum() > 0 ? 1 : 0));
	}

	/** Runs {@code evaluation} and charges its time to {@code caller}. */
	public <T> T charging(Caller caller, Supplier<T> evaluation) {
		long started = this.clock.nanoTime();
		try {
			return evaluation.get();
		}
		finally {
			long ended = this.clock.nanoTime();
			long spent = Math.max(0, ended - started);
			this.buckets.get(caller, (key) -> new Bucket(ended)).charge(ended, spent);
			this.time.increment(spent / 1e9);
		}
	}

	/** One caller's balance, in nanoseconds of evaluation time. */
	private final class Bucket {

		private long balance = CallerConditionTime.this.burst;

		private long updated;

		Bucket(long now) {
			this.updated = now;
		}

		synchronized long balance(long now) {
			refill(now);
			return this.balance;
		}

		synchronized void charge(long now, long nanos) {
			refill(now);
			this.balance = Math.max(this.balance - nanos, -MAX_DEBT_BURSTS * CallerConditionTime.this.burst);
		}

		private void refill(long now) {
			long elapsed = now - this.updated;
			if (elapsed > 0) {
				double gained = elapsed * CallerConditionTime.this.perNanosecond;
				long burst = CallerConditionTime.this.burst;
				this.balance = (gained >= burst) ? burst : Math.min(burst, this.balance + (long) gained);
				this.updated = now;
			}
		}

	}

}
