package io.github.mcpgateway.virtual;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;

/**
 * Where one client message goes ({@link MemberTargets}) and what the member receives.
 *
 * @param member the member
 * @param server the member's server in the request's policy snapshot
 * @param body the message as the member must read it: its own names, task ids and request
 * ids; every other byte as the client sent it
 * @param name the member's own value of what {@code Mcp-Name} names (a tool or prompt
 * name, a resource URI, a task id), {@code null} for a message that names none
 */
record MemberTarget(Member member, McpServerPolicy server, byte[] body, @Nullable String name) {
}
