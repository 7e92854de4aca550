/** Revoked sessions and principals, synced from a file or a platform API every 500 ms. */
@NullMarked
package io.github.mcpgateway.revocation;

import org.jspecify.annotations.NullMarked;
