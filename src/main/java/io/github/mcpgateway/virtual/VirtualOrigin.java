package io.github.mcpgateway.virtual;

import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.AuditContribution;

/**
 * What a member request's audit line adds: the virtual server it came through and the
 * prefix the member has there ({@code request.McpRequestContext#attachOrigin}). The
 * member's line stays the member's (its server, decision and meters); these fields tie it
 * to the virtual server's own line.
 *
 * @param virtualServer the virtual server's {@code namespace/name}
 * @param virtualServerUid its UID
 * @param member the member's prefix
 */
record VirtualOrigin(String virtualServer, String virtualServerUid, String member) implements AuditContribution {

	/**
	 * After the other capabilities' fields, so that their order on a line is unchanged.
	 */
	static final int POSITION = 400;

	@Override
	public int position() {
		return POSITION;
	}

	@Override
	public void writeFields(BiConsumer<String, @Nullable String> field) {
		field.accept("virtual_server", this.virtualServer);
		field.accept("virtual_server_uid", this.virtualServerUid);
		field.accept("member", this.member);
	}

}
