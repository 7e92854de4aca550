package io.github.mcpgateway.grant;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.request.ContextSlot;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.RefusalReason;

/**
 * Which grant decided a request, as the grant stage records it: the grant that allowed it
 * in {@link #ALLOWED_BY}, which only the grant stage writes, or the grant whose condition
 * refused it as the refusal's {@link DeniedBy reason}.
 */
public final class GrantOutcome {

	/**
	 * The index in the server's {@code grants} of the grant that allowed the request;
	 * absent when the grant stage did not allow it (yet).
	 */
	public static final ContextSlot<Integer> ALLOWED_BY = ContextSlot.declare("allowing grant");

	private static final ContextSlot.Writer<Integer> writer = ALLOWED_BY.writer();

	private GrantOutcome() {
	}

	/** Records that grant {@code grantIndex} allowed the request of {@code context}. */
	static void allowed(McpRequestContext context, int grantIndex) {
		writer.put(context, grantIndex);
	}

	/**
	 * The reason of a refusal by conditions, {@code null} when no grant's condition
	 * refused.
	 */
	static @Nullable DeniedBy deniedBy(@Nullable String grant) {
		return (grant != null) ? new DeniedBy(grant) : null;
	}

	/**
	 * A refusal by conditions: the grant whose condition refused (also the error's
	 * {@code data.grant}).
	 *
	 * @param grant the grant's label
	 */
	public record DeniedBy(String grant) implements RefusalReason {

		@Override
		public String auditText() {
			return this.grant;
		}

	}

}
