package io.github.mcpgateway.jsonrpc;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.util.Assert;

import io.github.mcpgateway.jsonrpc.MalformedJsonException.Reason;

/**
 * Reads one JSON text (RFC 8259) exactly, and refuses anything a lenient reader would
 * repair or guess at.
 *
 * <p>
 * Design notes. The gateway decides on what it parsed (the tool name a grant matches, the
 * params a request hash covers) and forwards the original bytes; any text that two
 * parsers can read differently is a way around those decisions. So:
 * <ul>
 * <li>Bytes are decoded as UTF-8 with every malformed sequence reported (RFC 3629):
 * overlong forms ({@code C0 AF}), encoded surrogates ({@code ED A0 80}), code points past
 * U+10FFFF ({@code F4 90 80 80}) and truncated sequences. Jackson's byte parser accepts
 * some of these, so Jackson is given the decoded text, never the bytes.</li>
 * <li>A leading byte order mark is refused: RFC 8259 section 8.1 forbids senders to add
 * one and lets receivers either skip or refuse it, so receivers disagree.</li>
 * <li>A string or member name whose {@code \\u} escapes leave a surrogate unpaired is
 * refused: it names no Unicode text, and encoders replace it (two different strings would
 * hash alike).</li>
 * <li>Member names repeated in one object, content after the value, and any number,
 * string, name or nesting past {@link JsonReadLimits} are refused. Numbers are read
 * exactly ({@link BigDecimal}); a literal whose value Java cannot represent, or whose
 * exponent is past the bound, is refused rather than failing later.</li>
 * </ul>
 * Every refusal is a {@link MalformedJsonException}; no other exception leaves
 * {@link #read(byte[])} for any input. Thread-safe.
 */
public final class StrictJsonReader {

	private static final char BYTE_ORDER_MARK = '\uFEFF';

	private final JsonMapper mapper;

	private final int maxNumberExponent;

	/**
	 * @param limits the bounds of one text
	 * @param maxDocumentLength the most characters of the whole text
	 */
	public StrictJsonReader(JsonReadLimits limits, long maxDocumentLength) {
		Assert.notNull(limits, "limits must not be null");
		Assert.isTrue(maxDocumentLength > 0, "maxDocumentLength must be positive");
		StreamReadConstraints constraints = StreamReadConstraints.builder()
			.maxNestingDepth(limits.maxNestingDepth())
			.maxNumberLength(limits.maxNumberLength())
			.maxStringLength(limits.maxStringLength())
			.maxNameLength(limits.maxStringLength())
			.maxDocumentLength(maxDocumentLength)
			.build();
		JsonFactory factory = JsonFactory.builder()
			.streamReadConstraints(constraints)
			.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
			.build();
		this.mapper = JsonMapper.builder(factory)
			.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
			.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
			.build();
		this.maxNumberExponent = limits.maxNumberExponent();
	}

	/**
	 * The JSON value of {@code body}.
	 * @throws MalformedJsonException if the body is not exactly one JSON value within the
	 * limits
	 */
	public JsonNode read(byte[] body) {
		String text = decode(body);
		if (!text.isEmpty() && text.charAt(0) == BYTE_ORDER_MARK) {
			throw new MalformedJsonException(Reason.BYTE_ORDER_MARK);
		}
		JsonNode root = parse(text);
		check(root, text.indexOf("\\u") >= 0);
		return root;
	}

	private static String decode(byte[] body) {
		try {
			return StandardCharsets.UTF_8.newDecoder()
				.onMalformedInput(CodingErrorAction.REPORT)
				.onUnmappableCharacter(CodingErrorAction.REPORT)
				.decode(ByteBuffer.wrap(body))
				.toString();
		}
		catch (CharacterCodingException ex) {
			throw new MalformedJsonException(Reason.INVALID_UTF_8);
		}
	}

	private JsonNode parse(String text) {
		try {
			JsonNode root = this.mapper.readTree(text);
			if (root == null || root.isMissingNode()) {
				throw new MalformedJsonException(Reason.SYNTAX);
			}
			return root;
		}
		catch (StreamConstraintsException ex) {
			throw new MalformedJsonException(Reason.LIMIT);
		}
		catch (JacksonException ex) {
			throw new MalformedJsonException(Reason.SYNTAX);
		}
		catch (NumberFormatException | ArithmeticException ex) {
			// BigDecimal refuses an exponent outside the int range (1E+2147483648).
			throw new MalformedJsonException(Reason.NUMBER_OUT_OF_BOUNDS);
		}
	}

	/** Depth-first over a tree no deeper than the nesting limit. */
	private void check(JsonNode node, boolean hasEscapes) {
		if (node.isObject()) {
			for (Map.Entry<String, JsonNode> member : node.properties()) {
				if (hasEscapes) {
					checkText(member.getKey());
				}
				check(member.getValue(), hasEscapes);
			}
		}
		else if (node.isArray()) {
			for (JsonNode element : node) {
				check(element, hasEscapes);
			}
		}
		else if (node.isString()) {
			if (hasEscapes) {
				checkText(node.stringValue());
			}
		}
		else if (node.isBigDecimal()) {
			checkExponent(node.decimalValue());
		}
		else if (node.isBigInteger()) {
			// An int or long has at most 19 digits, below every exponent bound.
			checkExponent(new BigDecimal(node.bigIntegerValue()));
		}
	}

	private void checkExponent(BigDecimal value) {
		long exponent = (long) value.precision() - value.scale() - 1;
		if (Math.abs(exponent) > this.maxNumberExponent) {
			throw new MalformedJsonException(Reason.NUMBER_OUT_OF_BOUNDS);
		}
	}

	private static void checkText(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
				i++;
			}
			else if (Character.isSurrogate(c)) {
				throw new MalformedJsonException(Reason.UNPAIRED_SURROGATE);
			}
		}
	}

}
