package io.github.mcpgateway.jsonrpc;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.Assert;

/**
 * Bounds on a JSON text the gateway parses ({@code gateway.request.json.*}). A text past
 * any of them is refused as malformed, before anything of it is forwarded or stored.
 *
 * @param maxNestingDepth the deepest nesting of objects and arrays (the top-level object
 * is depth 1)
 * @param maxNumberLength the most characters of one number literal, sign, fraction and
 * exponent included
 * @param maxNumberExponent the largest magnitude of a number's decimal exponent in
 * scientific notation: {@code 1.5e300} has 300, {@code 0.001} has -3, {@code 12345} has
 * 4. Bounds the value, so that no literal can stand for a number whose exact text or
 * arithmetic would be huge
 * @param maxStringLength the most characters of one string value or member name
 */
public record JsonReadLimits(@DefaultValue("" + DEFAULT_MAX_NESTING_DEPTH) int maxNestingDepth,
		@DefaultValue("" + DEFAULT_MAX_NUMBER_LENGTH) int maxNumberLength,
		@DefaultValue("" + DEFAULT_MAX_NUMBER_EXPONENT) int maxNumberExponent,
		@DefaultValue("" + DEFAULT_MAX_STRING_LENGTH) int maxStringLength) {

	public static final int DEFAULT_MAX_NESTING_DEPTH = 64;

	public static final int DEFAULT_MAX_NUMBER_LENGTH = 100;

	public static final int DEFAULT_MAX_NUMBER_EXPONENT = 1000;

	public static final int DEFAULT_MAX_STRING_LENGTH = 1024 * 1024;

	public static final JsonReadLimits DEFAULTS = new JsonReadLimits(DEFAULT_MAX_NESTING_DEPTH,
			DEFAULT_MAX_NUMBER_LENGTH, DEFAULT_MAX_NUMBER_EXPONENT, DEFAULT_MAX_STRING_LENGTH);

	public JsonReadLimits {
		Assert.isTrue(maxNestingDepth >= 2 && maxNestingDepth <= 1000, "max-nesting-depth must be between 2 and 1000");
		Assert.isTrue(maxNumberLength >= 20 && maxNumberLength <= 10_000,
				"max-number-length must be between 20 and 10000");
		Assert.isTrue(maxNumberExponent >= 20 && maxNumberExponent <= 100_000,
				"max-number-exponent must be between 20 and 100000");
		Assert.isTrue(maxStringLength >= 256, "max-string-length must be at least 256");
	}

}
