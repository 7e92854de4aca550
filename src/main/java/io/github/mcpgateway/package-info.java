/**
 * Governed MCP gateway. Each sub-package is one capability of the request pipeline, in
 * pipeline order: {@code routing} (which server), {@code identity} (Spring Security: who
 * is calling), {@code request} (the pipeline filter, the stage API and the request
 * context), then the stages {@code session} (with {@code revocation}), {@code grant},
 * {@code idempotency}, {@code task}, {@code upstreamauth} and {@code proxy}.
 * {@code audit} observes them all; {@code error}, {@code jsonrpc}, {@code principal},
 * {@code transport}, {@code poll} and the {@code policy} model are the shared vocabulary
 * no stage owns; {@code config} wires the pipeline; {@code explain} and {@code validate}
 * are operator tools; {@code demo} is the newcomer's profile.
 */
@NullMarked
package io.github.mcpgateway;

import org.jspecify.annotations.NullMarked;
