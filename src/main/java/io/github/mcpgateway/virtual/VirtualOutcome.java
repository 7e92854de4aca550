package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletRequest;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.principal.McpPrincipal;
import io.github.mcpgateway.redact.ShownText;
import io.github.mcpgateway.request.Decision;
import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.virtual.VirtualAuditEvent.MemberFailure;

/**
 * What one client request to a virtual server came to, gathered while it is answered, for
 * its {@link VirtualAuditEvent}: the message, the virtual server's own refusal, the
 * member a routed request went to and that member pipeline's decision, whether any member
 * was asked, and the members that failed.
 *
 * <p>
 * Design notes: it is an attribute of the client's request, so that each part that learns
 * something (the endpoint, the member route, the member calls, a list's fan-out,
 * {@code initialize}) records it where it learns it, without a parameter threaded through
 * every signature. A member request's attributes are its own ({@link MemberRequest}), so
 * no member pipeline sees it. It is written on the request's thread and on the stream
 * relays' (and a concurrent fan-out's) threads, so its fields are volatile and its
 * failures a concurrent list; the event is made on the request's thread once every one of
 * them has returned.
 */
final class VirtualOutcome {

	private static final String ATTRIBUTE = VirtualOutcome.class.getName();

	private final VirtualServerPolicy virtual;

	private volatile @Nullable JsonRpcMessage message;

	private volatile @Nullable GatewayError refusal;

	private volatile @Nullable Routed routed;

	private volatile boolean dispatched;

	private final List<MemberFailure> failures = new CopyOnWriteArrayList<>();

	private VirtualOutcome(VirtualServerPolicy virtual) {
		this.virtual = virtual;
	}

	/** Opens the outcome of {@code client}'s request to {@code virtual}. */
	static VirtualOutcome open(ServletRequest client, VirtualServerPolicy virtual) {
		VirtualOutcome outcome = new VirtualOutcome(virtual);
		client.setAttribute(ATTRIBUTE, outcome);
		return outcome;
	}

	/** The outcome of {@code client}'s request, {@code null} when none was opened. */
	static @Nullable VirtualOutcome find(ServletRequest client) {
		return (client.getAttribute(ATTRIBUTE) instanceof VirtualOutcome outcome) ? outcome : null;
	}

	/** Records that {@code member} failed while {@code request} was answered. */
	static void memberFailed(VirtualRequest request, Member member, VirtualAuditEvent.Reason reason) {
		VirtualOutcome outcome = find(request.client());
		if (outcome != null) {
			outcome.failures.add(new MemberFailure(member.prefix(), reason));
		}
	}

	void read(JsonRpcMessage message) {
		this.message = message;
	}

	/** The virtual server's own refusal, rendered to the client. */
	void refused(GatewayError error) {
		this.refusal = error;
	}

	/**
	 * The request went to {@code member}, whose pipeline decided it as its
	 * {@code context} says ({@code null}: it never opened one); the last send counts.
	 */
	void routed(Member member, McpServerPolicy server, @Nullable McpRequestContext context) {
		this.routed = new Routed(member.prefix(), server.qualifiedName(),
				(context != null) ? context.decision() : Decision.PENDING,
				(context != null) ? context.errorCode() : null);
	}

	/**
	 * What a request sent to {@code server}'s pipeline adds to that member's audit line;
	 * the request counts as dispatched from here on.
	 */
	VirtualOrigin origin(McpServerPolicy server) {
		this.dispatched = true;
		String prefix = server.qualifiedName();
		for (Member member : this.virtual.members()) {
			if (member.server().equals(server.qualifiedName())) {
				prefix = member.prefix();
			}
		}
		return new VirtualOrigin(this.virtual.qualifiedName(), this.virtual.uid(), prefix);
	}

	/**
	 * The event of the request, ended at {@code time} after {@code duration};
	 * {@code completed} is {@code false} when answering it threw.
	 */
	VirtualAuditEvent event(HttpServletRequest client, HttpServletResponse response, @Nullable McpPrincipal principal,
			boolean completed, Instant time, Duration duration) {
		JsonRpcMessage message = this.message;
		String method = (message == null) ? client.getMethod()
				: (message.method() != null) ? message.method() : "response";
		Routed routed = this.routed;
		GatewayError refusal = (this.refusal == null && !completed) ? GatewayErrors.INTERNAL_ERROR : this.refusal;
		Decision decision = decision(refusal, routed, response.getStatus());
		String errorCode = (refusal != null) ? refusal.code() : (routed != null) ? routed.errorCode() : null;
		return new VirtualAuditEvent(time, (principal != null) ? ShownText.bounded(principal.human()) : null,
				(principal != null) ? ShownText.bounded(principal.agent()) : null,
				(principal != null) ? ShownText.bounded(principal.team()) : null,
				ShownText.bounded(client.getHeader(McpHeaders.SESSION_ID)), this.virtual.namespace(),
				this.virtual.name(), this.virtual.uid(), ShownText.bounded(method),
				ShownText.bounded((message != null) ? message.toolName() : null), decision, errorCode,
				response.getStatus(), duration, this.dispatched, (routed != null) ? routed.member() : null,
				(routed != null) ? routed.server() : null, this.failures);
	}

	private static Decision decision(@Nullable GatewayError refusal, @Nullable Routed routed, int status) {
		if (refusal != null) {
			return Decision.of(refusal);
		}
		if (routed != null && routed.decision() != Decision.PENDING) {
			return routed.decision();
		}
		if (status < 400) {
			return Decision.ALLOWED;
		}
		// A member's failure relayed, or the virtual server's own answer without a code
		// (a DELETE of an unknown session: 404).
		return (routed != null || status >= 500) ? Decision.UPSTREAM_ERROR : Decision.DENIED;
	}

	private record Routed(String member, String server, Decision decision, @Nullable String errorCode) {

	}

}
