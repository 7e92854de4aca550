/**
 * The session and revocation stage: {@code SessionStage} refuses revoked principals and
 * sessions that are unknown, revoked or another caller's, and binds the sessions
 * upstreams create to their creator; where bindings live is a {@code SessionStore}
 * strategy (in memory, or Redis shared by replicas).
 */
@NullMarked
package io.github.mcpgateway.session;

import org.jspecify.annotations.NullMarked;
