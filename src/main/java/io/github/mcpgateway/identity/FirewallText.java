package io.github.mcpgateway.identity;

import org.springframework.security.web.firewall.StrictHttpFirewall;

/**
 * The character rules of Spring Security's {@link StrictHttpFirewall} for header names,
 * header values and parameter names, decided without a regular expression.
 *
 * <p>
 * Same rule as the firewall's defaults: every code point is assigned and is not a control
 * character ({@code [\p{IsAssigned}&&[^\p{IsControl}]]*}); a header value may also hold
 * tabs. Same answers, not a looser rule: a test compares both on every code point.
 *
 * <p>
 * Why not the defaults: the firewall re-validates a header each time it is read, and a
 * request's headers are read many times (the bearer token alone by several filters and
 * the proxy's header copy). With a regular expression evaluated per character of an
 * 800-character JWT, that was a quarter of the gateway's CPU under load; this check is a
 * comparison per ASCII character.
 */
final class FirewallText {

	private FirewallText() {
	}

	/** A firewall that applies these rules. */
	static StrictHttpFirewall firewall() {
		StrictHttpFirewall firewall = new StrictHttpFirewall();
		firewall.setAllowedHeaderNames(FirewallText::isAssignedNonControl);
		firewall.setAllowedHeaderValues(FirewallText::isHeaderValue);
		firewall.setAllowedParameterNames(FirewallText::isAssignedNonControl);
		return firewall;
	}

	/** Every code point assigned and not a control character. */
	static boolean isAssignedNonControl(String text) {
		return check(text, false);
	}

	/** As {@link #isAssignedNonControl(String)}, tabs allowed. */
	static boolean isHeaderValue(String text) {
		return check(text, true);
	}

	private static boolean check(String text, boolean tabAllowed) {
		int length = text.length();
		int i = 0;
		while (i < length) {
			char c = text.charAt(i);
			if (c >= 0x20 && c < 0x7f) {
				i++;
				continue;
			}
			int codePoint = text.codePointAt(i);
			boolean allowed = (tabAllowed && codePoint == '\t')
					|| (!Character.isISOControl(codePoint) && Character.getType(codePoint) != Character.UNASSIGNED);
			if (!allowed) {
				return false;
			}
			i += Character.charCount(codePoint);
		}
		return true;
	}

}
