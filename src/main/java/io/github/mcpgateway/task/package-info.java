/**
 * The task stage of the pipeline: binds every MCP task a {@code tools/call} creates
 * (2025-11-25 {@code params.task}, the 2026-07-28 extension
 * {@code io.modelcontextprotocol/tasks}) to the principal, server and tool that created
 * it, and decides every task request ({@code tasks/get}, {@code tasks/result},
 * {@code tasks/update}, {@code tasks/cancel}, {@code tasks/list},
 * {@code subscriptions/listen} naming tasks) against that binding and the live policy.
 * The bindings live in a {@link io.github.mcpgateway.task.TaskStore}: in this process, or
 * in Redis where the session bindings are.
 */
@NullMarked
package io.github.mcpgateway.task;

import org.jspecify.annotations.NullMarked;
