package io.github.mcpgateway.policy;

import java.lang.reflect.RecordComponent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonProperty;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.dataformat.yaml.YAMLMapper;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.digest.Sha256;
import io.github.mcpgateway.policy.condition.Condition;
import io.github.mcpgateway.policy.condition.ConditionLanguage;

/**
 * Parses and validates a policy file (YAML) into an immutable {@link Policy}.
 *
 * <p>
 * Strict by design, because a governance gateway fails closed: unknown keys, missing
 * required fields, duplicate keys, malformed URLs and paths, duplicate paths, duplicate
 * {@code namespace/name} pairs and duplicate UIDs are all errors, across servers and
 * virtual servers ({@link VirtualServerChecks}). The message names the line and the field
 * at fault, for example
 * {@code policy.yaml line 7 (servers[1].upstream): upstream must be an absolute http or https URL}.
 */
public final class PolicyParser {

	private final YAMLMapper yamlMapper = YAMLMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		.addModule(new SimpleModule("policy-values").addDeserializer(Duration.class, new PeriodDeserializer())
			.addDeserializer(DataSize.class, new SizeDeserializer())
			.addDeserializer(Condition.class, new ConditionDeserializer()))
		.build();

	private final List<ServerPolicyCheck> checks;

	/** A parser that checks the file alone. */
	public PolicyParser() {
		this(List.of());
	}

	/**
	 * @param checks checks of each server entry against what lives outside the file
	 */
	public PolicyParser(List<ServerPolicyCheck> checks) {
		this.checks = List.copyOf(checks);
	}

	/**
	 * @param content the file's bytes
	 * @param source the file name used in messages
	 * @param loadedAt the time to stamp on the snapshot
	 * @throws PolicyException when the file is not a valid policy
	 */
	public Policy parse(byte[] content, String source, Instant loadedAt) {
		if (new String(content, java.nio.charset.StandardCharsets.UTF_8).isBlank()) {
			throw new PolicyException(source + ": the file must have a 'servers' list");
		}
		PolicyDocument document = read(content, source);
		if (document == null || document.servers() == null) {
			throw new PolicyException(source + ": the file must have a 'servers' list");
		}
		List<McpServerPolicy> servers = document.servers();
		checkUnique(servers, source);
		checkOutside(servers, source, content);
		List<VirtualServerPolicy> virtualServers = (document.virtualServers() != null) ? document.virtualServers()
				: List.of();
		if (!virtualServers.isEmpty()) {
			new VirtualServerChecks(source, new YamlLineLocator(this.yamlMapper, content)).check(servers,
					virtualServers);
		}
		return Policy.of(version(content), loadedAt, servers, virtualServers);
	}

	private @Nullable PolicyDocument read(byte[] content, String source) {
		try {
			return this.yamlMapper.readValue(content, PolicyDocument.class);
		}
		catch (JacksonException ex) {
			throw new PolicyException(describe(ex, source, content), ex);
		}
	}

	private static void checkUnique(List<McpServerPolicy> servers, String source) {
		Set<String> paths = new HashSet<>();
		Set<String> names = new HashSet<>();
		Set<String> uids = new HashSet<>();
		for (int i = 0; i < servers.size(); i++) {
			McpServerPolicy server = servers.get(i);
			if (server == null) {
				throw new PolicyException(source + " (servers[" + i + "]): a server entry must not be empty");
			}
			String at = source + " (servers[" + i + "]): ";
			if (!paths.add(server.path())) {
				throw new PolicyException(at + "path " + server.path() + " is used by another server");
			}
			if (!names.add(server.qualifiedName())) {
				throw new PolicyException(at + "server " + server.qualifiedName() + " is declared twice");
			}
			if (server.uid() != null && !uids.add(server.uid())) {
				throw new PolicyException(at + "uid " + server.uid() + " is used by another server");
			}
		}
	}

	private void checkOutside(List<McpServerPolicy> servers, String source, byte[] content) {
		for (int i = 0; i < servers.size(); i++) {
			for (ServerPolicyCheck check : this.checks) {
				ServerPolicyCheck.Violation violation = check.check(servers.get(i)).orElse(null);
				if (violation != null) {
					String pointer = "/servers/" + i + "/" + violation.field().replace('.', '/');
					int line = new YamlLineLocator(this.yamlMapper, content).lineOf(pointer);
					throw new PolicyException(source + ((line > 0) ? " line " + line : "") + " (servers[" + i + "]."
							+ violation.field() + "): " + violation.message());
				}
			}
		}
	}

