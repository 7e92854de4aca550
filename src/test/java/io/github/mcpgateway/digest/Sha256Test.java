package io.github.mcpgateway.digest;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class Sha256Test {

	// FIPS 180-2, appendix B.1 and the empty message.
	private static final String ABC = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

	private static final String EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

	@Test
	void hexWhenTextThenDigestOfItsUtf8BytesInLowerCase() {
		assertThat(Sha256.hex("abc")).isEqualTo(ABC);
		assertThat(Sha256.hex("")).isEqualTo(EMPTY);
		assertThat(Sha256.hex("ü")).isEqualTo(Sha256.hex("ü".getBytes(StandardCharsets.UTF_8)))
			.isNotEqualTo(Sha256.hex("ü".getBytes(StandardCharsets.ISO_8859_1)));
	}

	@Test
	void hexWhenBytesThenDigestOfThem() {
		assertThat(Sha256.hex("abc".getBytes(StandardCharsets.US_ASCII))).isEqualTo(ABC);
	}

	@Test
	void hexWhenWrittenInPartsThenDigestOfTheirConcatenation() {
		assertThat(Sha256.hex((digest) -> {
			digest.update((byte) 'a');
			digest.update("bc".getBytes(StandardCharsets.US_ASCII));
		})).isEqualTo(ABC);
	}

	@Test
	void hexWhenCalledAgainThenEachDigestStartsFresh() {
		Sha256.hex((digest) -> digest.update((byte) 'x'));
		assertThat(Sha256.hex((digest) -> {
		})).isEqualTo(EMPTY);
		assertThat(Sha256.hex("abc")).isEqualTo(ABC);
	}

}
