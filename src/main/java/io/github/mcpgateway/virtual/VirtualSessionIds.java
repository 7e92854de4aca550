package io.github.mcpgateway.virtual;

import java.security.SecureRandom;
import java.util.HexFormat;

/** New virtual session ids: 128 random bits in hex, which a client cannot guess. */
final class VirtualSessionIds {

	private final SecureRandom random = new SecureRandom();

	String next() {
		byte[] id = new byte[16];
		this.random.nextBytes(id);
		return HexFormat.of().formatHex(id);
	}

}
