package io.github.mcpgateway.virtual;

import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.error.GatewayErrorRenderer;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.proxy.UpstreamDispatch;
import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.RequestBodyReader;
import io.github.mcpgateway.request.RequestProperties;
import io.github.mcpgateway.routing.ServerLocator;
import io.github.mcpgateway.session.SessionProperties;

/**
 * Wires the virtual servers (ADR 0021); {@code config.PipelineConfiguration} registers
 * the filter between the caps per human and the MCP pipeline.
 */
@Configuration(proxyBeanMethods = false)
class VirtualServerConfiguration {

	/**
	 * The most of a member's reply the gateway reads itself (an initialize, a list page).
	 */
	static final int MAX_MEMBER_REPLY_BYTES = 4 * 1024 * 1024;

	@Bean
	VirtualServerFilter virtualServerFilter(ServerLocator servers, RequestProperties request, GatewayClock clock,
			JsonRpcMessageParser parser, McpPipelineFilter pipeline, UpstreamDispatch upstream, JsonMapper json,
			SessionProperties sessions, GatewayErrorRenderer renderer, GrantEvaluator grants) {
		MemberCalls calls = new MemberCalls(pipeline, upstream, json, MAX_MEMBER_REPLY_BYTES);
		MemberSessions members = new MemberSessions(calls, json, "mcp-gateway");
		VirtualSessions store = new VirtualSessions(sessions.maxBindings(), sessions.idleTimeout(), clock);
		VirtualMethods methods = new VirtualMethods(store, members, new ToolCatalog(calls, members, grants, json),
				new ToolCallRoute(calls, members, store, grants, json), json);
		VirtualRequestReader reader = new VirtualRequestReader(
				new RequestBodyReader(request.maxBodySize(), request.bodyReadTimeout(), clock), parser);
		return new VirtualServerFilter(servers, new VirtualEndpoint(reader, methods, renderer));
	}

}
