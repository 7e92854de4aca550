package io.github.mcpgateway.policy;

import io.github.mcpgateway.redact.ShownText;

/**
 * A policy file that cannot be used. The message names the file, and the line and field
 * at fault where they are known. It is shown to whoever reads health, logs and
 * {@code validate}'s output, public readers included, so it passes through
 * {@link ShownText#withoutCredentials} here, the one place every policy message is made:
 * a valid policy holds no secret (an upstream URL with user information is refused), but
 * a rejected file may, in the value it quotes.
 */
public class PolicyException extends RuntimeException {

	public PolicyException(String message) {
		super(ShownText.withoutCredentials(message));
	}

	public PolicyException(String message, Throwable cause) {
		super(ShownText.withoutCredentials(message), cause);
	}

}
