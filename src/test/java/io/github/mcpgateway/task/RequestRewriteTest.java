package io.github.mcpgateway.task;

import java.nio.charset.StandardCharsets;

import jakarta.servlet.http.HttpServletRequest;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import org.springframework.mock.web.MockHttpServletRequest;

import static org.assertj.core.api.Assertions.assertThat;

class RequestRewriteTest {

	@Test
	void rewriteKeepsEveryOtherNumberAsSent() throws Exception {
		MockHttpServletRequest request = new MockHttpServletRequest("POST", "/mcp/test/tasks");
		request.setContent(("{\"jsonrpc\":\"2.0\",\"id\":1.00000000000000000001,\"method\":\"tasks/list\","
				+ "\"params\":{\"cursor\":\"c1.sealed\",\"_meta\":{\"n\":12345678901234567890.5}}}")
			.getBytes(StandardCharsets.UTF_8));

		HttpServletRequest rewritten = new RequestRewrite(JsonMapper.builder().build()).rewrite(request,
				(root) -> ((ObjectNode) root.get("params")).put("cursor", "upstream-7"));

		String body = new String(rewritten.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(body).contains("\"id\":1.00000000000000000001")
			.contains("\"cursor\":\"upstream-7\"")
			.contains("\"n\":12345678901234567890.5");
	}

}
