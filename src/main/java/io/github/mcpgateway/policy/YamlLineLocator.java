package io.github.mcpgateway.policy;

import java.util.HashMap;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Finds the line of a YAML node by its path ({@code /servers/1/upstream}).
 *
 * <p>
 * Jackson reports where its parser stood when binding failed, which for records (bound
 * through their constructor after the whole object was read) is the end of the object,
 * not the field at fault. This re-reads the document as a token stream and remembers
 * where each path starts.
 */
final class YamlLineLocator {

	private final Map<String, Integer> lines = new HashMap<>();

	YamlLineLocator(YAMLMapper mapper, byte[] content) {
		try (JsonParser parser = mapper.createParser(content)) {
			JsonToken token;
			while ((token = parser.nextToken()) != null) {
				if (token != JsonToken.END_OBJECT && token != JsonToken.END_ARRAY) {
					String path = parser.streamReadContext().pathAsPointer().toString();
					this.lines.putIfAbsent(path, parser.currentTokenLocation().getLineNr());
				}
			}
		}
		catch (JacksonException ex) {
			// A document that does not even tokenize: the caller has Jackson's own
			// location.
		}
	}

	/**
	 * The first line of the node at {@code pointer}, or -1 when it is not in the
	 * document.
	 */
	int lineOf(String pointer) {
		return this.lines.getOrDefault(pointer, -1);
	}

}
