/**
 * The MCP pipeline after identity: {@code McpPipelineFilter}, the one servlet filter that
 * runs the request stage ({@code RequestAdmission}: body read once, JSON-RPC parsed, MCP
 * headers checked) and then the {@code McpStage} strategies in order, acting on each
 * {@code StageDecision} (deferred charges and commits included); the
 * {@code McpRequestContext}, a small core every request has and the typed
 * {@code ContextSlot}s each capability alone writes; {@code Refusals}, the one way a
 * request is refused; the audit event the pipeline hands its listeners once per request,
 * built from the capabilities' {@code AuditContribution}s; and {@code PipelineObserver}
 * (with {@code UpstreamObservation}), the one listener that watches the pipeline and the
 * upstream call from outside (tracing implements it; {@code PipelineObserver.NONE}
 * without it).
 */
@NullMarked
package io.github.mcpgateway.request;

import org.jspecify.annotations.NullMarked;
