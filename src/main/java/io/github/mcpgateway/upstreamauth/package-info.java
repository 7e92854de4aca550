/**
 * Upstream credentials: the stage between the Idempotency-Key contract and the proxy that
 * obtains, per server, the credential the upstream receives in place of the caller's own
 * (an RFC 8693 exchanged token or the gateway's client-credentials token), from Spring
 * Security's OAuth2 client, cached until shortly before it expires. A failure here is a
 * refusal before dispatch. See
 * {@code docs/adr/0010-upstream-credentials-token-exchange.md}.
 */
@NullMarked
package io.github.mcpgateway.upstreamauth;

import org.jspecify.annotations.NullMarked;
