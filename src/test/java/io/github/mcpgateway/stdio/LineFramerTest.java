package io.github.mcpgateway.stdio;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LineFramerTest {

	@Test
	void nextWhenLinesEndWithNewlineOrCarriageReturnNewlineThenEachLineWithoutItsEnd() throws IOException {
		assertThat(lines(LineFramer.refusing(stream("a\nbb\r\n\nccc"), 8))).containsExactly("a", "bb", "", "ccc");
	}

	@Test
	void nextWhenALineSpansManyReadsThenOneLine() throws IOException {
		String longLine = "x".repeat(20_000);

		assertThat(lines(LineFramer.refusing(stream(longLine + "\nend\n"), 20_000))).containsExactly(longLine, "end");
	}

	@Test
	void nextWhenALineIsOneByteOverTheBoundThenRefused() throws IOException {
		LineFramer framer = LineFramer.refusing(stream("1234\n12345\n"), 4);

		assertThat(framer.next()).asString(StandardCharsets.UTF_8).isEqualTo("1234");
		assertThatThrownBy(framer::next).isInstanceOf(LineFramer.LineTooLongException.class);
	}

	@Test
	void nextWhenALineHasNoNewlineAndNoEndThenRefusedOnceItPassesTheBoundNotHeldWhole() {
		InputStream endless = new InputStream() {
			@Override
			public int read() {
				return 'a';
			}
		};

		assertThatThrownBy(() -> LineFramer.refusing(endless, 1024).next())
			.isInstanceOf(LineFramer.LineTooLongException.class);
	}

	@Test
	void nextWhenCuttingThenALongLineIsCutToTheBoundAndTheNextLineFollows() throws IOException {
		assertThat(lines(LineFramer.cutting(stream("abcdefgh\r\nij\n"), 3))).containsExactly("abc", "ij");
	}

	private static List<String> lines(LineFramer framer) throws IOException {
		List<String> lines = new ArrayList<>();
		byte[] line;
		while ((line = framer.next()) != null) {
			lines.add(new String(line, StandardCharsets.UTF_8));
		}
		return lines;
	}

	private static InputStream stream(String text) {
		return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
	}

}
