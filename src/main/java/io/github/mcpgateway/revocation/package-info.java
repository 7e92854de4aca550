/**
 * Revoked sessions and principals, synced from a file or a platform API every
 * {@code gateway.revocation.poll-interval} (500 ms by default), off the request path; a
 * failed read keeps the last good list.
 */
@NullMarked
package io.github.mcpgateway.revocation;

import org.jspecify.annotations.NullMarked;
