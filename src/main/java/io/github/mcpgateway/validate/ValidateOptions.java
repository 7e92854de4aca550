package io.github.mcpgateway.validate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * The command line of {@link ValidateCommand}: {@code --name value} or
 * {@code --name=value} for each of {@code policy}, {@code revocations}, {@code config}
 * and {@code samples}, at most once each and never blank, and {@code --help} or
 * {@code -h}.
 *
 * @param help whether {@code --help} or {@code -h} was given
 */
record ValidateOptions(@Nullable String policy, @Nullable String revocations, @Nullable String config,
		@Nullable String samples, boolean help) {

	/** The options of {@code args}, or {@code null} when they are not such a line. */
	static @Nullable ValidateOptions parse(String[] args) {
		Map<String, String> options = options(args);
		if (options == null) {
			return null;
		}
		return new ValidateOptions(options.get("policy"), options.get("revocations"), options.get("config"),
				options.get("samples"), options.containsKey("help"));
	}

	/** Whether no option at all was given. */
	boolean isEmpty() {
		return this.policy == null && this.revocations == null && this.config == null && this.samples == null
				&& !this.help;
	}

	/** {@code --name value} or {@code --name=value}; {@code null} for anything else. */
	private static @Nullable Map<String, String> options(String[] args) {
		Map<String, String> options = new LinkedHashMap<>();
		for (int i = 0; i < args.length; i++) {
			String arg = args[i];
			if (arg.equals("--help") || arg.equals("-h")) {
				options.put("help", "");
				continue;
			}
			if (!arg.startsWith("--")) {
				return null;
			}
			String name = arg.substring(2);
			String value;
			int equals = name.indexOf('=');
			if (equals >= 0) {
				value = name.substring(equals + 1);
				name = name.substring(0, equals);
			}
			else if (i + 1 < args.length) {
				value = args[++i];
			}
			else {
				return null;
			}
			if (!List.of("policy", "revocations", "config", "samples").contains(name) || value.isBlank()
					|| options.put(name, value) != null) {
				return null;
			}
		}
		return options;
	}

}
