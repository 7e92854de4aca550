package io.github.mcpgateway.validate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import io.github.mcpgateway.grant.GrantErrors;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantDecision;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.PolicyParser;
import io.github.mcpgateway.principal.IdentityMode;
import io.github.mcpgateway.principal.McpPrincipal;

/**
 * {@code validate --samples FILE}: requests decided against the policy with the grant
 * stage's own rule ({@link GrantEvaluator}, {@link GrantErrors#errorOf}), each with what
 * its conditions gave, and checked against what the file expects. Revocations, sessions
 * and limits are not part of it: a sample asks what the grants decide.
 *
 * <pre>
 * samples:
 *   - name: a small payment in euros        # optional, in the output
 *     server: /mcp/payments/ledger          # path, uid or namespace/name
 *     principal: { human: alice, agent: agent-1, team: payments }
 *     tool: ledger_write                    # or prompt: NAME, or resource: URI, or none
 *     arguments: { amount: 999, currency: EUR }
 *     expect: allow                         # allow, deny, or an error.data.code
 * </pre>
 */
final class PolicySamples {

	private static final YAMLMapper YAML = YAMLMapper.builder()
		.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
		.enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
		// Numbers exactly, as the request path reads them: a sample decides as the call.
		.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
		.build();

	private final GrantEvaluator grants;

	PolicySamples(GrantEvaluator grants) {
		this.grants = grants;
	}

	/** The file's root. */
	record SampleFile(@Nullable List<Sample> samples) {
	}

	/**
	 * One request to decide.
	 *
	 * @param name a label for the output
	 * @param server the server's path, uid or {@code namespace/name}
	 * @param principal the caller (ignored on a {@code delegated-header} server)
	 * @param tool the tool of a {@code tools/call}
	 * @param prompt the prompt of a {@code prompts/get}
	 * @param resource the URI of a {@code resources/read}
	 * @param arguments the call's arguments, an object
	 * @param expect {@code allow}, {@code deny} or the {@code error.data.code} expected
	 */
	record Sample(@Nullable String name, @Nullable String server, @Nullable Principal principal, @Nullable String tool,
			@Nullable String prompt, @Nullable String resource, @Nullable JsonNode arguments, @Nullable String expect) {
	}

	/** A sample's caller. */
	record Principal(@Nullable String human, @Nullable String agent, @Nullable String team) {
	}

	/**
	 * What one sample gave: a line for the output, and whether it met its expectation.
	 */
	record Outcome(String line, boolean asExpected) {
	}

	/**
	 * The samples of {@code content} (the file {@code source}), each decided against
	 * {@code policy}.
	 * @throws IllegalArgumentException when the file is not a samples file, with its line
	 * and field
	 */
	List<Outcome> decide(byte[] content, String source, Policy policy) {
		SampleFile file;
		try {
			file = YAML.readValue(content, SampleFile.class);
		}
		catch (JacksonException ex) {
			throw new IllegalArgumentException(PolicyParser.describe(YAML, ex, source, content));
		}
		if (file == null || file.samples() == null || file.samples().isEmpty()) {
			throw new IllegalArgumentException(source + ": the file must have a non-empty 'samples' list");
		}
		List<Outcome> outcomes = new ArrayList<>();
		for (int i = 0; i < file.samples().size(); i++) {
			outcomes.add(decide(i + 1, file.samples().get(i), policy));
		}
		return outcomes;
	}

	private Outcome decide(int number, @Nullable Sample sample, Policy policy) {
		String label = "sample " + number
				+ ((sample != null && sample.name() != null) ? " (" + sample.name() + ")" : "");
		String problem = problemOf(sample);
		if (problem != null) {
			return new Outcome(label + ": " + problem, false);
		}
		McpServerPolicy server = policy.find(sample.server());
		if (server == null) {
			return new Outcome(label + ": no server " + sample.server() + " in the policy", false);
		}
		McpPrincipal caller = (server.identity() == IdentityMode.DELEGATED_HEADER) ? null
				: new McpPrincipal(sample.principal().human(), sample.principal().agent(), sample.principal().team());
		Grant.Item kind = Grant.Item.of(sample.prompt(), sample.resource());
		String item = (sample.prompt() != null) ? sample.prompt()
				: (sample.resource() != null) ? sample.resource() : sample.tool();
		GrantDecision decision = this.grants.decideRequest(server, caller, kind, item, sample.arguments());
		String code = decision.allowed() ? null : GrantErrors.errorOf(decision).code();
		String got = decision.allowed()
				? "allowed by " + server.grants().get(decision.grantIndex()).label(decision.grantIndex())
				: "refused " + code + ((decision.deniedBy() != null) ? " by " + decision.deniedBy() : "");
		String line = label + ": " + got + conditions(decision);
		String expect = (sample.expect() != null) ? sample.expect().strip().toLowerCase(Locale.ROOT) : null;
		boolean asExpected = expect == null || (expect.equals("allow") ? decision.allowed()
				: expect.equals("deny") ? !decision.allowed() : expect.equals(code));
		return new Outcome(asExpected ? line : line + "; expected " + expect, asExpected);
	}

	private static @Nullable String problemOf(@Nullable Sample sample) {
		if (sample == null) {
			return "an entry must not be empty";
		}
		if (sample.server() == null || sample.server().isBlank()) {
			return "server is required";
		}
		if (sample.principal() == null || sample.principal().human() == null || sample.principal().human().isBlank()) {
			return "principal.human is required";
		}
		int items = ((sample.tool() != null) ? 1 : 0) + ((sample.prompt() != null) ? 1 : 0)
				+ ((sample.resource() != null) ? 1 : 0);
		if (items > 1) {
			return "name one of tool, prompt and resource";
		}
		if (sample.arguments() != null && (!sample.arguments().isObject() || sample.resource() != null || items == 0)) {
			return "arguments must be an object, with a tool or a prompt";
		}
		return null;
	}

	private static String conditions(GrantDecision decision) {
		if (decision.conditions().isEmpty()) {
			return "";
		}
		List<String> results = new ArrayList<>();
		for (GrantDecision.Evaluated evaluated : decision.conditions()) {
			results.add(evaluated.label() + "=" + evaluated.result().label());
		}
		return " (conditions: " + String.join(", ", results) + ")";
	}

}
