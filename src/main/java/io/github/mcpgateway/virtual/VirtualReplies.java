package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.http.HttpServletResponse;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.http.MediaType;

/** The answers a virtual server writes itself: one JSON-RPC result, as JSON. */
final class VirtualReplies {

	private VirtualReplies() {
	}

	/** Answers {@code request} with {@code result}, 200 and {@code application/json}. */
	static void result(VirtualRequest request, JsonNode result, JsonMapper json) throws IOException {
		ObjectNode response = json.createObjectNode();
		response.put("jsonrpc", "2.0");
		response.set("id", request.message().id());
		response.set("result", result);
		HttpServletResponse servlet = request.response();
		servlet.setStatus(HttpServletResponse.SC_OK);
		servlet.setContentType(MediaType.APPLICATION_JSON_VALUE);
		servlet.getOutputStream().write(json.writeValueAsBytes(response));
	}

}
