package io.github.mcpgateway.upstreamauth;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import com.github.benmanes.caffeine.cache.AsyncCache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.core.OAuth2AccessToken;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.UpstreamAuth;

/**
 * The upstream tokens, obtained once and shared until shortly before they expire.
 *
 * <p>
 * Contract:
 * <ul>
 * <li>A {@code token-exchange} token is cached per (SHA-256 of the subject token, server,
 * its {@code upstream-auth} entry), a {@code client-credentials} token per (server,
 * entry): a busy caller costs one exchange per token lifetime, and an entry changed by a
 * policy reload never reuses a token obtained for the old one. Neither token is kept
 * other than in the cache's value.</li>
 * <li>Concurrent first requests for one key wait for the one request to the token
 * endpoint that the first of them makes (on its own thread); a failure is not cached, so
 * the next request asks again.</li>
 * <li>A token is used until {@code refresh-before} before it expires, or until half its
 * lifetime for tokens that live less than twice that.</li>
 * <li>The cache is bounded ({@code max-cached-tokens}, least recently used first).</li>
 * </ul>
 */
final class UpstreamTokens {

	private final AsyncCache<Key, Token> cache;

	private final TokenEndpointClient endpoint;

	private final ClientRegistrations registrations;

	private final UpstreamAuthMeters meters;

	private final Duration refreshBefore;

	private final GatewayClock clock;

	UpstreamTokens(UpstreamAuthProperties properties, TokenEndpointClient endpoint, ClientRegistrations registrations,
			UpstreamAuthMeters meters, GatewayClock clock) {
		this.endpoint = endpoint;
		this.registrations = registrations;
		this.meters = meters;
		this.refreshBefore = properties.refreshBefore();
		this.clock = clock;
		this.cache = Caffeine.newBuilder()
			.maximumSize(properties.maxCachedTokens())
			.expireAfter(new UntilRefresh(clock))
			.ticker(clock.ticker())
			.buildAsync();
	}

	/**
	 * The token {@code server}'s upstream receives for this request.
	 * @param subjectToken the caller's verified access token ({@code token-exchange}
	 * only)
	 * @throws UpstreamTokenException when the token endpoint refuses or cannot be reached
	 */
	Obtained obtain(McpServerPolicy server, @Nullable String subjectToken) {
		UpstreamAuth auth = server.upstreamAuth();
		String subject = (auth.mode() == UpstreamAuth.Mode.TOKEN_EXCHANGE) ? sha256(subjectToken) : null;
		Key key = new Key(server.identityKey(), auth, subject);
		return get(key, () -> fetch(auth, subjectToken));
	}

	private Obtained get(Key key, java.util.function.Supplier<Token> fetch) {
		CompletableFuture<Token> mine = new CompletableFuture<>();
		CompletableFuture<Token> existing = this.cache.asMap().putIfAbsent(key, mine);
		if (existing != null) {
			try {
				return new Obtained(existing.join().value(), false);
			}
			catch (CompletionException ex) {
				throw (ex.getCause() instanceof UpstreamTokenException failure) ? failure
						: UpstreamTokenException.unavailable("error");
			}
		}
		try {
			Token token = fetch.get();
			mine.complete(token);
			return new Obtained(token.value(), true);
		}
		catch (RuntimeException ex) {
			// A failed future is removed by the cache: the next request asks again.
			mine.completeExceptionally(ex);
			throw (ex instanceof UpstreamTokenException failure) ? failure
					: UpstreamTokenException.unavailable("error");
		}
	}

	private Token fetch(UpstreamAuth auth, @Nullable String subjectToken) {
		UpstreamAuth.Mode mode = auth.mode();
		long start = this.clock.nanoTime();
		try {
			OAuth2AccessToken token;
			if (mode == UpstreamAuth.Mode.TOKEN_EXCHANGE) {
				String actor = (auth.actorClient() != null) ? actorToken(auth.actorClient()) : null;
				token = this.endpoint.exchange(this.registrations.require(auth.client()), auth,
						java.util.Objects.requireNonNull(subjectToken), actor);
			}
			else {
				token = this.endpoint.clientCredentials(this.registrations.require(auth.client()), auth);
			}
			this.meters.tokenRequest(mode, CredentialOutcome.FETCHED, this.clock.nanoTime() - start);
			return new Token(token.getTokenValue(), refreshAt(token));
		}
		catch (UpstreamTokenException ex) {
			this.meters.tokenRequest(mode, ex.refused() ? CredentialOutcome.REFUSED : CredentialOutcome.UNAVAILABLE,
					this.clock.nanoTime() - start);
			throw ex;
		}
	}

	/** The gateway's own token from {@code registrationId}, sent as the actor token. */
	private String actorToken(String registrationId) {
		UpstreamAuth actor = new UpstreamAuth(UpstreamAuth.Mode.CLIENT_CREDENTIALS, registrationId, null, null, null,
				null, false);
		return get(new Key("actor", actor, null), () -> {
			OAuth2AccessToken token = this.endpoint.clientCredentials(this.registrations.require(registrationId),
					actor);
			return new Token(token.getTokenValue(), refreshAt(token));
		}).token();
	}

	private Instant refreshAt(OAuth2AccessToken token) {
		Instant now = this.clock.instant();
		Instant expiresAt = (token.getExpiresAt() != null) ? token.getExpiresAt() : now;
		Duration lifetime = Duration.between(now, expiresAt);
		if (lifetime.isNegative()) {
			return now;
		}
		Duration margin = (lifetime.compareTo(this.refreshBefore.multipliedBy(2)) < 0) ? lifetime.dividedBy(2)
				: this.refreshBefore;
		return expiresAt.minus(margin);
	}

	private static @Nullable String sha256(@Nullable String token) {
		return (token != null) ? Sha256.hex(token) : null;
	}

	/**
	 * @param token the token value
	 * @param fetched whether this request asked the token endpoint for it
	 */
	record Obtained(String token, boolean fetched) {

		@Override
		public String toString() {
			return "Obtained[fetched=" + this.fetched + "]";
		}

	}

	private record Key(String server, UpstreamAuth auth, @Nullable String subjectHash) {
	}

	private record Token(String value, Instant refreshAt) {

		@Override
		public String toString() {
			return "Token[refreshAt=" + this.refreshAt + "]";
		}

	}

	/** Each token lives in the cache until its refresh time. */
	private static final class UntilRefresh implements Expiry<Key, Token> {

		private final Clock clock;

		UntilRefresh(Clock clock) {
			this.clock = clock;
		}

		@Override
		public long expireAfterCreate(Key key, Token token, long currentTime) {
			return Math.max(0, Duration.between(this.clock.instant(), token.refreshAt()).toNanos());
		}

		@Override
		public long expireAfterUpdate(Key key, Token token, long currentTime, long currentDuration) {
			return expireAfterCreate(key, token, currentTime);
		}

		@Override
		public long expireAfterRead(Key key, Token token, long currentTime, long currentDuration) {
			return currentDuration;
		}

	}

}
