/** MCP sessions bound to the principal and server that created them. */
@NullMarked
package io.github.mcpgateway.session;

import org.jspecify.annotations.NullMarked;
