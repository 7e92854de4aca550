package io.github.mcpgateway.request;

import java.io.IOException;
import java.util.function.BiConsumer;

/**
 * One stage of the MCP pipeline after identity: a strategy that decides about a request
 * and returns its decision as a value ({@link StageDecision}). A stage never calls the
 * filter chain; {@link McpPipelineFilter} runs the stages in order, stops at the first
 * that does not go on, and runs the rest of the chain itself.
 */
public interface McpStage {

	/**
	 * The stage's name in traces (its span) and docs: lower case, {@code _} between
	 * words, stable.
	 */
	String name();

	/**
	 * Whether the stage has anything to decide about this request; by default, every one.
	 */
	default boolean appliesTo(McpExchange exchange) {
		return true;
	}

	/** Decides about the request; may record what it learned on the context. */
	StageDecision decide(McpExchange exchange) throws IOException;

	/**
	 * What this stage recorded on {@code context}, as span attributes
	 * ({@link StageAttributes} names them): called only when the request is traced, after
	 * {@link #decide}. Never a token, key, argument or result.
	 */
	default void describe(McpRequestContext context, BiConsumer<String, String> attribute) {
	}

}
