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

	/**
	 * Decisions the gateway answers before it knows a request's id (identity's
	 * {@code access_denied}) or off an MCP path (Actuator's {@code operator_required}):
	 * never sent as HTTP 200.
	 */
	private static final java.util.Set<String> NEVER_WITH_AN_ID = java.util.Set.of("access_denied",
			"operator_required");

	/**
	 * The table of errors sent as HTTP 200 names, in its decisions row, exactly the
	 * errors the code sends so under the default {@code json-rpc} refusal status.
	 */
	@Test
	void theDecisionsRowOfTheStatusTableIsWhatTheCodeSendsAs200() throws IOException, IllegalAccessException {
		RefusalStatuses defaults = new RefusalStatuses(RefusalStatus.JSON_RPC, RefusalStatus.HTTP);
		java.util.Set<String> sentAs200 = new java.util.TreeSet<>();
		for (Field field : GatewayErrors.class.getDeclaredFields()) {
			if (Modifier.isStatic(field.getModifiers()) && field.getType() == GatewayError.class) {
				GatewayError error = (GatewayError) field.get(null);
				if (!error.code().startsWith("idempotency_") && !NEVER_WITH_AN_ID.contains(error.code())
						&& defaults.asJsonRpc(error, false)) {
					sentAs200.add(error.code());
				}
			}
		}
		String row = Files.readString(Path.of("docs/errors.md"))
			.lines()
			.filter((line) -> line.startsWith("| Decisions: "))
			.findFirst()
			.orElseThrow();
		java.util.Set<String> documented = new java.util.TreeSet<>();
		java.util.regex.Matcher code = java.util.regex.Pattern.compile("`([a-z_]+)`")
			.matcher(row.substring(0, row.indexOf(" | ", 2)));
		while (code.find()) {
			documented.add(code.group(1));
		}

		assertThat(sentAs200).hasSizeGreaterThan(10);
		assertThat(documented).isEqualTo(sentAs200);
	}

}
