/**
 * Decision explain: why the live policy would allow or refuse a principal on a server and
 * tool, and which tools its tools/list would show. An operator endpoint
 * ({@code /actuator/explain}) over the same grant evaluator and revocation list the
 * request path uses; it decides nothing on its own.
 */
@NullMarked
package io.github.mcpgateway.explain;

import org.jspecify.annotations.NullMarked;
