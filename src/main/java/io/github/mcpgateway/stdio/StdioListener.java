package io.github.mcpgateway.stdio;

import tools.jackson.databind.JsonNode;

/**
 * Receives what a child process says. Both methods are called from the process's stdout
 * reader thread, in order; {@link #ended} exactly once and last.
 */
public interface StdioListener {

	/**
	 * One message the process wrote: a JSON object, parsed within the gateway's JSON
	 * limits; nothing else about it is checked here.
	 * @param message the message
	 */
	void onMessage(JsonNode message);

	/**
	 * The process ended; no message follows.
	 * @param end how it ended
	 */
	void ended(StdioEnd end);

}
