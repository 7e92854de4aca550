package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.util.Arrays;

import jakarta.servlet.ServletException;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.mcpgateway.error.GatewayError;
import io.github.mcpgateway.error.GatewayErrorException;
import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.grant.GrantErrors;
import io.github.mcpgateway.jsonrpc.JsonMembers;
import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.VirtualServerPolicy.Member;
import io.github.mcpgateway.virtual.Namespaced.MemberId;

/**
 * Which member a client message goes to, and the body that member reads. The message
 * names its member: a tool or prompt by the prefix of its exposed name
 * ({@code tools/call}, {@code prompts/get}, a completion's {@code ref/prompt}), a
 * resource by the member that lists it ({@link ResourceOwners}), a task by the prefix of
 * its id ({@code tasks/*}), and the client's answer to a member's request by the prefix
 * of that request's id. Nothing is sent to more than one member, and the virtual server's
 * own grants, which narrow the members', are applied here, before any member is asked.
 */
record MemberTargets(ResourceOwners resources, GrantEvaluator grants, JsonMapper json) {

	/**
	 * The target of the client's request {@code request}.
	 * @throws GatewayErrorException with the refusal when it names nothing served here,
	 * or the virtual server's grants refuse it
	 */
	MemberTarget of(VirtualRequest request, String sessionId, VirtualSession session)
			throws IOException, ServletException {
		JsonRpcMessage message = request.message();
		JsonNode params = (message.params() != null) ? message.params() : this.json.createObjectNode();
		return switch (String.valueOf(message.method())) {
			case "tools/call" -> named(request, params, Grant.Item.TOOL, GatewayErrors.TOOL_UNKNOWN, "params");
			case "prompts/get" -> named(request, params, Grant.Item.PROMPT, GatewayErrors.PROMPT_UNKNOWN, "params");
			case "resources/read", "resources/subscribe", "resources/unsubscribe" ->
				resource(request, sessionId, session, params.path("uri"));
			case "completion/complete" -> completion(request, sessionId, session, params.path("ref"));
			case "tasks/get", "tasks/result", "tasks/cancel", "tasks/update" -> task(request, params);
			default -> throw new GatewayErrorException(GatewayErrors.VIRTUAL_METHOD_UNSUPPORTED);
		};
	}

	/**
	 * A tool or prompt (or a completion's prompt, {@code at} {@code params.ref}): the
	 * member its exposed name's prefix names, the name the member's own.
	 */
	private MemberTarget named(VirtualRequest request, JsonNode holder, Grant.Item kind, GatewayError unknown,
			String... at) {
		String exposed = holder.path("name").isString() ? holder.path("name").asString() : null;
		Member member = (exposed != null) ? request.virtual().memberOf(exposed) : null;
		McpServerPolicy server = (member != null) ? request.serverOf(member) : null;
		if (member == null || server == null || !member.serves(kind, member.localName(exposed))) {
			throw new GatewayErrorException(unknown);
		}
		if (at.length == 1) {
			// The request itself: the virtual server's grants read its arguments.
			narrow(request, kind, exposed, holder.get("arguments"));
		}
		else if (!this.grants.mayUse(request.virtual(), request.principal(), kind, exposed)) {
			throw new GatewayErrorException(unknown);
		}
		String local = member.localName(exposed);
		String[] name = Arrays.copyOf(at, at.length + 1);
		name[at.length] = "name";
		return new MemberTarget(member, server, replaced(request.body(), this.json.writeValueAsString(local), name),
				local);
	}

	private MemberTarget resource(VirtualRequest request, String sessionId, VirtualSession session, JsonNode uri)
			throws IOException, ServletException {
		Member member = uri.isString() ? this.resources.ownerOf(request, sessionId, session, uri.asString()) : null;
		McpServerPolicy server = (member != null) ? request.serverOf(member) : null;
		if (member == null || server == null) {
			throw new GatewayErrorException(GatewayErrors.RESOURCE_UNKNOWN);
		}
		narrow(request, Grant.Item.RESOURCE, uri.asString(), null);
		return new MemberTarget(member, server, request.body(), uri.asString());
	}

	private MemberTarget completion(VirtualRequest request, String sessionId, VirtualSession session, JsonNode ref)
			throws IOException, ServletException {
		if (ref.path("type").isString() && "ref/prompt".equals(ref.path("type").asString())) {
			return named(request, ref, Grant.Item.PROMPT, GatewayErrors.PROMPT_UNKNOWN, "params", "ref");
		}
		MemberTarget owner = resource(request, sessionId, session, ref.path("uri"));
		return new MemberTarget(owner.member(), owner.server(), owner.body(), null);
	}

	private MemberTarget task(VirtualRequest request, JsonNode params) {
		String exposed = params.path("taskId").isString() ? params.path("taskId").asString() : null;
		Member member = (exposed != null) ? request.virtual().memberOf(exposed) : null;
		McpServerPolicy server = (member != null) ? request.serverOf(member) : null;
		if (member == null || server == null) {
			throw new GatewayErrorException(GatewayErrors.TASK_NOT_FOUND);
		}
		String local = member.localName(exposed);
		return new MemberTarget(member, server,
				replaced(request.body(), this.json.writeValueAsString(local), "params", "taskId"), local);
	}

	/**
	 * Where the client's answer to a member's request goes: to that member, with its own
	 * id; {@code null} when its id names no member's request (it answers nothing).
	 */
	@Nullable MemberTarget response(VirtualRequest request) {
		MemberId id = Namespaced.memberRequestId(request.virtual(), request.message().id(), this.json);
		McpServerPolicy server = (id != null) ? request.serverOf(id.member()) : null;
		return (id != null && server != null)
				? new MemberTarget(id.member(), server, replaced(request.body(), id.id().toString(), "id"), null)
				: null;
	}

	/** Refuses what the virtual server's own grants refuse. */
	private void narrow(VirtualRequest request, Grant.Item kind, String item, @Nullable JsonNode arguments) {
		if (!request.virtual().narrows(kind)) {
			return;
		}
		GrantDecision decision = this.grants.decideRequest(request.virtual(), request.principal(), kind, item,
				arguments);
		if (!decision.allowed()) {
			throw new GatewayErrorException(GrantErrors.errorOf(decision));
		}
	}

	/**
	 * {@code body} with the member {@code path} set to {@code value} (raw JSON), every
	 * other byte kept.
	 */
	private static byte[] replaced(byte[] body, String value, String... path) {
		String name = path[path.length - 1];
		String[] parent = Arrays.copyOf(path, path.length - 1);
		byte[] without = JsonMembers.remove(body, path);
		return JsonMembers.insertFirst(without, "\"" + name + "\":" + value, parent);
	}

}
