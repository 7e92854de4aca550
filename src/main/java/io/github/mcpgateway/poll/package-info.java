/**
 * {@code PeriodicTask}, the gateway's background loops: the policy reload, the revocation
 * polling, the idempotency lease renewal and the session and task stores' maintenance
 * (the writes kept during a Redis outage). Never on the request path.
 */
@NullMarked
package io.github.mcpgateway.poll;

import org.jspecify.annotations.NullMarked;
