/**
 * The gateway's one SHA-256 ({@link io.github.mcpgateway.digest.Sha256}): the hashes of
 * its Redis keys, its idempotency entries, its policy version and the values it shows
 * shortened. Each caller keeps its own input framing (a domain tag, length-prefixed
 * fields), because those framings are stored or shown and must not change.
 */
@NullMarked
package io.github.mcpgateway.digest;

import org.jspecify.annotations.NullMarked;
