package io.github.mcpgateway.helm;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.validate.ValidateCommand;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chart's {@code policy:} value is the policy file the pods load (the policy
 * ConfigMap renders it with {@code toYaml}), so the policy of {@code values.yaml} and of
 * each example merged over it must pass {@code validate --policy}: the same
 * {@link ValidateCommand} operators run, with the gateway's own parser and whole-file
 * checks (virtual servers included). The schema only pre-checks the shape; where it
 * describes virtual servers it must name exactly the fields the parser binds.
 */
class HelmPolicyTest {

	private static final Path CHART = Path.of("helm/mcp-gateway");

	private static final Path VIRTUAL_EXAMPLE = CHART.resolve("examples/values-virtual-server.yaml");

	private final YAMLMapper yaml = YAMLMapper.builder().build();

	@TempDir
	Path dir;

	@Test
	void policyOfValuesYamlAndOfEveryExampleIsValidForTheGateway() throws IOException {
		List<Path> sources = new ArrayList<>(List.of(CHART.resolve("values.yaml")));
		try (Stream<Path> examples = Files.list(CHART.resolve("examples"))) {
			sources.addAll(examples.sorted().toList());
		}
		assertThat(sources).contains(VIRTUAL_EXAMPLE);

		for (Path source : sources) {
			Result result = validate(policyOf(source));

			assertThat(result.status()).as(source + ": " + result.err()).isZero();
			assertThat(result.out()).as(source.toString()).contains("ok     policy ");
		}
	}

	@Test
	void policyOfTheSidecarWorkloadSampleIsValidForTheGateway() throws IOException {
		JsonNode sample = this.yaml.readTree(Path.of("helm/examples/sidecar-workload/values.yaml").toFile());
		JsonNode policy = sample.at("/mcp-gateway/policy");

		Result result = validate(policy);

		assertThat(result.status()).as(result.err()).isZero();
		assertThat(policy.at("/servers/0/upstream").asString()).startsWith("http://127.0.0.1:");
	}

	@Test
	void virtualServerExampleServesTwoMembersBehindOnePath() throws IOException {
		JsonNode policy = policyOf(VIRTUAL_EXAMPLE);

		Result result = validate(policy);

		assertThat(result.status()).as(result.err()).isZero();
		assertThat(result.out()).contains(", 2 server(s), 1 virtual server(s): ops/assistant"
				+ " [tickets=ops/tickets, runbooks=ops/runbooks]\n");
		List<String> paths = new ArrayList<>();
		policy.get("servers").forEach((server) -> paths.add(server.get("path").asString()));
		assertThat(paths).doesNotContain(policy.at("/virtual-servers/0/path").asString());
	}

	@Test
	void brokenVirtualServerInAnExampleFailsValidation() throws IOException {
		ObjectNode unknownMember = (ObjectNode) policyOf(VIRTUAL_EXAMPLE);
		((ObjectNode) unknownMember.at("/virtual-servers/0/members/0")).put("server", "ops/missing");
		ObjectNode ownLimits = (ObjectNode) policyOf(VIRTUAL_EXAMPLE);
		((ObjectNode) ownLimits.at("/virtual-servers/0")).set("limits",
				this.yaml.readTree("[{name: all, tokens: 10, period: 1m}, {name: all, tokens: 5, period: 1s}]"));

		Result unknown = validate(unknownMember);
		Result limits = validate(ownLimits);

		assertThat(unknown.status()).isEqualTo(1);
		assertThat(unknown.err())
			.contains("(virtual-servers[0].members[0].server): ops/missing is not a server of" + " this file");
		assertThat(limits.status()).isEqualTo(1);
		assertThat(limits.err()).contains("limits: the name all is used twice");
	}

