package io.github.mcpgateway.quota;

import jakarta.servlet.ServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.policy.VirtualServerPolicy;

/**
 * The virtual server a member request came through, whose own {@code limits} the member's
 * {@link QuotaStage} charges with the member's, in one consume: one charge per call that
 * runs, the Idempotency-Key's deferred charge, the same refusal and the same store for
 * both (ADR 0021). Its buckets are the virtual server's (keyed by its UID), so its
 * members share them and they are apart from each member's own.
 *
 * <p>
 * A request attribute that the virtual server attaches ({@link #attach}) before the
 * member's pipeline runs the request, as {@code McpRequestContext#attachOrigin}: the
 * quota stage reads it without depending on the virtual package, and a client cannot set
 * one.
 *
 * @param virtual the virtual server, from the snapshot the request is decided against
 * @param tool the name its limits' {@code tools} patterns match: the exposed name the
 * client called ({@code notes_echo}); {@code null} when the request is no
 * {@code tools/call}
 */
public record VirtualQuota(VirtualServerPolicy virtual, @Nullable String tool) {

	private static final String ATTRIBUTE = VirtualQuota.class.getName();

	public VirtualQuota {
		Assert.notNull(virtual, "virtual must not be null");
	}

	/**
	 * Marks {@code request}, a member request the gateway makes for one client message
	 * routed to one member, as charged to {@code quota}'s virtual server too. Call it
	 * before the member's pipeline runs the request.
	 */
	public static void attach(ServletRequest request, VirtualQuota quota) {
		Assert.notNull(quota, "quota must not be null");
		request.setAttribute(ATTRIBUTE, quota);
	}

	/** What {@link #attach} put on {@code request}, or {@code null}. */
	static @Nullable VirtualQuota find(ServletRequest request) {
		return (request.getAttribute(ATTRIBUTE) instanceof VirtualQuota quota) ? quota : null;
	}

}
