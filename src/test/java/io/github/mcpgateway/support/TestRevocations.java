package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** The revocation file of the integration tests, polled by the gateway every 500 ms. */
public final class TestRevocations {

	private final Path file;

	public TestRevocations() {
		try {
			this.file = Files.createTempDirectory("mcp-gateway-revocations").resolve("revocations.json");
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		clear();
	}

	public Path file() {
		return this.file;
	}

	public void clear() {
		write("{\"sessions\":[],\"principals\":[]}");
	}

	/** Replaces the file atomically. */
	public void write(String json) {
		try {
			Path temp = Files.createTempFile(this.file.getParent(), "revocations", ".tmp");
			Files.writeString(temp, json);
			Files.move(temp, this.file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
