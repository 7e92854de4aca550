package io.github.mcpgateway.request;

import java.util.Locale;

/**
 * The conventional name of a stage class ({@link McpStage#name()}), worked out once per
 * class: the tracing observer asks for it on every sampled request.
 */
final class StageNames {

	private static final String SUFFIX = "Stage";

	private static final ClassValue<String> NAMES = new ClassValue<>() {
		@Override
		protected String computeValue(Class<?> type) {
			String simple = type.getSimpleName();
			String base = simple.endsWith(SUFFIX) ? simple.substring(0, simple.length() - SUFFIX.length()) : simple;
			return base.replaceAll("(?<=[a-z0-9])(?=[A-Z])", "_").toLowerCase(Locale.ROOT);
		}
	};

	private StageNames() {
	}

	static String of(Class<?> type) {
		return NAMES.get(type);
	}

}
