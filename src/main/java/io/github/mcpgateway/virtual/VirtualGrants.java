package io.github.mcpgateway.virtual;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * A virtual server's own grants, which narrow what its members allow: with none, the
 * members' grants alone decide; with some, a tool's exposed name must also be allowed by
 * one that applies to the caller. A grant with a condition ({@code when}) allows nothing
 * here yet: conditions are evaluated by the member, on the member's own tool name, and a
 * virtual server's condition is refused rather than skipped (fail closed).
 */
record VirtualGrants(List<Grant> grants) {

	boolean allowTool(@Nullable McpPrincipal principal, String exposedName) {
		if (this.grants.isEmpty()) {
			return true;
		}
		for (Grant grant : this.grants) {
			if (grant.when() == null && grant.appliesTo(principal) && grant.allowsTool(exposedName)) {
				return true;
			}
		}
		return false;
	}

}
