package io.github.mcpgateway.jsonrpc;

/**
 * A body that {@link StrictJsonReader} refuses. Carries the family of the fault, never
 * any of the text: the body may hold secrets.
 */
public final class MalformedJsonException extends RuntimeException {

	private final Reason reason;

	MalformedJsonException(Reason reason) {
		super("Malformed JSON: " + reason.name().toLowerCase(java.util.Locale.ROOT), null, false, false);
		this.reason = reason;
	}

	public Reason reason() {
		return this.reason;
	}

	/** Why a text was refused. */
	public enum Reason {

		/** A byte sequence that is not UTF-8 (RFC 3629). */
		INVALID_UTF_8,
		/** A leading U+FEFF. */
		BYTE_ORDER_MARK,
		/** Not one JSON value: bad syntax, a repeated member name, trailing content. */
		SYNTAX,
		/** Past a {@link JsonReadLimits} bound on nesting, number, string or length. */
		LIMIT,
		/** A number Java cannot represent exactly, or past the exponent bound. */
		NUMBER_OUT_OF_BOUNDS,
		/** A string or name whose escapes leave a surrogate without its pair. */
		UNPAIRED_SURROGATE

	}

}
