package io.github.mcpgateway.quota;

import java.net.http.HttpResponse;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** How a test reads a policy limit's refusal of a request. */
final class QuotaRefusals {

	private QuotaRefusals() {
	}

	/**
	 * The {@code error.data.code} of a refusal sent as a JSON-RPC error with HTTP 200
	 * (the default {@code refusal-status: json-rpc}, ADR 0020), checking that it names
	 * the status it stands for and when to come back; {@code "200"} for an answer that is
	 * no gateway error.
	 */
	static String code(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode data = JsonMapper.shared().readTree(response.body()).path("error").path("data");
		if (data.isMissingNode()) {
			return "200";
		}
		assertThat(data.path("status").asInt()).as(response.body()).isEqualTo(429);
		assertThat(data.path("retryAfter").asLong()).as(response.body()).isPositive();
		assertThat(response.headers().firstValue("Retry-After")).as("the header is still sent")
			.hasValue(data.path("retryAfter").asString());
		return data.path("code").asString();
	}

}
