package io.github.mcpgateway.policy;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * The result of the latest attempt to read the policy file.
 *
 * @param at when the attempt was made
 * @param succeeded whether the file was valid (and is now the live policy)
 * @param error why the file was refused, when it was
 */
public record PolicyReloadStatus(Instant at, boolean succeeded, @Nullable String error) {
}
