package io.github.mcpgateway.request;

import java.io.IOException;

/**
 * One stage of the MCP pipeline after identity: a strategy that decides about a request
 * and returns its decision as a value ({@link StageDecision}). A stage never calls the
 * filter chain; {@link McpPipelineFilter} runs the stages in order, stops at the first
 * that does not go on, and runs the rest of the chain itself.
 */
public interface McpStage {

	/**
	 * The stage's name in traces (its span, {@link PipelineObserver#stage}) and docs:
	 * lower case, {@code _} between words, stable. By default the class's simple name
	 * without its {@code Stage} suffix, in snake case ({@code UpstreamGuardStage} is
	 * {@code upstream_guard}), as Spring Cloud Gateway names a filter after its factory
	 * class: the name and the class are renamed together or not at all, and the docs test
	 * that lists the stages says when one moved.
	 */
	default String name() {
		return StageNames.of(getClass());
	}

	/**
	 * Whether the stage has anything to decide about this request; by default, every one.
	 */
	default boolean appliesTo(McpExchange exchange) {
		return true;
	}

	/**
	 * Decides about the request; may record what it learned on the context, where an
	 * observer ({@link PipelineObserver}) reads it too.
	 */
	StageDecision decide(McpExchange exchange) throws IOException;

}
