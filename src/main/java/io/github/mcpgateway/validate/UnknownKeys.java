package io.github.mcpgateway.validate;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.boot.env.PropertySourceLoader;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.FileSystemResource;

/**
 * The keys of a configuration file outside {@code gateway.*} that no part of the gateway
 * knows ({@link KnownProperties}): a misspelt {@code managment:} is otherwise ignored by
 * Spring Boot, and its settings silently do not apply (Actuator on the public port, for
 * that one). So are keys the metadata marks removed (deprecation level {@code error}),
 * which Spring Boot no longer binds: {@code server.servlet.encoding.enabled}, say, whose
 * replacement is {@code spring.servlet.encoding.enabled}. {@code gateway.*} keys are
 * checked by binding them, as the gateway does.
 */
final class UnknownKeys {

	private final KnownProperties known;

	UnknownKeys(KnownProperties known) {
		this.known = known;
	}

	/**
	 * One problem per unknown key: where it is (file and line), the key and the nearest
	 * known name.
	 */
	List<String> in(Path file) throws IOException {
		String name = file.getFileName().toString();
		PropertySourceLoader loader = (name.endsWith(".properties") || name.endsWith(".xml"))
				? new PropertiesPropertySourceLoader() : new YamlPropertySourceLoader();
		List<String> problems = new ArrayList<>();
		for (PropertySource<?> source : loader.load(name, new FileSystemResource(file))) {
			if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
				continue;
			}
			for (String key : enumerable.getPropertyNames()) {
				Origin origin = (source instanceof OriginTrackedMapPropertySource tracked) ? tracked.getOrigin(key)
						: null;
				String replacement = this.known.removedFor(key);
				if (replacement != null) {
					problems.add(((origin != null) ? origin + ": " : "") + key
							+ ": no longer a property (Spring Boot ignores it)"
							+ (replacement.isEmpty() ? "" : "; use " + replacement));
					continue;
				}
				if (key.startsWith("gateway.") || key.startsWith("spring.config.") || this.known.knows(key)) {
					continue;
				}
				String nearest = this.known.nearest(key);
				problems.add(((origin != null) ? origin + ": " : "") + key
						+ ": not a property Spring Boot, Spring Cloud" + " Gateway or the gateway knows"
						+ ((nearest != null) ? " (nearest: " + nearest + ")" : ""));
			}
		}
		return problems;
	}

}