	private String describe(JacksonException ex, String source, byte[] content) {
		return describe(this.yamlMapper, ex, source, content);
	}

	/**
	 * A binding error of a YAML file read with {@code mapper}, as the policy's are
	 * reported: {@code source line N (field.path): reason}, the line that of the field at
	 * fault. For the other YAML files the gateway reads ({@code validate --samples}).
	 */
	public static String describe(YAMLMapper mapper, JacksonException ex, String source, byte[] content) {
		TokenStreamLocation location = ex.getLocation();
		int line = (location != null) ? location.getLineNr() : -1;
		String path = null;
		if (ex instanceof DatabindException databind && !databind.getPath().isEmpty()) {
			StringBuilder pointer = new StringBuilder();
			StringBuilder readable = new StringBuilder();
			for (JacksonException.Reference reference : databind.getPath()) {
				if (reference.getPropertyName() != null) {
					pointer.append('/').append(reference.getPropertyName());
					readable.append(readable.isEmpty() ? "" : ".").append(reference.getPropertyName());
				}
				else if (reference.getIndex() >= 0) {
					pointer.append('/').append(reference.getIndex());
					readable.append('[').append(reference.getIndex()).append(']');
				}
			}
			int located = new YamlLineLocator(mapper, content).lineOf(pointer.toString());
			line = (located > 0) ? located : line;
			path = readable.toString();
		}
		StringBuilder message = new StringBuilder(source);
		if (line > 0) {
			message.append(" line ").append(line);
		}
		if (path != null) {
			message.append(" (").append(path).append(')');
		}
		String reason = reason(ex);
		return message.append(": ").append(reason).append(misplaced(reason, content, line)).toString();
	}

	/**
	 * For "{@code <field> is required}" on an entry: the line after the entry's own that
	 * has the field indented less than the entry's keys, so that YAML read it as part of
	 * something else (a new list item, the scalar before it); stops at the next root key.
	 */
	private static String misplaced(String reason, byte[] content, int line) {
		java.util.regex.Matcher required = java.util.regex.Pattern.compile("^([a-z][a-z-]*) is required")
			.matcher(reason);
		List<String> lines = new String(content, java.nio.charset.StandardCharsets.UTF_8).lines().toList();
		if (!required.find() || line < 1 || line > lines.size()) {
			return "";
		}
		int keys = keyColumn(lines.get(line - 1));
		java.util.regex.Pattern field = java.util.regex.Pattern
			.compile("^\\s*(- )?" + java.util.regex.Pattern.quote(required.group(1)) + ":");
		for (int i = line; i < lines.size() && keyColumn(lines.get(i)) > 0; i++) {
			if (field.matcher(lines.get(i)).find() && indentation(lines.get(i)) < keys) {
				return " (line " + (i + 1) + " has a '" + required.group(1)
						+ ":' that belongs to something else: check its indentation)";
			}
		}
		return "";
	}

	private static int indentation(String line) {
		return line.length() - line.stripLeading().length();
	}

	/** Where a line's key begins, after its indentation and a list item's dash. */
	private static int keyColumn(String line) {
		String rest = line.stripLeading();
		int column = line.length() - rest.length();
		return rest.startsWith("- ") ? column + 2 + indentation(rest.substring(2)) : column;
	}

	private static String reason(JacksonException ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		if (root instanceof IllegalArgumentException && root.getMessage() != null) {
			return root.getMessage();
		}
		if (ex instanceof InvalidFormatException invalid) {
			return "invalid value \"" + invalid.getValue() + "\"";
		}
		if (ex instanceof MismatchedInputException mismatched && mismatched.getTargetType() != null) {
			String found = found(String.valueOf(ex.getOriginalMessage()));
			return "expected " + shape(mismatched.getTargetType()) + ((found != null) ? ", found " + found : "");
		}
		String original = ex.getOriginalMessage();
		int detail = (original != null) ? original.indexOf(" (") : -1;
		return (detail > 0) ? original.substring(0, detail) : String.valueOf(original);
	}

