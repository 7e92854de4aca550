package io.github.mcpgateway.error;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every code of {@link GatewayErrors} is documented in {@code docs/errors.md}. */
class ErrorsDocumentationTest {

	@Test
	void everyGatewayErrorCodeIsDocumented() throws IOException, IllegalAccessException {
		List<String> codes = new ArrayList<>();
		for (Field field : GatewayErrors.class.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) && field.getType() == GatewayError.class) {
				codes.add(((GatewayError) field.get(null)).code());
			}
		}
		String documentation = Files.readString(Path.of("docs/errors.md"));

		assertThat(codes).hasSizeGreaterThan(20);
		assertThat(codes).allSatisfy((code) -> assertThat(documentation).as(code).contains("`" + code + "`"));
	}

}
