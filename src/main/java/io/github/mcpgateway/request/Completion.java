package io.github.mcpgateway.request;

import java.io.IOException;

import org.jspecify.annotations.Nullable;

/**
 * What a stage does once everything after it (the later stages and the proxy) is done:
 * settle what it started, release what it holds, read what the reply left behind. Run by
 * the pipeline exactly once, innermost stage first, whether the rest returned or failed.
 */
@FunctionalInterface
public interface Completion {

	/**
	 * Completes the stage's part of the request.
	 * @param failure what the rest threw, or {@code null} when it returned
	 * @return the failure that goes on outward: {@code failure}, another one, or
	 * {@code null} when the stage answered it
	 */
	@Nullable Throwable complete(@Nullable Throwable failure) throws IOException;

}
