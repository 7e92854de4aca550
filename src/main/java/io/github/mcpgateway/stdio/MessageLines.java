package io.github.mcpgateway.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.Consumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;

import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.MalformedJsonException;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;

/**
 * A child's stdout read as MCP stdio messages: one JSON object a line, read by the
 * gateway's strict JSON reader within its default limits (the line's own bound is
 * {@code maxLineBytes}). Empty lines are skipped; anything else that is not one JSON
 * object is a violation.
 */
final class MessageLines {

	private static final Log logger = LogFactory.getLog(MessageLines.class);

	private final LineFramer lines;

	private final StrictJsonReader reader;

	MessageLines(InputStream stdout, int maxLineBytes) {
		this.lines = LineFramer.refusing(stdout, maxLineBytes);
		this.reader = new StrictJsonReader(JsonReadLimits.DEFAULTS, maxLineBytes);
	}

	/**
	 * Hands each message to {@code messages} until the stream ends or breaks the framing.
	 * An exception thrown by {@code messages} is logged and the next line read.
	 * @return the violation that stopped the reading, or {@code null} when the stream
	 * ended
	 */
	StdioEnd.@Nullable Reason forEach(Consumer<JsonNode> messages) {
		try {
			byte[] line;
			while ((line = this.lines.next()) != null) {
				if (line.length == 0) {
					continue;
				}
				JsonNode message = object(line);
				if (message == null) {
					return StdioEnd.Reason.NOT_JSON;
				}
				deliver(messages, message);
			}
			return null;
		}
		catch (LineFramer.LineTooLongException ex) {
			return StdioEnd.Reason.LINE_TOO_LONG;
		}
		catch (IOException ex) {
			return null;
		}
	}

	private @Nullable JsonNode object(byte[] line) {
		try {
			JsonNode value = this.reader.read(line);
			return value.isObject() ? value : null;
		}
		catch (MalformedJsonException ex) {
			return null;
		}
	}

	private static void deliver(Consumer<JsonNode> messages, JsonNode message) {
		try {
			messages.accept(message);
		}
		catch (RuntimeException ex) {
			logger.warn("A stdio message's listener failed", ex);
		}
	}

}
