package io.github.mcpgateway.explain;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The {@code explain} operator endpoint ({@code GET /actuator/explain}, operators only):
 * why the live policy would allow or refuse a principal on a server and tool, and which
 * tools a tools/list reply would keep. A reference to a virtual server is answered with a
 * {@link VirtualExplanation}. See docs/operations.md, "Explaining a decision".
 *
 * <p>
 * Parameters: {@code server} (path, uid or {@code namespace/name}), {@code human},
 * {@code agent}, {@code team}, optionally {@code tool} (a {@code tools/call}) and
 * {@code arguments} (the call's arguments, a JSON object, which the grants' conditions
 * read), {@code tools} (the upstream's tool names, comma separated, for the preview). The
 * answer holds names, patterns and codes only: no token, no payload.
 */
@Endpoint(id = "explain")
public class ExplainEndpoint {

	/** The longest {@code arguments} parameter, in UTF-8 bytes. */
	private static final int MAX_ARGUMENTS_BYTES = 64 * 1024;

	private final DecisionExplainer explainer;

	private final VirtualServerExplainer virtualExplainer;

	/** The call's arguments, read with the request path's JSON limits. */
	private final StrictJsonReader argumentsReader;

	/**
	 * @param explainer the decisions
	 * @param virtualExplainer the decisions when the reference names a virtual server
	 * @param limits the JSON limits of the request path ({@code gateway.request.json.*}),
	 * so that explain reads arguments as a call's are read
	 */
	public ExplainEndpoint(DecisionExplainer explainer, VirtualServerExplainer virtualExplainer,
			JsonReadLimits limits) {
		this.explainer = explainer;
		this.virtualExplainer = virtualExplainer;
		this.argumentsReader = new StrictJsonReader(limits, MAX_ARGUMENTS_BYTES);
	}

	@ReadOperation
	public WebEndpointResponse<Object> explain(String server, @Nullable String human, @Nullable String agent,
			@Nullable String team, @Nullable String tool, @Nullable String prompt, @Nullable String resource,
			@Nullable String arguments, @Nullable String tools) {
		String invalid = invalid(human, tool, prompt, resource);
		if (invalid != null) {
			return badRequest(invalid);
		}
		JsonNode callArguments = null;
		if (arguments != null) {
			if (tool == null && prompt == null) {
				return badRequest("arguments are those of a tools/call or prompts/get: name the tool or prompt");
			}
			try {
				callArguments = this.argumentsReader.read(arguments.getBytes(StandardCharsets.UTF_8));
			}
			catch (MalformedJsonException ex) {
				return badRequest("arguments must be a JSON object: " + ex.getMessage());
			}
			if (!callArguments.isObject()) {
				return badRequest("arguments must be a JSON object");
			}
		}
		if (this.virtualExplainer.names(server)) {
			WebEndpointResponse<Object> virtual = explainVirtual(server, new McpPrincipal(human, agent, team), tool,
					prompt, resource, callArguments, tools);
			if (virtual != null) {
				return virtual;
			}
		}
		Grant.Item kind = Grant.Item.of(prompt, resource);
		String item = (prompt != null) ? prompt : (resource != null) ? resource : tool;
		List<String> upstreamTools = toolNames(tools);
		Explanation explanation = this.explainer.explain(server, new McpPrincipal(human, agent, team), kind, item,
				callArguments, upstreamTools);
		return new WebEndpointResponse<>(explanation);
	}

	/**
	 * What is wrong with the parameters that name the caller and the item, if anything.
	 */
	private static @Nullable String invalid(@Nullable String human, @Nullable String tool, @Nullable String prompt,
			@Nullable String resource) {
		if (human == null || human.isBlank()) {
			return "human is required: the principal to explain a decision for";
		}
		if (tool != null && tool.isBlank()) {
			return "tool must not be blank; omit it for a request other than tools/call";
		}
		if ((tool != null ? 1 : 0) + (prompt != null ? 1 : 0) + (resource != null ? 1 : 0) > 1) {
			return "name one of tool, prompt and resource: the item of one request";
		}
		if ((prompt != null && prompt.isBlank()) || (resource != null && resource.isBlank())) {
			return "prompt and resource must not be blank";
		}
		return null;
	}

	/**
	 * The explanation for a virtual server named by {@code server}, or {@code null} when
	 * none is (any more).
	 */
	private @Nullable WebEndpointResponse<Object> explainVirtual(String server, McpPrincipal principal,
			@Nullable String tool, @Nullable String prompt, @Nullable String resource, @Nullable JsonNode arguments,
			@Nullable String tools) {
		if (prompt != null || resource != null) {
			return badRequest("explain answers for a virtual server's tools; for a prompt or a resource, ask for"
					+ " the member that serves it (its own name, or the resource's URI)");
		}
		VirtualExplanation virtual = this.virtualExplainer.explain(server, principal, tool, arguments,
				toolNames(tools));
		return (virtual != null) ? new WebEndpointResponse<>(virtual) : null;
	}

	private static @Nullable List<String> toolNames(@Nullable String tools) {
		return (tools != null)
				? Arrays.stream(tools.split(",")).map(String::strip).filter((name) -> !name.isEmpty()).toList() : null;
	}

	private static WebEndpointResponse<Object> badRequest(String detail) {
		ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
		return new WebEndpointResponse<>(problem, WebEndpointResponse.STATUS_BAD_REQUEST);
	}

}
