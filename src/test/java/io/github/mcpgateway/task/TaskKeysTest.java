package io.github.mcpgateway.task;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TaskKeysTest {

	/**
	 * The framing of the stored task keys, pinned: the domain tag, then each part as a
	 * zero byte, its UTF-8 length in decimal, a colon and its bytes. Keys in Redis were
	 * written with it.
	 */
	@Test
	void taskWhenServerAndIdThenLengthPrefixedDigestAsStored() {
		assertThat(TaskKeys.task("github", "task-1"))
			.isEqualTo("eb8488e96c8a95d31eb84ea2399bf2783aad89912f8a07c72eeef5c6279501c9");
		assertThat(TaskKeys.audit("github", "task-1")).isEqualTo("eb8488e96c8a95d3");
	}

	@Test
	void taskWhenPartsShiftBetweenServerAndIdThenKeysDiffer() {
		assertThat(TaskKeys.task("ab", "c")).isNotEqualTo(TaskKeys.task("a", "bc"));
	}

}
