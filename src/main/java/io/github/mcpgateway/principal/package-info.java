/**
 * Who calls, and how a server's callers are verified: the vocabulary every stage and the
 * policy model share (principal, principal pattern, identity mode). Depends on nothing
 * else in the gateway.
 */
@NullMarked
package io.github.mcpgateway.principal;

import org.jspecify.annotations.NullMarked;
