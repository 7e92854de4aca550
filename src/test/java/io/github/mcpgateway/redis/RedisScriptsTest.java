package io.github.mcpgateway.redis;

import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.data.redis.core.script.RedisScript;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

class RedisScriptsTest {

	@Test
	void loadJoinsTheFilesInOrderWithANewline() {
		RedisScript<List> script = RedisScripts.load(List.class, "session/redis/read.lua", "task/redis/release.lua");

		String text = script.getScriptAsString();
		assertThat(text).startsWith("-- A binding's value and remaining TTL")
			.contains("\n-- Gives a reservation's place back.")
			.endsWith("return redis.call('ZREM', KEYS[1] .. 'g', member)\n");
		assertThat(script.getResultType()).isEqualTo(List.class);
	}

	@Test
	void loadWhenAFileIsMissingThenFails() {
		assertThatIllegalStateException().isThrownBy(() -> RedisScripts.load(List.class, "session/redis/nothing.lua"))
			.withMessageContaining("session/redis/nothing.lua");
	}

}
