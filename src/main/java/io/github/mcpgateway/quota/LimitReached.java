package io.github.mcpgateway.quota;

import io.github.mcpgateway.request.RefusalReason;

/**
 * Why the quota stage refused a request ({@code rate_limited}): the policy limit whose
 * bucket had no token left, also the error's {@code data.limit}.
 *
 * @param limit the limit's name in the policy
 */
public record LimitReached(String limit) implements RefusalReason {

	@Override
	public String auditText() {
		return this.limit;
	}

}
