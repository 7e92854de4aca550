/**
 * Governed MCP gateway. Each sub-package is one capability, the request path's in
 * pipeline order: {@code admission} (the cap per client address, first), {@code routing}
 * (which server), {@code identity} (Spring Security: who is calling), {@code admission}
 * again (the caps per human), {@code request} (the pipeline filter, the stage API and the
 * request context), then the stages {@code session} (with {@code revocation}),
 * {@code grant}, {@code quota}, {@code idempotency}, {@code task}, {@code upstreamauth}
 * and {@code guard}, and the {@code proxy} route. {@code audit} and {@code tracing}
 * observe them; {@code clock}, {@code error}, {@code jsonrpc}, {@code principal},
 * {@code transport}, {@code poll}, {@code digest}, {@code redact}, {@code redis} and the
 * {@code policy} model are the ground no stage owns; {@code config} wires the pipeline;
 * {@code explain} and {@code validate} are operator tools; {@code demo} is the newcomer's
 * profile. docs/architecture.md has the package map, which
 * {@code ArchitectureDocumentationTest} keeps equal to these packages.
 */
@NullMarked
package io.github.mcpgateway;

import org.jspecify.annotations.NullMarked;
