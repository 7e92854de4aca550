package io.github.mcpgateway.support;

import java.io.IOException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * Sends a test request and reads the reply as text (a failed exchange fails the test),
 * and encodes query strings.
 */
public final class TestHttp {

	private TestHttp() {
	}

	public static HttpResponse<String> send(HttpClient client, HttpRequest request) {
		try {
			return client.send(request, HttpResponse.BodyHandlers.ofString());
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * {@code name=value&...} with each value URL-encoded (server paths carry slashes).
	 */
	public static String query(String nameValues) {
		StringBuilder encoded = new StringBuilder();
		for (String pair : nameValues.split("&")) {
			int equals = pair.indexOf('=');
			encoded.append(encoded.isEmpty() ? "" : "&")
				.append(pair, 0, equals + 1)
				.append(URLEncoder.encode(pair.substring(equals + 1), StandardCharsets.UTF_8));
		}
		return encoded.toString();
	}

}