	/**
	 * The shape a policy field must have, in the file's words: an object with its fields
	 * (a record's components, as the file names them), a list, a string, a number.
	 */
	static String shape(Class<?> type) {
		if (type.isRecord()) {
			List<String> fields = new ArrayList<>();
			for (RecordComponent component : type.getRecordComponents()) {
				// A record's @JsonProperty reaches its accessor (METHOD), not the
				// component.
				JsonProperty named = component.getAccessor().getAnnotation(JsonProperty.class);
				fields.add((named != null && !named.value().isEmpty()) ? named.value() : component.getName());
			}
			return "an object (" + String.join(", ", fields) + ")";
		}
		if (java.util.Collection.class.isAssignableFrom(type) || type.isArray()) {
			return "a list";
		}
		if (java.util.Map.class.isAssignableFrom(type)) {
			return "an object";
		}
		if (type == Duration.class) {
			return "a duration such as 30s, 1m or 1h";
		}
		if (type == DataSize.class) {
			return "a size such as 512MB or 1GB";
		}
		if (type == String.class || type == java.net.URI.class || type == Condition.class || type.isEnum()) {
			return "a string";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "true or false";
		}
		if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
			return "a number";
		}
		return "a value of another shape";
	}

	/** What the file has instead, from Jackson's "from X value" wording. */
	private static @Nullable String found(String message) {
		int from = message.indexOf(" from ");
		if (from < 0) {
			return null;
		}
		String rest = message.substring(from + 6);
		if (rest.startsWith("Array")) {
			return "a list";
		}
		if (rest.startsWith("Object")) {
			return "an object";
		}
		if (rest.startsWith("String")) {
			return "a string";
		}
		if (rest.startsWith("Integer") || rest.startsWith("Floating-point") || rest.startsWith("Number")) {
			return "a number";
		}
		if (rest.startsWith("Boolean")) {
			return "true or false";
		}
		return null;
	}

	private static String version(byte[] content) {
		return Sha256.hex(content).substring(0, 12);
	}

	/** Durations as the policy file writes them ({@code 30s}, {@code 1m}): a string. */
	private static final class PeriodDeserializer extends ValueDeserializer<Duration> {

		@Override
		public Duration deserialize(JsonParser parser, DeserializationContext context) {
			if (!parser.hasToken(JsonToken.VALUE_STRING)) {
				return (Duration) context.handleUnexpectedToken(Duration.class, parser);
			}
			return RateLimit.parsePeriod(parser.getString());
		}

	}

	/** Sizes as the policy file writes them ({@code 512MB}, {@code 1GB}): a string. */
	private static final class SizeDeserializer extends ValueDeserializer<DataSize> {

		@Override
		public DataSize deserialize(JsonParser parser, DeserializationContext context) {
			if (!parser.hasToken(JsonToken.VALUE_STRING)) {
				return (DataSize) context.handleUnexpectedToken(DataSize.class, parser);
			}
			String text = parser.getString();
			try {
				return DataSize.parse(text.trim());
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("\"" + text + "\" is not a size such as 512MB or 1GB");
			}
		}

	}

	/**
	 * Conditions ({@code when}) as the policy file writes them: a string, compiled and
	 * type-checked here, so that a policy whose condition does not compile is invalid.
	 */
	private static final class ConditionDeserializer extends ValueDeserializer<Condition> {

		@Override
		public Condition deserialize(JsonParser parser, DeserializationContext context) {
			if (!parser.hasToken(JsonToken.VALUE_STRING)) {
				return (Condition) context.handleUnexpectedToken(Condition.class, parser);
			}
			return ConditionLanguage.compile(parser.getString());
		}

	}

	/**
	 * The file's root.
	 *
	 * @param servers the servers; required
	 * @param virtualServers the virtual servers ({@link VirtualServerChecks}); none when
	 * omitted
	 */
	record PolicyDocument(@Nullable List<McpServerPolicy> servers,
			@JsonProperty("virtual-servers") @Nullable List<VirtualServerPolicy> virtualServers) {
	}

}
