package io.github.mcpgateway.virtual;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;

/**
 * Ids a member chose, as the client sees them: under the member's prefix, as its names
 * are ({@code every_3f2a} for the member {@code every}'s task {@code 3f2a}). A request
 * the member sends the client keeps its id as JSON text after the prefix
 * ({@code every_7}, {@code every_"abc"}), so that the client's answer goes back to the
 * member with the id it sent, number or string.
 */
final class Namespaced {

	private Namespaced() {
	}

	/** The id the client sees for {@code member}'s request id {@code id}. */
	static String requestId(Member member, JsonNode id) {
		return member.expose(id.toString());
	}

	/**
	 * The member request an id of {@link #requestId} names, or {@code null}: not one of
	 * them.
	 */
	static @Nullable MemberId memberRequestId(VirtualServerPolicy virtual, @Nullable JsonNode id, JsonMapper json) {
		if (id == null || !id.isString()) {
			return null;
		}
		Member member = virtual.memberOf(id.asString());
		if (member == null) {
			return null;
		}
		try {
			JsonNode local = json.readTree(member.localName(id.asString()));
			return (local != null && (local.isString() || local.isIntegralNumber())) ? new MemberId(member, local)
					: null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/** A member's own request id, and the member. */
	record MemberId(Member member, JsonNode id) {
	}

}