	@Test
	void schemaNamesTheVirtualServerFieldsTheParserBindsAndNoMore() throws IOException {
		JsonNode virtual = schemaTree().at("/properties/policy/properties/virtual-servers/items");
		JsonNode member = virtual.at("/properties/members/items");

		assertThat(virtual.get("additionalProperties").asBoolean()).isFalse();
		assertThat(member.get("additionalProperties").asBoolean()).isFalse();
		assertThat(virtual.get("properties").propertyNames())
			.containsExactlyInAnyOrderElementsOf(componentsOf(VirtualServerPolicy.class));
		assertThat(member.get("properties").propertyNames())
			.containsExactlyInAnyOrderElementsOf(componentsOf(VirtualServerPolicy.Member.class));
	}

	@Test
	void schemaRefusesAVirtualServerTheParserRefuses() throws IOException {
		ObjectNode values = (ObjectNode) policyValues(VIRTUAL_EXAMPLE);
		Schema schema = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12)
			.getSchema(Files.readString(CHART.resolve("values.schema.json")));
		assertThat(schema.validate(values)).as("the example").isEmpty();

		for (String broken : new String[] { "/members/0/prefix=tickets_v2", "/members/0/prefix=Tickets",
				"/members/0/server=tickets", "/path=/mcp/ops/assistant/", "/uid= " }) {
			ObjectNode copy = values.deepCopy();
			String pointer = "/policy/virtual-servers/0" + broken.substring(0, broken.indexOf('='));
			String field = pointer.substring(pointer.lastIndexOf('/') + 1);
			((ObjectNode) copy.at(pointer.substring(0, pointer.lastIndexOf('/')))).put(field,
					broken.substring(broken.indexOf('=') + 1));
			assertThat(schema.validate(copy)).as(broken).isNotEmpty();
		}
		for (String extra : new String[] { "upstream", "identity" }) {
			ObjectNode copy = values.deepCopy();
			((ObjectNode) copy.at("/policy/virtual-servers/0")).put(extra, "x");
			assertThat(schema.validate(copy)).as(extra).isNotEmpty();
		}
		ObjectNode noMembers = values.deepCopy();
		((ObjectNode) noMembers.at("/policy/virtual-servers/0")).putArray("members");
		assertThat(schema.validate(noMembers)).as("no members").isNotEmpty();
		ObjectNode unknownRootKey = values.deepCopy();
		((ObjectNode) unknownRootKey.get("policy")).putArray("virtual_servers");
		assertThat(schema.validate(unknownRootKey)).as("virtual_servers").isNotEmpty();
	}

	private static List<String> componentsOf(Class<?> record, String... except) {
		return Arrays.stream(record.getRecordComponents())
			.map(RecordComponent::getName)
			.filter((name) -> !Arrays.asList(except).contains(name))
			.toList();
	}

	/** {@code values.yaml} with {@code source} merged over it, as {@code helm -f}. */
	private JsonNode policyValues(Path source) throws IOException {
		JsonNode defaults = this.yaml.readTree(CHART.resolve("values.yaml").toFile());
		return HelmChartTest.merge(defaults, this.yaml.readTree(source.toFile()));
	}

	private JsonNode policyOf(Path source) throws IOException {
		JsonNode policy = policyValues(source).get("policy");
		assertThat(policy).as(source + " has a policy").isNotNull();
		return policy.deepCopy();
	}

	private JsonNode schemaTree() throws IOException {
		return this.yaml.readTree(CHART.resolve("values.schema.json").toFile());
	}

	/** {@code validate --policy} on the policy as the ConfigMap renders it. */
	private Result validate(JsonNode policy) throws IOException {
		Path file = Files.createTempFile(this.dir, "policy", ".yaml");
		this.yaml.writeValue(file.toFile(), policy);
		ByteArrayOutputStream out = new ByteArrayOutputStream();
		ByteArrayOutputStream err = new ByteArrayOutputStream();
		int status = ValidateCommand.run(new String[] { "--policy", file.toString() },
				new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
		return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
	}

	private record Result(int status, String out, String err) {
	}

}
