package io.github.mcpgateway.transport;

/**
 * Marks a response whose body the gateway holds to read (a virtual server's member reply
 * it merges) rather than sends to the client as it is written: such a reply never turns
 * into an event stream ({@link SilentReplies}).
 */
public interface HeldReply {

}
