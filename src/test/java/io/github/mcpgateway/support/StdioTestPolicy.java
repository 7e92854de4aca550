package io.github.mcpgateway.support;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.PolicyParser;
import io.github.mcpgateway.policy.ServerPolicyCheck;

/**
 * A policy of one server, {@code test/local} on {@link #PATH} with every tool granted,
 * whose entry the test completes: its {@code stdio} (or {@code upstream}) lines, written
 * at the server's indentation after the first ({@code "stdio:\n      command: [cat]"}).
 * The entry begins on line 6 of the file, its second line on line 7.
 */
public final class StdioTestPolicy {

	public static final String PATH = "/mcp/test/local";

	private StdioTestPolicy() {
	}

	/** The file, parsed with {@code checks}. */
	public static Policy parse(String entry, ServerPolicyCheck... checks) {
		String yaml = """
				servers:
				  - namespace: test
				    name: local
				    uid: uid-local
				    path: %s
				    %s
				    grants:
				      - tools: ["*"]
				""".formatted(PATH, entry.strip());
		return new PolicyParser(List.of(checks)).parse(yaml.getBytes(StandardCharsets.UTF_8), "policy.yaml",
				Instant.EPOCH);
	}

	/** The server of the file, parsed with {@code checks}. */
	public static McpServerPolicy server(String entry, ServerPolicyCheck... checks) {
		return parse(entry, checks).serverAt(PATH);
	}

}
