package io.github.mcpgateway.policy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.principal.IdentityMode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code virtual-servers} list of the policy file and its whole-file checks. */
class VirtualServerPolicyParserTest {

	private static final String SERVERS = """
			servers:
			  - namespace: demo
			    name: notes
			    uid: uid-notes
			    upstream: http://notes/mcp
			    path: /mcp/demo/notes
			    grants:
			      - tools: ["*"]
			  - namespace: demo
			    name: json
			    uid: uid-json
			    upstream: http://json/mcp
			    path: /mcp/demo/json
			    grants:
			      - tools: ["*"]
			  - namespace: demo
			    name: shell
			    upstream: http://shell/mcp
			    path: /mcp/demo/shell
			    identity: delegated-header
			  - namespace: demo
			    name: machines
			    upstream: http://machines/mcp
			    path: /mcp/demo/machines
			    identity: adapter-certificate
			""";

	private static final String VALID = SERVERS + """
			virtual-servers:
			  - namespace: demo
			    name: workspace
			    uid: uid-workspace
			    path: /mcp/demo/workspace
			    members:
			      - server: demo/notes
			        prefix: notes
			        tools: [echo, "list_*"]
			      - server: demo/json
			        prefix: json
			    grants:
			      - name: no-json-delete
			        tools: ["*"]
			        except: [json_delete]
			""";

	private final PolicyParser parser = new PolicyParser();

	@Test
	void parseWhenValidThenVirtualServerByPathWithItsMembersIdentity() {
		Policy policy = parse(VALID);

		VirtualServerPolicy workspace = policy.virtualServerAt("/mcp/demo/workspace");
		assertThat(workspace).isNotNull();
		assertThat(workspace.qualifiedName()).isEqualTo("demo/workspace");
		assertThat(workspace.members()).extracting(VirtualServerPolicy.Member::prefix).containsExactly("notes", "json");
		assertThat(workspace.members().get(1).tools()).containsExactly("*");
		assertThat(workspace.memberOf("notes_echo").server()).isEqualTo("demo/notes");
		assertThat(workspace.members().get(0).serves("list_all")).isTrue();
		assertThat(workspace.members().get(0).serves("delete")).isFalse();
		assertThat(workspace.identity(policy)).isEqualTo(IdentityMode.OAUTH);
		assertThat(workspace.grants()).singleElement()
			.satisfies((grant) -> assertThat(grant.except()).containsExactly("json_delete"));
		assertThat(workspace.limits()).isEmpty();
		assertThat(policy.findVirtual("uid-workspace")).isSameAs(workspace);
		assertThat(policy.findVirtual("demo/workspace")).isSameAs(workspace);
		assertThat(policy.find("/mcp/demo/workspace")).isNull();
	}

	@Test
	void parseWhenNoVirtualServersThenNone() {
		assertThat(parse(SERVERS).virtualServers()).isEmpty();
	}

	@Test
	void parseWhenMembersShareAdapterCertificateThenThatIsTheIdentity() {
		Policy policy = parse(
				SERVERS + """
						virtual-servers:
						  - { namespace: demo, name: fleet, uid: u-fleet, path: /mcp/demo/fleet, members: [{ server: demo/machines, prefix: m }] }
						""");

		assertThat(policy.virtualServerAt("/mcp/demo/fleet").identity(policy))
			.isEqualTo(IdentityMode.ADAPTER_CERTIFICATE);
	}

	@Test
	void parseWhenAMemberIsUnknownThenNamesLineAndField() {
		assertThatThrownBy(() -> parse(VALID.replace("server: demo/json", "server: demo/missing")))
			.isInstanceOf(PolicyException.class)
			.hasMessage("policy.yaml line 35 (virtual-servers[0].members[1].server): demo/missing is not a server of"
					+ " this file (members name servers as namespace/name)");
	}

