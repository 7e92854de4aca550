/**
 * Who is calling: OAuth2 JWT verification and the mapping of claims to an MCP principal.
 */
@NullMarked
package io.github.mcpgateway.identity;

import org.jspecify.annotations.NullMarked;
