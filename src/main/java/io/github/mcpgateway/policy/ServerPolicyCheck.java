package io.github.mcpgateway.policy;

import java.util.Optional;

/**
 * A check of one server entry against what lives outside the policy file (for example the
 * client registrations an {@code upstream-auth} entry names). Run by {@link PolicyParser}
 * after the file itself is valid; a violation makes the whole file invalid, so the last
 * good policy stays live, as for any other error.
 */
@FunctionalInterface
public interface ServerPolicyCheck {

	/** The first violation of {@code server}, if any. */
	Optional<Violation> check(McpServerPolicy server);

	/**
	 * @param field the field at fault, relative to the server entry, for example
	 * {@code upstream-auth.client}
	 * @param message what is wrong, in one sentence
	 */
	record Violation(String field, String message) {
	}

}
