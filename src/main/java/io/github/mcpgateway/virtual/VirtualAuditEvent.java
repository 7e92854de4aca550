package io.github.mcpgateway.virtual;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.redact.ShownText;
import io.github.mcpgateway.request.AuditContribution;
import io.github.mcpgateway.request.AuditTag;
import io.github.mcpgateway.request.Decision;
import io.github.mcpgateway.request.McpAuditEvent;

/**
 * One request a virtual server answered, as the audit log and the meters see it: its own
 * line, beside the member lines of the requests it sent its members (which name it,
 * {@link VirtualOrigin}). Published once per client request, when the virtual server is
 * done with it. Carries identities and decisions, never the token, the arguments or a
 * result; every string a caller chooses is {@link ShownText#bounded bounded} where the
 * event is made ({@link VirtualOutcome}).
 *
 * @param time when the request ended
 * @param human the verified human, or {@code null}
 * @param agent the verified agent, or {@code null}
 * @param team the verified team, or {@code null}
 * @param sessionId the virtual session id the client sent, or {@code null}
 * @param namespace the virtual server's namespace
 * @param name the virtual server's name
 * @param uid the virtual server's UID
 * @param method JSON-RPC method, {@code response} for a client's answer, or the HTTP
 * method for GET, DELETE and a body refused before it was parsed
 * @param tool the exposed tool name of a {@code tools/call}, or {@code null}
 * @param decision the decision: the virtual server's own refusal's, else for a request
 * routed to one member that member pipeline's, else from the status
 * @param errorCode the gateway error code answered (the virtual server's, or the routed
 * member pipeline's), or {@code null}
 * @param status the HTTP status sent to the client
 * @param duration time spent in the gateway, members included
 * @param dispatched whether any member pipeline was asked
 * @param member the prefix of the one member a routed request went to, or {@code null}
 * @param memberServer that member's {@code namespace/name}, or {@code null}
 * @param memberFailures the members left out (of a merged list, of the session) or
 * unreachable while answering, in the order they failed
 */
public record VirtualAuditEvent(Instant time, @Nullable String human, @Nullable String agent, @Nullable String team,
		@Nullable String sessionId, String namespace, String name, String uid, String method, @Nullable String tool,
		Decision decision, @Nullable String errorCode, int status, Duration duration, boolean dispatched,
		@Nullable String member, @Nullable String memberServer, List<MemberFailure> memberFailures) {

	public VirtualAuditEvent {
		memberFailures = List.copyOf(memberFailures);
	}

	/** The virtual server's {@code namespace/name}. */
	public String qualifiedName() {
		return this.namespace + "/" + this.name;
	}

	/**
	 * This line as the audit writes a request's: the same core fields (the virtual server
	 * as {@code server}), then {@code virtual_server}, {@code member},
	 * {@code member_server} and {@code members_failed} as one contribution. Only for
	 * writing: it is not published, so the request meters never count it.
	 */
	public McpAuditEvent asLine() {
		AuditContribution fields = new AuditContribution() {

			@Override
			public int position() {
				return 0;
			}

			@Override
			public void writeFields(BiConsumer<String, @Nullable String> field) {
				field.accept("virtual_server", qualifiedName());
				field.accept("member", VirtualAuditEvent.this.member);
				field.accept("member_server", VirtualAuditEvent.this.memberServer);
				field.accept("members_failed", failures());
			}

		};
		return new McpAuditEvent(this.time, this.human, this.agent, this.team, this.sessionId, this.namespace,
				this.name, this.uid, this.method, this.tool, this.decision, this.errorCode, null, this.status,
				this.duration, this.dispatched, List.of(fields), null);
	}

	/** The members that failed, as {@code prefix:reason} separated by commas, or none. */
	private @Nullable String failures() {
		if (this.memberFailures.isEmpty()) {
			return null;
		}
		StringBuilder failures = new StringBuilder();
		for (MemberFailure failure : this.memberFailures) {
			failures.append((failures.length() > 0) ? "," : "")
				.append(failure.member())
				.append(':')
				.append(failure.reason().tag());
		}
		return failures.toString();
	}

	/**
	 * A member that failed the virtual server while it answered one request.
	 *
	 * @param member the member's prefix
	 * @param reason how it failed
	 */
	public record MemberFailure(String member, Reason reason) {

	}

	/** How a member failed: a bounded set, for the audit line and a metric tag. */
	public enum Reason implements AuditTag {

		/**
		 * No session could be opened with it (it did not answer {@code initialize}, or
		 * its pipeline refused it): it is left out of the session or the list, and a call
		 * to it is {@code member_unavailable}.
		 */
		UNAVAILABLE,

		/**
		 * It answered a page of a merged list with an error, or with nothing readable:
		 * its items are left out of that list, the others' stay.
		 */
		LIST_FAILED;

		@Override
		public String tag() {
			return name().toLowerCase(java.util.Locale.ROOT);
		}

	}

}
