package io.github.mcpgateway.validate;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;

/**
 * The configuration properties the classpath declares: every
 * {@code META-INF/spring-configuration-metadata.json} (and
 * {@code additional-spring-configuration-metadata.json}) of every jar, as Spring Boot's
 * properties migrator reads them. Boot's own reader is a separate artifact the gateway
 * does not ship; the format is a stable JSON document, read here with the JSON library
 * the gateway has.
 *
 * <p>
 * A key is known when the metadata names it, or when it lies under a property whose type
 * is a map or a collection (client registrations, log levels, lists of objects), or under
 * one of {@link #UNDECLARED} (properties that exist but have no metadata). Names are
 * compared in Boot's canonical form (relaxed binding: {@code maxSize}, {@code max_size}
 * and {@code max-size} are one name).
 */
final class KnownProperties {

	/**
	 * Prefixes of keys that are valid without metadata: the gateway's own Actuator
	 * endpoints' settings ({@code management.endpoint.<id>.*}) and {@code info.*}, whose
	 * keys are free text.
	 */
	static final List<String> UNDECLARED = List.of("management.endpoint.explain.", "management.endpoint.idempotency.",
			"management.endpoint.policy.", "management.endpoint.sessions.", "info.");

	private static final List<String> RESOURCES = List.of("META-INF/spring-configuration-metadata.json",
			"META-INF/additional-spring-configuration-metadata.json");

	private final Set<String> names = new HashSet<>();

	private final Set<String> containers = new HashSet<>();

	/**
	 * Names whose deprecation level is {@code error} (no longer bound), to a replacement
	 * or "".
	 */
	private final Map<String, String> removed = new HashMap<>();

	private KnownProperties() {
	}

	/** The properties the class loader's metadata declares. */
	static KnownProperties of(ClassLoader classLoader) {
		KnownProperties known = new KnownProperties();
		JsonMapper json = JsonMapper.builder().build();
		for (String resource : RESOURCES) {
			try {
				Enumeration<URL> urls = classLoader.getResources(resource);
				while (urls.hasMoreElements()) {
					try (InputStream in = urls.nextElement().openStream()) {
						known.add(json.readTree(in));
					}
				}
			}
			catch (IOException ex) {
				throw new IllegalStateException("Cannot read the configuration metadata of the classpath", ex);
			}
		}
		return known;
	}

	private void add(JsonNode metadata) {
		for (JsonNode property : metadata.path("properties")) {
			String name = canonical(property.path("name").asString(""));
			if (name.isEmpty()) {
				continue;
			}
			this.names.add(name);
			JsonNode deprecation = property.path("deprecation");
			if ("error".equals(deprecation.path("level").asString(""))) {
				this.removed.put(name, deprecation.path("replacement").asString(""));
			}
			String type = property.path("type").asString("");
			if (type.startsWith("java.util.Map") || type.startsWith("java.util.List")
					|| type.startsWith("java.util.Set") || type.startsWith("java.util.Collection")
					|| type.endsWith("[]")) {
				this.containers.add(name);
			}
		}
	}

	/** Whether {@code key}, as written in a configuration file, names a property. */
	boolean knows(String key) {
		String name = canonical(key);
		if (this.names.contains(name) || UNDECLARED.stream().anyMatch(name::startsWith)) {
			return true;
		}
		for (int dot = name.lastIndexOf('.'); dot > 0; dot = name.lastIndexOf('.', dot - 1)) {
			String prefix = name.substring(0, dot);
			if (this.containers.contains(prefix)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * When {@code key} names a property the metadata marks removed (deprecation level
	 * {@code error}: Spring Boot no longer binds it), its replacement, or an empty string
	 * for none; otherwise {@code null}.
	 */
	@Nullable String removedFor(String key) {
		return this.removed.get(canonical(key));
	}

	/** The known name nearest to {@code key} (edit distance), for a hint. */
	@Nullable String nearest(String key) {
		String name = canonical(key);
		String best = null;
		int bestDistance = Integer.MAX_VALUE;
		for (String candidate : this.names) {
			int distance = distance(name, candidate, bestDistance);
			if (distance < bestDistance || (distance == bestDistance && candidate.compareTo(best) < 0)) {
				best = candidate;
				bestDistance = distance;
			}
		}
		return best;
	}

	int size() {
		return this.names.size();
	}

	/** Boot's canonical form of a name, list indexes removed. */
	static String canonical(String key) {
		String adapted;
		try {
			adapted = ConfigurationPropertyName.adapt(key, '.').toString();
		}
		catch (IllegalArgumentException ex) {
			adapted = key.toLowerCase(java.util.Locale.ROOT);
		}
		return adapted.replaceAll("\\[[^\\]]*\\]", "");
	}

	/** Levenshtein distance, giving up once it passes {@code limit}. */
	private static int distance(String a, String b, int limit) {
		if (Math.abs(a.length() - b.length()) > limit) {
			return Integer.MAX_VALUE;
		}
		int[] previous = new int[b.length() + 1];
		int[] current = new int[b.length() + 1];
		for (int j = 0; j <= b.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= a.length(); i++) {
			current[0] = i;
			int rowMin = current[0];
			for (int j = 1; j <= b.length(); j++) {
				int cost = (a.charAt(i - 1) == b.charAt(j - 1)) ? 0 : 1;
				current[j] = Math.min(Math.min(current[j - 1] + 1, previous[j] + 1), previous[j - 1] + cost);
				rowMin = Math.min(rowMin, current[j]);
			}
			if (rowMin > limit) {
				return Integer.MAX_VALUE;
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[b.length()];
	}

}
