package io.github.mcpgateway.task;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.function.Supplier;

import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

import org.jspecify.annotations.Nullable;

import io.github.mcpgateway.principal.McpPrincipal;

/**
 * The {@code tasks/list} cursor a caller holds in place of the upstream's, for one caller
 * on one server: the upstream's cursor sealed (AES-256-GCM) with the caller and server as
 * associated data, so that only the gateway reads it and only for the caller it was made
 * for.
 *
 * <p>
 * Design notes.
 * <ul>
 * <li><b>Why.</b> An upstream whose task store all callers share pages the whole store;
 * the gateway filters each page, but a cursor is the upstream's own position in it (the
 * MCP SDKs' stores use a page's last task id), so relayed as is it hands a caller another
 * caller's task id (issue 36). Sealed, it tells the caller nothing, and a cursor the
 * caller makes up, or takes from another caller, does not open.</li>
 * <li><b>Why sealed, not stored.</b> A server-side map would hold the upstream's cursor
 * (a task id) in the store, which keeps no raw task id, and would grow with every page
 * any caller asks for; a sealed cursor needs one shared secret
 * ({@link TaskStore#cursorSecret}) and nothing per page.</li>
 * <li><b>Format.</b> {@code c1.} and Base64url (no padding) of a 12-byte random nonce and
 * the ciphertext with its 16-byte tag; the plaintext is the expiry (epoch milliseconds, 8
 * bytes) and the upstream's cursor in UTF-8. The key is HMAC-SHA256 of the store's secret
 * with this format's label; the associated data is the label, the server identity and the
 * principal's human, agent and team, each length-prefixed.</li>
 * <li><b>Lifetime.</b> A cursor opens until {@code gateway.task.max-ttl} after it was
 * sealed (no task outlives its binding), and until the store's secret changes.</li>
 * <li><b>Not thread-safe</b>: one per request; the secret is asked of the store once,
 * when first needed.</li>
 * </ul>
 */
final class TaskCursor {

	/** The size of a store's cursor secret. */
	static final int SECRET_BYTES = 32;

	private static final String PREFIX = "c1.";

	private static final String LABEL = "mcp-task-cursor/v1";

	private static final int NONCE_BYTES = 12;

	private static final int TAG_BITS = 128;

	private static final SecureRandom random = new SecureRandom();

	private final Supplier<byte[]> secret;

	private final Clock clock;

	private final Duration lifetime;

	private final byte[] associated;

	private @Nullable SecretKeySpec key;

	/**
	 * @param secret the store's secret ({@link TaskStore#cursorSecret}), asked at most
	 * once; throws {@link TaskStoreException} when the store cannot answer
	 * @param lifetime how long a sealed cursor opens
	 * @param server the server's identity
	 * @param principal the caller
	 */
	TaskCursor(Supplier<byte[]> secret, Clock clock, Duration lifetime, String server, McpPrincipal principal) {
		this.secret = secret;
		this.clock = clock;
		this.lifetime = lifetime;
		this.associated = associated(server, principal);
	}

	/** A new random secret for a store. */
	static byte[] newSecret() {
		byte[] secret = new byte[SECRET_BYTES];
		random.nextBytes(secret);
		return secret;
	}

	/**
	 * The caller's cursor for the upstream's {@code cursor}.
	 * @throws TaskStoreException if the store cannot give the secret
	 */
	String seal(String cursor) {
		byte[] text = cursor.getBytes(StandardCharsets.UTF_8);
		byte[] nonce = new byte[NONCE_BYTES];
		random.nextBytes(nonce);
		ByteBuffer plain = ByteBuffer.allocate(Long.BYTES + text.length)
			.putLong(this.clock.millis() + this.lifetime.toMillis())
			.put(text);
		try {
			Cipher cipher = cipher(Cipher.ENCRYPT_MODE, nonce);
			byte[] sealed = cipher.doFinal(plain.array());
			byte[] token = ByteBuffer.allocate(NONCE_BYTES + sealed.length).put(nonce).put(sealed).array();
			return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(token);
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM is required of every Java platform", ex);
		}
	}

	/**
	 * The upstream's cursor that {@code token} seals, or {@code null} when it was not
	 * sealed by this gateway for this caller on this server, or has expired.
	 * @throws TaskStoreException if the store cannot give the secret
	 */
	@Nullable String open(String token) {
		if (!token.startsWith(PREFIX)) {
			return null;
		}
		byte[] bytes;
		try {
			bytes = Base64.getUrlDecoder().decode(token.substring(PREFIX.length()));
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
		if (bytes.length < NONCE_BYTES + TAG_BITS / 8 + Long.BYTES) {
			return null;
		}
		byte[] plain;
		try {
			Cipher cipher = cipher(Cipher.DECRYPT_MODE, java.util.Arrays.copyOf(bytes, NONCE_BYTES));
			plain = cipher.doFinal(bytes, NONCE_BYTES, bytes.length - NONCE_BYTES);
		}
		catch (AEADBadTagException ex) {
			return null;
		}
		catch (GeneralSecurityException ex) {
			throw new IllegalStateException("AES-GCM is required of every Java platform", ex);
		}
		ByteBuffer buffer = ByteBuffer.wrap(plain);
		if (buffer.getLong() <= this.clock.millis()) {
			return null;
		}
		return new String(plain, Long.BYTES, plain.length - Long.BYTES, StandardCharsets.UTF_8);
	}

	private Cipher cipher(int mode, byte[] nonce) throws GeneralSecurityException {
		Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
		cipher.init(mode, key(), new GCMParameterSpec(TAG_BITS, nonce));
		cipher.updateAAD(this.associated);
		return cipher;
	}

	private SecretKeySpec key() throws GeneralSecurityException {
		if (this.key == null) {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(this.secret.get(), "HmacSHA256"));
			this.key = new SecretKeySpec(mac.doFinal(LABEL.getBytes(StandardCharsets.UTF_8)), "AES");
		}
		return this.key;
	}

	/** The label, the server and the principal's fields, each length-prefixed. */
	private static byte[] associated(String server, McpPrincipal principal) {
		String[] fields = { LABEL, server, principal.human(), principal.agent(), principal.team() };
		ByteBuffer out = ByteBuffer.allocate(length(fields));
		for (String field : fields) {
			if (field == null) {
				out.putInt(-1);
				continue;
			}
			byte[] bytes = field.getBytes(StandardCharsets.UTF_8);
			out.putInt(bytes.length).put(bytes);
		}
		return out.array();
	}

	private static int length(String[] fields) {
		int length = 0;
		for (String field : fields) {
			length += Integer.BYTES + ((field != null) ? field.getBytes(StandardCharsets.UTF_8).length : 0);
		}
		return length;
	}

}
