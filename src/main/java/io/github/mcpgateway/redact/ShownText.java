package io.github.mcpgateway.redact;

import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.lang.Contract;

import io.github.mcpgateway.digest.Sha256;

/**
 * The two rules for text the gateway shows (audit and log lines, span names and
 * attributes, health details, {@code validate} output), in one place.
 *
 * <p>
 * Bounded: a caller chooses tool and prompt names, resource URIs, methods, request and
 * task ids, session ids and some identity claims, and a request body may be megabytes.
 * Such a value reaches the audit log and the spans through {@link #bounded}: up to
 * {@link #MAX_LENGTH} characters it is kept as it is; a longer one becomes its first
 * {@link #KEPT} characters, {@code ...#}, and the first 16 hex digits of the SHA-256 of
 * the whole value (UTF-8), so that two long values that differ stay apart in the log and
 * the same value always reads the same. Metric tags never take such a value at all (their
 * cardinality), only names from the policy and fixed sets.
 *
 * <p>
 * Without credentials: a URL's user information ({@code http://user:secret@host}) is
 * replaced by {@code [redacted]}, and so is the value of a query parameter whose name
 * says it is a secret ({@code token}, {@code access_token}, {@code password},
 * {@code secret}, {@code client_secret}, {@code api_key}, {@code apikey}, {@code key},
 * {@code sig}, {@code signature}, {@code auth}). The rule reads text, not parsed URLs: a
 * malformed URL in an error message (the kind that is reported) is redacted too, at the
 * price of redacting a little more than the user information when a message has an
 * {@code @} after a URL and before the next slash or quote.
 */
public final class ShownText {

	/** The longest value {@link #bounded} keeps whole. */
	public static final int MAX_LENGTH = 128;

	/** The characters a longer value keeps before its marker and hash. */
	static final int KEPT = 96;

	/** Between the kept characters and the hash. */
	static final String MARKER = "...#";

	private static final Pattern USER_INFO = Pattern.compile("([A-Za-z][A-Za-z0-9+.\\-]*://)[^/\"'<>\\\\\\r\\n]*@");

	private static final Pattern SECRET_PARAMETER = Pattern.compile(
			"([?&;](?:access_token|token|password|passwd|pwd|secret|client_secret|api_key|apikey|key|sig|signature|auth)=)[^&;#\\s\"'<>]*",
			Pattern.CASE_INSENSITIVE);

	private ShownText() {
	}

	/** {@code value} bounded to {@link #MAX_LENGTH} characters; {@code null} stays. */
	@Contract("null -> null; !null -> !null")
	public static @Nullable String bounded(@Nullable String value) {
		if (value == null || value.length() <= MAX_LENGTH) {
			return value;
		}
		int end = Character.isHighSurrogate(value.charAt(KEPT - 1)) ? KEPT - 1 : KEPT;
		return value.substring(0, end) + MARKER + hash(value);
	}

	/** {@code text} with the credentials of every URL in it replaced. */
	public static String withoutCredentials(String text) {
		if (text.indexOf("://") < 0 && text.indexOf('=') < 0) {
			return text;
		}
		String redacted = USER_INFO.matcher(text).replaceAll("$1[redacted]@");
		return SECRET_PARAMETER.matcher(redacted).replaceAll("$1[redacted]");
	}

	/**
	 * Both rules, credentials first (a cut could leave half of a password without its
	 * {@code @}): for a message that may quote a caller's value and a URL.
	 */
	public static String of(String text) {
		return bounded(withoutCredentials(text));
	}

	private static String hash(String value) {
		return Sha256.hex(value).substring(0, 16);
	}

}
