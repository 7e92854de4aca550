package io.github.mcpgateway.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;

/**
 * The {@code policy} operator endpoint ({@code /actuator/policy}, operators only): the
 * live policy's version and servers, and the result of the latest reload attempt.
 */
@Endpoint(id = "policy")
public class PolicyEndpoint {

	private final LivePolicy livePolicy;

	public PolicyEndpoint(LivePolicy livePolicy) {
		this.livePolicy = livePolicy;
	}

	@ReadOperation
	public Map<String, Object> policy() {
		Policy policy = this.livePolicy.current();
		Map<String, Object> body = new LinkedHashMap<>();
		body.put("version", policy.version());
		body.put("loadedAt", policy.loadedAt().toString());
		List<Map<String, Object>> servers = policy.servers().stream().map(PolicyEndpoint::describe).toList();
		body.put("servers", servers);
		PolicyReloadStatus last = this.livePolicy.lastReload();
		if (last != null) {
			Map<String, Object> reload = new LinkedHashMap<>();
			reload.put("at", last.at().toString());
			reload.put("result", last.succeeded() ? "ok" : "failed");
			if (last.error() != null) {
				reload.put("error", last.error());
			}
			body.put("lastReload", reload);
		}
		return body;
	}

	private static Map<String, Object> describe(McpServerPolicy server) {
		Map<String, Object> described = new LinkedHashMap<>();
		described.put("namespace", server.namespace());
		described.put("name", server.name());
		described.put("uid", server.uid());
		described.put("path", server.path());
		described.put("upstream", server.upstream().toString());
		// Serialized with the policy file's names (IdentityMode's @JsonProperty).
		described.put("identity", server.identity());
		described.put("grants", server.grants().size());
		return described;
	}

}