	@Test
	void parseWhenAMemberIsDelegatedHeaderThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("server: demo/json", "server: demo/shell")))
			.isInstanceOf(PolicyException.class)
			.hasMessageStartingWith("policy.yaml line 35 (virtual-servers[0].members[1].server): demo/shell uses"
					+ " delegated-header identity; a virtual server needs a verified caller");
	}

	@Test
	void parseWhenMembersMixIdentityModesThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("server: demo/json", "server: demo/machines")))
			.isInstanceOf(PolicyException.class)
			.hasMessage("policy.yaml line 35 (virtual-servers[0].members[1].server): demo/machines uses"
					+ " adapter-certificate identity but members[0] (demo/notes) uses oauth; all members of a virtual"
					+ " server share one identity mode");
	}

	@Test
	void parseWhenAPrefixIsUsedTwiceThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("prefix: json", "prefix: notes")))
			.isInstanceOf(PolicyException.class)
			.hasMessageContaining("(virtual-servers[0])")
			.hasMessageEndingWith("members[1].prefix: notes is used twice");
	}

	@Test
	void parseWhenTheSameServerIsAMemberTwiceThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("server: demo/json", "server: demo/notes")))
			.isInstanceOf(PolicyException.class)
			.hasMessageEndingWith("members[1].server: demo/notes is a member twice");
	}

	@Test
	void parseWhenAPrefixHasAnUnderscoreOrCapitalsThenNamesTheMember() {
		for (String prefix : new String[] { "my_notes", "Notes", "1notes", "a-prefix-longer-than-16" }) {
			assertThatThrownBy(() -> parse(VALID.replace("prefix: json", "prefix: " + prefix))).as(prefix)
				.isInstanceOf(PolicyException.class)
				.hasMessageContaining("(virtual-servers[0].members[1])")
				.hasMessageEndingWith(
						"prefix must be 1 to 16 lower-case letters, digits or '-', starting with a letter (no '_')");
		}
	}

	@Test
	void parseWhenThePathIsAServersThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("path: /mcp/demo/workspace", "path: /mcp/demo/notes")))
			.isInstanceOf(PolicyException.class)
			.hasMessage(
					"policy.yaml line 30 (virtual-servers[0].path): path /mcp/demo/notes is used by server demo/notes");
	}

	@Test
	void parseWhenTheUidIsAServersThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("uid: uid-workspace", "uid: uid-json")))
			.isInstanceOf(PolicyException.class)
			.hasMessage("policy.yaml line 29 (virtual-servers[0].uid): uid uid-json is used by server demo/json");
	}

	@Test
	void parseWhenTheNameIsAServersThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("name: workspace", "name: notes")))
			.isInstanceOf(PolicyException.class)
			.hasMessage("policy.yaml line 28 (virtual-servers[0].name): demo/notes is declared twice (servers and"
					+ " virtual servers share names)");
	}

	@Test
	void parseWhenTwoVirtualServersShareAPathThenRefused() {
		String second = """
				  - { namespace: demo, name: other, uid: u-other, path: /mcp/demo/workspace, members: [{ server: demo/notes, prefix: n }] }
				""";
		assertThatThrownBy(() -> parse(VALID + second)).isInstanceOf(PolicyException.class)
			.hasMessageContaining("(virtual-servers[1].path): path /mcp/demo/workspace is used by virtual server"
					+ " demo/workspace");
	}

	@Test
	void parseWhenAMemberIsAVirtualServerThenRefused() {
		String nested = """
				  - { namespace: demo, name: outer, uid: u-outer, path: /mcp/demo/outer, members: [{ server: demo/workspace, prefix: ws }] }
				""";
		assertThatThrownBy(() -> parse(VALID + nested)).isInstanceOf(PolicyException.class)
			.hasMessageContaining("(virtual-servers[1].members[0].server): demo/workspace is a virtual server; a member"
					+ " must be a server (virtual servers do not nest)");
	}

	@Test
	void parseWhenMembersAreEmptyOrMissingThenRefused() {
		for (String members : new String[] { "members: []", "other: 1" }) {
			String yaml = SERVERS + "virtual-servers:\n  - { namespace: demo, name: empty, uid: u-empty,"
					+ " path: /mcp/demo/empty, " + members + " }\n";
			assertThatThrownBy(() -> parse(yaml)).as(members)
				.isInstanceOf(PolicyException.class)
				.hasMessageContaining("(virtual-servers[0]");
		}
		assertThatThrownBy(() -> parse(SERVERS
				+ "virtual-servers:\n  - { namespace: demo, name: empty, uid: u-empty, path: /mcp/demo/empty, members: [] }\n"))
			.hasMessageEndingWith("members: a virtual server needs at least one member");
	}

	@Test
	void parseWhenTheUidIsMissingThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("    uid: uid-workspace\n", "")))
			.isInstanceOf(PolicyException.class)
			.hasMessageContaining("(virtual-servers[0])")
			.hasMessageEndingWith("uid is required: a virtual session is bound to it");
	}

	@Test
	void parseWhenTwoGrantsShareANameThenRefused() {
		String grants = VALID + """
				      - name: no-json-delete
				        tools: [notes_echo]
				""";
		assertThatThrownBy(() -> parse(grants)).isInstanceOf(PolicyException.class)
			.hasMessageEndingWith("grants: the name no-json-delete is used twice");
	}

	@Test
	void parseWhenAVirtualServerHasLimitsThenItKeepsThem() {
		Policy policy = parse(VALID + """
				    limits:
				      - name: per-caller
				        tokens: 5
				        period: 1s
				        tools: ["notes_*"]
				""");

		assertThat(policy.findVirtual("uid-workspace").limits()).singleElement().satisfies((limit) -> {
			assertThat(limit.name()).isEqualTo("per-caller");
			assertThat(limit.tools()).containsExactly("notes_*");
			assertThat(limit.burst()).isEqualTo(5);
		});
	}

	@Test
	void parseWhenTwoOfAVirtualServersLimitsShareANameThenRefused() {
		String limits = VALID + """
				    limits:
				      - { name: per-caller, tokens: 5, period: 1s }
				      - { name: per-caller, tokens: 9, period: 1m }
				""";
		assertThatThrownBy(() -> parse(limits)).isInstanceOf(PolicyException.class)
			.hasMessageContaining("(virtual-servers[0])")
			.hasMessageEndingWith("limits: the name per-caller is used twice");
	}

	@Test
	void parseWhenAVirtualServersLimitIsInvalidThenNamesIt() {
		String limits = VALID + """
				    limits:
				      - { name: per-caller, tokens: 0, period: 1s }
				""";
		assertThatThrownBy(() -> parse(limits)).isInstanceOf(PolicyException.class)
			.hasMessageContaining("virtual-servers[0].limits[0]")
			.hasMessageEndingWith("tokens must be at least 1");
	}

	@Test
	void parseWhenAMemberSelectsNoToolsThenRefused() {
		assertThatThrownBy(() -> parse(VALID.replace("tools: [echo, \"list_*\"]", "tools: []")))
			.isInstanceOf(PolicyException.class)
			.hasMessageContaining("(virtual-servers[0].members[0])")
			.hasMessageEndingWith("tools: list tool names or patterns, none blank, or omit it for all");
	}

	@Test
	void parseWhenAVirtualServerHasAnUnknownKeyThenNamesIt() {
		assertThatThrownBy(() -> parse(
				VALID.replace("    uid: uid-workspace\n", "    uid: uid-workspace\n    upstream: http://x/mcp\n")))
			.isInstanceOf(PolicyException.class)
			.hasMessageStartingWith("policy.yaml line 30 (virtual-servers[0].upstream)");
	}

	private Policy parse(String yaml) {
		return this.parser.parse(yaml.getBytes(StandardCharsets.UTF_8), "policy.yaml", Instant.EPOCH);
	}

}
