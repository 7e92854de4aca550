/**
 * The grant stage of the pipeline: {@code PolicyStage} applies the policy model to a
 * request and filters {@code tools/list} replies to the tools the caller may call;
 * {@code ToolHeaderAnnotations} checks the {@code Mcp-Param-*} headers of a 2026-07-28
 * call against what the tools list declared.
 */
@NullMarked
package io.github.mcpgateway.policy.web;

import org.jspecify.annotations.NullMarked;
