package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The policy file of the integration tests, on disk where the gateway polls it. Servers:
 * <ul>
 * <li>{@code /mcp/test/echo}: the recording upstream; team {@code blue} may call
 * {@code echo} and {@code notes_*}, human {@code carol} any tool;</li>
 * <li>{@code /mcp/test/flaky} and {@code /mcp/test/slow}: the same upstream, each with
 * its own circuit breaker;</li>
 * <li>{@code /mcp/test/delegated}: the same upstream as a {@code delegated-header} server
 * that may call {@code echo};</li>
 * <li>{@code /mcp/test/down}: a port nothing listens on;</li>
 * <li>{@code /mcp/test/sdk-stream} and {@code /mcp/test/sdk-json}: MCP SDK servers.</li>
 * </ul>
 */
public final class TestPolicy {

	private final Path file;

	private final String standard;

	TestPolicy(String upstreamUrl, String sdkStreamUrl, String sdkJsonUrl) {
		try {
			this.file = Files.createTempDirectory("mcp-gateway-policy").resolve("policy.yaml");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.standard = """
				servers:
				  - namespace: test
				    name: echo
				    uid: uid-echo
				    upstream: %1$s/mcp
				    path: /mcp/test/echo
				    grants:
				      - principal: { team: blue }
				        tools: [echo, "notes_*"]
				      - principal: { human: carol }
				        tools: ["*"]
				  - namespace: test
				    name: flaky
				    uid: uid-flaky
				    upstream: %1$s/flaky
				    path: /mcp/test/flaky
				    grants:
				      - tools: ["*"]
				  - namespace: test
				    name: slow
				    uid: uid-slow
				    upstream: %1$s/slow
				    path: /mcp/test/slow
				    grants:
				      - tools: ["*"]
				  - namespace: test
				    name: delegated
				    upstream: %1$s/delegated
				    path: /mcp/test/delegated
				    identity: delegated-header
				    grants:
				      - tools: [echo]
				  - namespace: test
				    name: down
				    upstream: http://127.0.0.1:%2$d/mcp
				    path: /mcp/test/down
				    grants:
				      - tools: ["*"]
				  - namespace: test
				    name: sdk-stream
				    uid: uid-sdk-stream
				    upstream: %3$s
				    path: /mcp/test/sdk-stream
				    grants:
				      - principal: { team: blue }
				        tools: [echo, "notes_*"]
				  - namespace: test
				    name: sdk-json
				    uid: uid-sdk-json
				    upstream: %4$s
				    path: /mcp/test/sdk-json
				    grants:
				      - principal: { team: blue }
				        tools: [echo, "notes_*"]
				""".formatted(upstreamUrl, closedPort(), sdkStreamUrl, sdkJsonUrl);
		write(this.standard);
	}

	public Path file() {
		return this.file;
	}

	public String standard() {
		return this.standard;
	}

	/**
	 * Replaces the file atomically, as a ConfigMap update or an editor's rename would.
	 */
	public void write(String yaml) {
		try {
			Path temp = Files.createTempFile(this.file.getParent(), "policy", ".tmp");
			Files.writeString(temp, yaml);
			Files.move(temp, this.file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	public void restore() {
		write(this.standard);
	}

	/**
	 * A port nothing listens on: 1 (tcpmux), which no test binds. A port that was free
	 * once (a closed {@code ServerSocket(0)}) can be taken by a server a later test
	 * starts on a free port, and then the "down" upstream answers.
	 */
	private static int closedPort() {
		return 1;
	}

}
