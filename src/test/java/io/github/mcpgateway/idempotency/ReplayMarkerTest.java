package io.github.mcpgateway.idempotency;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The replay marker of a key sent in {@code _meta} (ADR 0020), on the reply's bytes. */
class ReplayMarkerTest {

	private static final String MARKER = "\"io.github.mcpgateway/idempotency\":{\"replayed\":true}";

	@ParameterizedTest
	@CsvSource(delimiter = '|', quoteCharacter = '`', value = {
			// a result without _meta gets one, first, and everything else stays as stored
			"`{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[],\"n\":1.50}}` | `{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"_meta\":{MARKER},\"content\":[],\"n\":1.50}}`",
			"`{\"id\":1,\"result\":{}}` | `{\"id\":1,\"result\":{\"_meta\":{MARKER}}}`",
			// a result with _meta keeps its members
			"`{\"id\":1,\"result\":{\"_meta\":{\"a\":1},\"content\":[]}}` | `{\"id\":1,\"result\":{\"_meta\":{MARKER,\"a\":1},\"content\":[]}}`",
			"`{\"id\":1,\"result\":{\"_meta\":{}}}` | `{\"id\":1,\"result\":{\"_meta\":{MARKER}}}`",
			// a marker the upstream wrote is replaced, not doubled
			"`{\"id\":1,\"result\":{\"_meta\":{\"a\":1,\"io.github.mcpgateway/idempotency\":{\"replayed\":false}}}}` | `{\"id\":1,\"result\":{\"_meta\":{MARKER,\"a\":1}}}`",
			// an error, or a _meta that is not an object, is left as it is
			"`{\"id\":1,\"error\":{\"code\":-1,\"message\":\"m\"}}` | `{\"id\":1,\"error\":{\"code\":-1,\"message\":\"m\"}}`",
			"`{\"id\":1,\"result\":{\"_meta\":7}}` | `{\"id\":1,\"result\":{\"_meta\":7}}`" })
	void aReplayedResultIsMarkedInItsOwnMeta(String stored, String replayed) {
		assertThat(new String(ReplayWriter.marked(stored.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8))
			.isEqualTo(replayed.replace("MARKER", MARKER));
	}

}
