package io.github.mcpgateway.request;

/**
 * Receives the {@link McpAuditEvent} of every governed request, on the request's thread,
 * once its response is complete. Implemented by the observers (the audit log, the request
 * meters); the request stage owns the interface, so no stage depends on them.
 *
 * <p>
 * A direct call rather than a Spring application event: it runs on every request, and the
 * event multicaster's listener lookup and reflective invocation cost more than the
 * listeners' own work. An implementation must be fast and must not throw; a listener that
 * throws is logged and the others still run.
 */
@FunctionalInterface
public interface McpAuditListener {

	void onRequest(McpAuditEvent event);

}
