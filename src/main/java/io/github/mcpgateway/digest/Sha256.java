package io.github.mcpgateway.digest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.Consumer;

/**
 * SHA-256 as lower-case hex: 64 characters, the whole digest. A caller that shows or
 * stores fewer takes a prefix of it. Each digest is a clone of one looked-up prototype,
 * cheaper than looking the algorithm up per hash; every Java platform has SHA-256.
 */
public final class Sha256 {

	private static final MessageDigest PROTOTYPE = lookUp();

	private static final HexFormat HEX = HexFormat.of();

	private Sha256() {
	}

	/** The hex digest of {@code content}. */
	public static String hex(byte[] content) {
		return HEX.formatHex(newDigest().digest(content));
	}

	/** The hex digest of {@code text}'s UTF-8 bytes. */
	public static String hex(String text) {
		return hex(text.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * The hex digest of what {@code input} writes to a fresh digest: for a caller's own
	 * framing of several fields (a domain tag, length prefixes).
	 */
	public static String hex(Consumer<MessageDigest> input) {
		MessageDigest digest = newDigest();
		input.accept(digest);
		return HEX.formatHex(digest.digest());
	}

	private static MessageDigest newDigest() {
		try {
			return (MessageDigest) PROTOTYPE.clone();
		}
		catch (CloneNotSupportedException ex) {
			return lookUp();
		}
	}

	private static MessageDigest lookUp() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("SHA-256 is required by every Java platform", ex);
		}
	}

}
