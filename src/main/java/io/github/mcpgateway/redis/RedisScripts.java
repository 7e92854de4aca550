package io.github.mcpgateway.redis;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.util.StreamUtils;

/**
 * Lua scripts of the Redis stores, read once from class path resources
 * ({@code <capability>/redis/<name>.lua}). Every script of the gateway lives in such a
 * file, none in Java text.
 * <p>
 * Why not {@code RedisScript.of(Resource, Class)}: a script built on a resource asks the
 * resource for its modification time on every call (to reload a changed file), a file or
 * jar look-up under a lock on the request path. The scripts here never change while the
 * gateway runs, so each is read once, into a string, when its store's class is loaded; a
 * missing file fails that load.
 */
public final class RedisScripts {

	private RedisScripts() {
	}

	/**
	 * The script made of {@code resources} in order (a library of functions first, then
	 * the script that calls them), joined by newlines, answering {@code resultType}.
	 */
	public static <T> RedisScript<T> load(Class<T> resultType, String... resources) {
		StringBuilder text = new StringBuilder();
		for (String resource : resources) {
			if (!text.isEmpty()) {
				text.append('\n');
			}
			text.append(read(resource));
		}
		return RedisScript.of(text.toString(), resultType);
	}

	private static String read(String resource) {
		try {
			return StreamUtils.copyToString(new ClassPathResource(resource).getInputStream(), StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new IllegalStateException("Missing Redis script " + resource, ex);
		}
	}

}
