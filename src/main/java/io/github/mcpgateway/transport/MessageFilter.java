package io.github.mcpgateway.transport;

import org.jspecify.annotations.Nullable;

/**
 * Decides, one JSON-RPC message at a time, what of an upstream reply reaches the client:
 * the strategy a {@link FilteredResponse} applies to a JSON reply (its one message) or to
 * each message event of an event stream.
 *
 * <p>
 * A filter is called on the request thread, before the message is written to the client,
 * so what it records about a message (a binding, say) is in place before the client can
 * act on it.
 */
@FunctionalInterface
public interface MessageFilter {

	/**
	 * What becomes of one message.
	 * @param message the UTF-8 text of one JSON-RPC message, as the upstream sent it
	 */
	Verdict filter(byte[] message);

	/**
	 * The id an event of an event stream reaches the client with, given the id the
	 * upstream wrote (every event's, a message's or not): by default the same. A client
	 * resumes a stream with the last id it saw ({@code Last-Event-ID}), so a filter that
	 * changes ids must be able to tell the upstream's id from the one it made.
	 * @param id the value of the event's {@code id} field
	 */
	default String eventId(String id) {
		return id;
	}

	/**
	 * A filter's answer about one message.
	 *
	 * @param kind what to do with it
	 * @param rewritten the message to send instead, for {@link Kind#REWRITE} only
	 */
	record Verdict(Kind kind, byte @Nullable [] rewritten) {

		/** The message passes byte for byte. */
		public static final Verdict PASS = new Verdict(Kind.PASS, null);

		/** This message is left out; the stream goes on. */
		public static final Verdict DROP = new Verdict(Kind.DROP, null);

		/**
		 * The message cannot be filtered exactly: it and everything after it is withheld
		 * (fail closed).
		 */
		public static final Verdict WITHHOLD = new Verdict(Kind.WITHHOLD, null);

		/** The message is replaced by {@code message}. */
		public static Verdict rewrite(byte[] message) {
			return new Verdict(Kind.REWRITE, message);
		}

	}

	/** What a {@link Verdict} does with its message. */
	enum Kind {

		/** Relayed unchanged. */
		PASS,
		/** Relayed as {@link Verdict#rewritten()}. */
		REWRITE,
		/** Not relayed; later messages still are (event streams only). */
		DROP,
		/** Not relayed, and neither is anything after it. */
		WITHHOLD

	}

}
