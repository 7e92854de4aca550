package io.github.mcpgateway.virtual;

/**
 * Receives the {@link VirtualAuditEvent} of every request a virtual server answered, on
 * the request's thread, once it is done. Implemented by the observers (the audit log, the
 * meters); the virtual servers own the interface, so they depend on none of them. As
 * {@code request.McpAuditListener}: a direct call, fast, and one that throws is logged
 * while the others still run.
 */
@FunctionalInterface
public interface VirtualAuditListener {

	void onVirtualRequest(VirtualAuditEvent event);

}
