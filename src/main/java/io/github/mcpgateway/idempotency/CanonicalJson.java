package io.github.mcpgateway.idempotency;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.JsonNode;

/**
 * A canonical text of a JSON value for hashing: object members sorted by name (UTF-16
 * code units, as RFC 8785 section 3.2.3), no insignificant whitespace, strings escaped
 * one way, and numbers written from their exact decimal value.
 *
 * <p>
 * Why not an RFC 8785 library: JCS serialises numbers through IEEE 754 doubles, so
 * {@code 9007199254740993} and {@code 9007199254740992} have the same canonical form. In
 * a request hash that would let a retry with a different amount be answered with the
 * first request's reply. Here numbers keep their exact value ({@code 1}, {@code 1.0} and
 * {@code 1e0} are one number; {@code 0.1} and {@code 0.10000000000000001} are two), which
 * can only make two requests differ, never merge them. Requires the tree to be read with
 * exact numbers ({@code USE_BIG_DECIMAL_FOR_FLOATS}, big integers kept).
 */
final class CanonicalJson {

	private CanonicalJson() {
	}

	static String of(JsonNode node) {
		StringBuilder out = new StringBuilder();
		write(node, out);
		return out.toString();
	}

	private static void write(JsonNode node, StringBuilder out) {
		if (node.isObject()) {
			List<String> names = new ArrayList<>(node.propertyNames());
			names.sort(null);
			out.append('{');
			for (int i = 0; i < names.size(); i++) {
				if (i > 0) {
					out.append(',');
				}
				string(names.get(i), out);
				out.append(':');
				write(node.get(names.get(i)), out);
			}
			out.append('}');
		}
		else if (node.isArray()) {
			out.append('[');
			for (int i = 0; i < node.size(); i++) {
				if (i > 0) {
					out.append(',');
				}
				write(node.get(i), out);
			}
			out.append(']');
		}
		else if (node.isString()) {
			string(node.stringValue(), out);
		}
		else if (node.isNumber()) {
			out.append(number(node.decimalValue()));
		}
		else {
			out.append(node.toString());
		}
	}

	private static String number(BigDecimal value) {
		if (value.signum() == 0) {
			return "0";
		}
		return value.stripTrailingZeros().toString();
	}

	private static void string(String value, StringBuilder out) {
		out.append('"');
		JsonStringEncoder.getInstance().quoteAsString(value, out);
		out.append('"');
	}

}
