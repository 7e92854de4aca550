package io.github.mcpgateway.idempotency.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.UUID;

/**
 * What one replica knows of the Redis store's continuity (ADR 0025,
 * {@code continuity.lua}): the epoch it last saw and its own mark in it (how many entries
 * it created there), sent with every script that begins a key or renews leases, so that
 * the store itself tells, in the same round trip, that data this replica relied on is
 * gone.
 *
 * <p>
 * Answers may arrive out of order (scripts run concurrently): an answer from an older
 * epoch than the one already seen never takes this replica back to it (an epoch is named
 * after its birth), and the mark only grows within an epoch. Thread-safe.
 */
final class StoreContinuity {

	/** The answer's first four elements: epoch, mark, detected loss, fence end. */
	static final int HEADER = 4;

	private final String replica = UUID.randomUUID().toString();

	private final long fenceMillis;

	private String epoch = "";

	private long mark;

	private long candidates;

	private volatile long fencedUntil;

	/**
	 * @param fenceMillis how long a fence lasts from the loss's detection
	 */
	StoreContinuity(long fenceMillis) {
		this.fenceMillis = fenceMillis;
	}

	/** The five arguments of {@code continuity.lua}, at {@code now}. */
	synchronized List<Object> arguments(long now) {
		// The candidate, written only by a script that finds no epoch: never the name of
		// an
		// earlier epoch, without a random number per call (no two replicas share an id,
		// and
		// one replica never sends the same number twice).
		return List.of(this.replica, this.epoch, this.mark, now + "-" + this.replica + "-" + (++this.candidates),
				this.fenceMillis);
	}

	/**
	 * Takes in a script's answer.
	 * @return what it told: a loss this replica must act on (its running entries are
	 * gone) and the loss it detected first, if any
	 */
	synchronized Seen seen(List<byte[]> answer) {
		String answered = text(answer.get(0));
		long answeredMark = Long.parseLong(text(answer.get(1)));
		String cause = text(answer.get(2));
		this.fencedUntil = Long.parseLong(text(answer.get(3)));
		boolean lost = !cause.isEmpty();
		if (answered.equals(this.epoch)) {
			this.mark = Math.max(this.mark, answeredMark);
		}
		else if (birth(answered) >= birth(this.epoch)) {
			lost = lost || !this.epoch.isEmpty();
			this.epoch = answered;
			this.mark = answeredMark;
		}
		return new Seen(lost, cause);
	}

	/** When the fence last seen ends, in epoch milliseconds (0: none seen). */
	long fencedUntil() {
		return this.fencedUntil;
	}

	private static long birth(String epoch) {
		int dash = epoch.indexOf('-');
		return (dash > 0) ? Long.parseLong(epoch.substring(0, dash)) : Long.MIN_VALUE;
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.UTF_8);
	}

	/**
	 * @param lost the store lost data this replica relied on
	 * @param detected the cause, when this replica's script started the fence; else empty
	 */
	record Seen(boolean lost, String detected) {
	}

}
