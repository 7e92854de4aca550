package io.github.mcpgateway.revocation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads the raw revocation document. Implementations throw {@link IOException} for
 * anything that is not a complete, successful read; the caller then keeps the last good
 * list.
 */
@FunctionalInterface
interface RevocationSource {

	/**
	 * Largest revocation document accepted (16 MiB): far above any real list, bounds
	 * memory.
	 */
	int MAX_DOCUMENT_BYTES = 16 * 1024 * 1024;

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
				// One deadline for the whole read, body included: a source that stalls
				// mid-body must fail this sync, not hang the sync thread.
				HttpResponse<byte[]> response = client
					.sendAsync(request.build(), HttpResponse.BodyHandlers.ofByteArray())
					.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
				if (response.statusCode() != 200) {
					throw new IOException("HTTP status " + response.statusCode());
				}
				if (response.body().length > MAX_DOCUMENT_BYTES) {
					throw new IOException("document larger than " + MAX_DOCUMENT_BYTES + " bytes");
				}
				return response.body();
			}
			catch (TimeoutException ex) {
				throw new IOException("no complete answer within " + timeout.toMillis() + " ms", ex);
			}
			catch (ExecutionException ex) {
				throw new IOException(ex.getCause().getClass().getSimpleName(), ex.getCause());
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("interrupted", ex);
			}
		};
	}

}
