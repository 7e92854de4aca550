package io.github.mcpgateway.policy;

/**
 * A policy file that cannot be used. The message names the file, and the line and field
 * at fault where they are known; it never echoes secrets because the policy file holds
 * none.
 */
public class PolicyException extends RuntimeException {

	public PolicyException(String message) {
		super(message);
	}

	public PolicyException(String message, Throwable cause) {
		super(message, cause);
	}

}
