package io.github.mcpgateway.quota;

import java.util.Locale;

/**
 * What one limit decided about a request: the {@code outcome} tag of
 * {@value QuotaMeters#DECISIONS}.
 */
enum QuotaOutcome {

	/** The limit's bucket gave a token. */
	ALLOWED,
	/** The limit's bucket had no token left: the request is refused. */
	REFUSED,
	/** The quota store could not be asked. */
	UNAVAILABLE;

	/** The lower-case name of the meter tag. */
	String tag() {
		return name().toLowerCase(Locale.ROOT);
	}

}
