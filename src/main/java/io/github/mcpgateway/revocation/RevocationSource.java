package io.github.mcpgateway.revocation;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Reads the raw revocation document. Implementations throw {@link IOException} for
 * anything that is not a complete, successful read; the caller then keeps the last good
 * list.
 */
@FunctionalInterface
interface RevocationSource {

	byte[] read() throws IOException;

	/** A source for {@code location}: an {@code http(s)://} URL, else a file path. */
	static RevocationSource of(String location, Duration timeout, Map<String, String> headers) {
		if (location.startsWith("http://") || location.startsWith("https://")) {
			return http(URI.create(location), timeout, headers);
		}
		Path file = Path.of(location.startsWith("file:") ? location.substring("file:".length()) : location);
		return () -> Files.readAllBytes(file);
	}

	private static RevocationSource http(URI uri, Duration timeout, Map<String, String> headers) {
		HttpClient client = HttpClient.newBuilder().connectTimeout(timeout).build();
		return () -> {
			HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).GET();
			headers.forEach(request::header);
			try {
				HttpResponse<InputStream> response = client.send(request.build(),
						HttpResponse.BodyHandlers.ofInputStream());
				try (InputStream body = response.body()) {
					if (response.statusCode() != 200) {
						throw new IOException("HTTP status " + response.statusCode());
					}
					return body.readAllBytes();
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("interrupted", ex);
			}
		};
	}

}
