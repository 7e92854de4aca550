package io.github.mcpgateway.revocation;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.redact.ShownText;

/**
 * Keeps the live {@link RevocationList} in step with its source: read once at
 * construction, then every {@code poll-interval} by a
 * {@link io.github.mcpgateway.poll.PeriodicTask}, off the request path.
 *
 * <p>
 * Contract: a read that fails or returns anything but a valid document keeps the last
 * good list in force (revocations are never cleared by a broken source), is logged when
 * the source goes bad and when it recovers (not on every poll), is counted, and shows in
 * health with the age of the last good sync. Until the first good sync the list is empty
 * and {@link #hasSynced()} is false, which keeps readiness down: a gateway that cannot
 * know what is revoked does not take traffic. Without a configured source nothing is
 * revoked and the sync is off.
 */
public class RevocationSync {

	private static final Log logger = LogFactory.getLog(RevocationSync.class);

	private final @Nullable RevocationSource source;

	private final Clock clock;

	private static final JsonMapper JSON = JsonMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
		.build();

	private final Counter syncsOk;

	private final Counter syncsFailed;

	private volatile RevocationList current = RevocationList.EMPTY;

	private volatile @Nullable Instant lastGoodSync;

	private volatile @Nullable String lastError;

	public RevocationSync(RevocationProperties properties, Clock clock, MeterRegistry meterRegistry) {
		this(properties,
				(properties.source() != null)
						? RevocationSource.of(properties.source(), properties.timeout(), properties.headers()) : null,
				clock, meterRegistry);
	}

	RevocationSync(RevocationProperties properties, @Nullable RevocationSource source, Clock clock,
			MeterRegistry meterRegistry) {
		this.source = source;
		this.clock = clock;
		this.syncsOk = Counter.builder(RevocationMeters.SYNCS).tag("result", "ok").register(meterRegistry);
		this.syncsFailed = Counter.builder(RevocationMeters.SYNCS).tag("result", "failed").register(meterRegistry);
		Gauge.builder(RevocationMeters.SYNC_AGE, this, RevocationSync::ageSeconds)
			.baseUnit("seconds")
			.register(meterRegistry);
		Gauge.builder(RevocationMeters.REVOKED_SESSIONS, this, (sync) -> sync.current.sessions().size())
			.register(meterRegistry);
		Gauge.builder(RevocationMeters.REVOKED_PRINCIPALS, this, (sync) -> sync.current.principals().size())
			.register(meterRegistry);
		if (source == null) {
			this.lastGoodSync = clock.instant();
		}
		else {
			// The first read happens before the gateway takes traffic.
			syncNow();
		}
	}

	/** What is revoked right now. */
	public RevocationList current() {
		return this.current;
	}

	public boolean isEnabled() {
		return this.source != null;
	}

	public boolean hasSynced() {
		return this.lastGoodSync != null;
	}

	public @Nullable Instant lastGoodSync() {
		return this.lastGoodSync;
	}

	public @Nullable String lastError() {
		return this.lastError;
	}

	/** Reads the source once; called by the schedule and by tests that cannot wait. */
	public synchronized void syncNow() {
		if (this.source == null) {
			return;
		}
		try {
			RevocationList list = parse(this.source.read());
			boolean first = this.lastGoodSync == null;
			this.current = list;
			this.lastGoodSync = this.clock.instant();
			this.syncsOk.increment();
			if (first || this.lastError != null) {
				logger.info("Revocation source " + (first ? "loaded" : "recovered") + "; " + list.sessions().size()
						+ " session(s) and " + list.principals().size() + " principal rule(s) revoked");
				this.lastError = null;
			}
		}
		catch (IOException | JacksonException | IllegalArgumentException ex) {
			this.syncsFailed.increment();
			String error = describe(ex);
			if (this.lastError == null) {
				logger.error("Revocation source failed, "
						+ (hasSynced() ? "keeping the last good list" : "nothing synced yet (readiness stays down)")
						+ ": " + error);
			}
			this.lastError = error;
		}
	}

	/**
	 * The problem of {@code document}, worded as the sync logs it, or {@code null} when
	 * it is a valid revocation document; for the offline {@code validate} command.
	 */
	public static @Nullable String problemIn(byte[] document) {
		try {
			parse(document);
			return null;
		}
		catch (IOException | JacksonException | IllegalArgumentException ex) {
			return describe(ex);
		}
	}

	private static RevocationList parse(byte[] document) throws IOException {
		RevocationList list = JSON.readValue(document, RevocationList.class);
		if (list == null) {
			throw new IOException("empty document");
		}
		return list;
	}

	/** Shown in health and logs: without the credentials of a URL it may quote. */
	private static String describe(Exception ex) {
		if (ex instanceof JacksonException json) {
			return ShownText.withoutCredentials("not a valid revocation document (" + json.getOriginalMessage() + ")");
		}
		return ShownText.withoutCredentials(
				ex.getClass().getSimpleName() + ((ex.getMessage() != null) ? ": " + ex.getMessage() : ""));
	}

	private double ageSeconds() {
		if (this.source == null) {
			return 0;
		}
		Instant last = this.lastGoodSync;
		return (last == null) ? Double.NaN : Duration.between(last, this.clock.instant()).toMillis() / 1000.0;
	}

}
