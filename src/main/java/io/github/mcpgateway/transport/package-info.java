/**
 * MCP Streamable HTTP as the gateway relays it: the header names it reads, the media
 * types it relays as streams, and the tap through which a stage sees a reply as it is
 * relayed. Shared by the stages; depends on nothing else in the gateway.
 */
@NullMarked
package io.github.mcpgateway.transport;

import org.jspecify.annotations.NullMarked;
