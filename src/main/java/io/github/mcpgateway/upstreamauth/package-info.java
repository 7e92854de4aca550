/**
 * Upstream credentials: the stage between the task stage and the upstream guard
 * ({@code UpstreamCredentialsStage}) that obtains, per server, the credential the
 * upstream receives in place of the caller's own (an RFC 8693 exchanged token or the
 * gateway's client-credentials token), from Spring Security's OAuth2 client, cached until
 * shortly before it expires ({@code UpstreamTokens}). It records the credential in its
 * context slot ({@code UpstreamCredential.SLOT}, which the proxy's header pass reads) and
 * what it did in another ({@code CredentialHandling.SLOT}, for the audit). A failure here
 * is a refusal before dispatch. See
 * {@code docs/adr/0010-upstream-credentials-token-exchange.md}.
 */
@NullMarked
package io.github.mcpgateway.upstreamauth;

import org.jspecify.annotations.NullMarked;
