package io.github.mcpgateway.validate;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientProperties;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.clock.GatewayClock;
import io.github.mcpgateway.policy.Grant;
import io.github.mcpgateway.policy.GrantEvaluator;
import io.github.mcpgateway.policy.LivePolicy;
import io.github.mcpgateway.policy.McpServerPolicy;
import io.github.mcpgateway.policy.Policy;
import io.github.mcpgateway.policy.PolicyException;
import io.github.mcpgateway.policy.PolicyParser;
import io.github.mcpgateway.policy.PolicyProperties;
import io.github.mcpgateway.policy.PolicyReloader;
import io.github.mcpgateway.policy.VirtualServerPolicy;
import io.github.mcpgateway.policy.condition.Condition;
import io.github.mcpgateway.redact.ShownText;
import io.github.mcpgateway.revocation.RevocationSync;
import io.github.mcpgateway.stdio.StdioExecutables;
import io.github.mcpgateway.upstreamauth.ClientRegistrations;
import io.github.mcpgateway.upstreamauth.UpstreamAuthProperties;

/**
 * {@code java -jar mcp-gateway.jar validate [--policy FILE] [--revocations FILE]
 * [--config FILE] [--samples FILE]}: checks the files before they ship, for CI pipelines
 * and Helm pre-upgrade hooks.
 *
 * <p>
 * Contract:
 * <ul>
 * <li>Exit status 0 when every file given is valid, 1 when any is not, 2 for a usage
 * error. One line per file on standard output ({@code ok ...}) or standard error
 * ({@code error ...}).</li>
 * <li>Each error is the message the running gateway gives for that file: a policy's is
 * the reload's (file, line and field), produced by the same {@link PolicyReloader} and
 * {@link PolicyParser}; a revocation document's is the sync's
 * ({@link RevocationSync#problemIn}); a configuration's names each property and where it
 * was set.</li>
 * <li>{@code --config} binds every {@code gateway.*} property of the packaged defaults
 * plus that file (and the profiles it activates), with the gateway's binding rules, and
 * checks every other key of the file against the configuration metadata of the classpath
 * ({@link KnownProperties}); without it only the client registrations the policy check
 * needs are bound, from the packaged defaults. A policy is checked against those
 * registrations, offline: no issuer is contacted. Without {@code --policy} the
 * configuration's {@code gateway.policy.location} is checked. Every grant condition is
 * compiled and type-checked as part of the policy; a condition that denies by comparing a
 * value of the call ({@code arguments.force != true}) gets a {@code note} line on
 * standard output saying that a value of another type is refused, which does not change
 * the exit status.</li>
 * <li>{@code --samples} decides each request of a samples file against the valid policy
 * ({@link PolicySamples}): one line per sample, with what each condition gave; a sample
 * whose {@code expect} is not met, or a samples file that is not one, fails the run.</li>
 * <li>Nothing is started: no web server, no listener, no scheduler, no network
 * client.</li>
 * </ul>
 */
public final class ValidateCommand {

	/** The first argument that selects this command instead of the gateway. */
	public static final String NAME = "validate";

	private static final String USAGE = """
			usage: java -jar mcp-gateway.jar validate [--policy FILE] [--revocations FILE] [--config FILE]
			                                          [--samples FILE]
			  --policy FILE       a policy file (docs/configuration.md, "Policy file")
			  --revocations FILE  a revocation document (docs/configuration.md, "Revocation")
			  --config FILE       an application.yaml or .properties: every gateway.* property is
			                      bound, every other key checked against the properties Spring
			                      Boot and the gateway declare, and without --policy its
			                      gateway.policy.location
			  --samples FILE      requests to decide against the policy, each with its expected
			                      outcome (docs/configuration.md, "Checking conditions offline")
			exit status: 0 all valid, 1 something invalid, 2 usage error""";

	private final PrintStream out;

	private final PrintStream err;

	private final Consumer<ConfigurableApplicationContext> inspector;

	private boolean failed;

	private final @Nullable String samples;

	private ValidateCommand(PrintStream out, PrintStream err, Consumer<ConfigurableApplicationContext> inspector,
			@Nullable String samples) {
		this.out = out;
		this.err = err;
		this.inspector = inspector;
		this.samples = samples;
	}

	/**
	 * Runs the command on {@code args} (those after {@code validate}); the exit status.
	 */
	public static int run(String[] args, PrintStream out, PrintStream err) {
		return run(args, out, err, (context) -> {
		});
	}

	/**
	 * As {@link #run(String[], PrintStream, PrintStream)}; {@code inspector} sees the
	 * configuration context while it is open (tests check that it listens on nothing).
	 */
	static int run(String[] args, PrintStream out, PrintStream err,
			Consumer<ConfigurableApplicationContext> inspector) {
		ValidateOptions options = ValidateOptions.parse(args);
		if (options == null || options.help() || options.isEmpty()) {
			err.println(USAGE);
			return (options != null && options.help()) ? 0 : 2;
		}
		if (options.samples() != null && options.policy() == null && options.config() == null) {
			err.println("--samples needs the policy: --policy FILE or --config FILE");
			err.println(USAGE);
			return 2;
		}
		return new ValidateCommand(out, err, inspector, options.samples()).validate(options.policy(),
				options.revocations(), options.config()) ? 0 : 1;
	}

	private boolean validate(@Nullable String policy, @Nullable String revocations, @Nullable String config) {
		String readableConfig = config;
		if (config != null && !Files.isReadable(Path.of(config))) {
			error("config " + config + ": cannot be read");
			readableConfig = null;
		}
		if (policy != null || readableConfig != null) {
			checkConfigurationAndPolicy(policy, readableConfig);
		}
		if (revocations != null) {
			checkRevocations(revocations);
		}
		return !this.failed;
	}

	private void checkConfigurationAndPolicy(@Nullable String policy, @Nullable String config) {
		ConfigurationBinding.Bound binding = new ConfigurationBinding(this.inspector).bind(policy, config);
		Map<Class<?>, Object> bound = binding.properties();
		List<String> problems = binding.problems();
		problems.stream().distinct().forEach((problem) -> error("config " + config + ": " + problem));
		if (config != null && problems.isEmpty()) {
			this.out.println("ok     config " + config);
		}
		String location = (policy != null) ? policy
				: (bound.get(PolicyProperties.class) instanceof PolicyProperties properties) ? properties.location()
						: null;
		if (location != null && bound.get(OAuth2ClientProperties.class) instanceof OAuth2ClientProperties clients
				&& bound.get(UpstreamAuthProperties.class) instanceof UpstreamAuthProperties upstreamAuth) {
			checkPolicy(location, clients, upstreamAuth);
		}
	}

	private void checkPolicy(String location, OAuth2ClientProperties clients, UpstreamAuthProperties upstreamAuth) {
		PolicyParser parser = new PolicyParser(
				List.of(ClientRegistrations.offlineCheck(clients, upstreamAuth), new StdioExecutables(System::getenv)));
		LivePolicy live = new LivePolicy();
		try {
			new PolicyReloader(new PolicyProperties(location, Duration.ofSeconds(5), DataSize.ofMegabytes(8)), parser,
					live, GatewayClock.system(), new SimpleMeterRegistry());
			Policy policy = live.current();
			this.out.println("ok     policy " + location + ": version " + policy.version() + ", "
					+ policy.servers().size() + " server(s)" + virtualServers(policy));
			noteDenials(location, policy);
			if (this.samples != null) {
				checkSamples(this.samples, policy);
			}
		}
		catch (PolicyException ex) {
			error("policy " + ex.getMessage());
			if (this.samples != null) {
				error("samples " + this.samples + ": not decided, the policy is invalid");
			}
		}
	}

	/**
	 * The virtual servers of the summary line, each with its members' prefixes
	 * ({@code , 1 virtual server(s): demo/workspace [notes=demo/notes, json=demo/json]});
	 * nothing for a policy without any, whose line stays as it was.
	 */
	private static String virtualServers(Policy policy) {
		if (policy.virtualServers().isEmpty()) {
			return "";
		}
		StringBuilder line = new StringBuilder(", " + policy.virtualServers().size() + " virtual server(s):");
		String separator = " ";
		for (VirtualServerPolicy virtual : policy.virtualServers()) {
			line.append(separator).append(virtual.qualifiedName()).append(" [");
			line.append(String.join(", ",
					virtual.members().stream().map((member) -> member.prefix() + "=" + member.server()).toList()));
			line.append(']');
			separator = "; ";
		}
		return line.toString();
	}

	/**
	 * A {@code note} line for each condition that denies by comparing a value of the call
	 * ({@code arguments.force != true}): a value of another type makes the comparison an
	 * error, so the grant does not allow it. Valid policy; the exit status is unchanged.
	 */
	private void noteDenials(String location, Policy policy) {
		for (McpServerPolicy server : policy.servers()) {
			for (int i = 0; i < server.grants().size(); i++) {
				noteDenial(location, "server " + server.qualifiedName(), server.grants().get(i), i);
			}
		}
		for (VirtualServerPolicy virtual : policy.virtualServers()) {
			for (int i = 0; i < virtual.grants().size(); i++) {
				noteDenial(location, "virtual server " + virtual.qualifiedName(), virtual.grants().get(i), i);
			}
		}
	}

	private void noteDenial(String location, String owner, Grant grant, int index) {
		Condition when = grant.when();
		if (when != null && when.deniesByComparison()) {
			this.out.println("note   policy " + location + ": " + owner + ", grant " + grant.label(index) + ": '"
					+ when.source() + "' compares a value of the call with != or under !; a value of another type"
					+ " (\"true\" or 1 for true) is an error (wrong_type) and the grant does not allow it"
					+ " (docs/configuration.md, \"Comparisons of different types\")");
		}
	}

	private void checkSamples(String file, Policy policy) {
		List<PolicySamples.Outcome> outcomes;
		try {
			outcomes = new PolicySamples(new GrantEvaluator()).decide(Files.readAllBytes(Path.of(file)), file, policy);
		}
		catch (IOException ex) {
			error("samples " + file + ": cannot be read (" + ex.getClass().getSimpleName() + ")");
			return;
		}
		catch (IllegalArgumentException ex) {
			error("samples " + ex.getMessage());
			return;
		}
		for (PolicySamples.Outcome outcome : outcomes) {
			if (outcome.asExpected()) {
				this.out.println("ok     samples " + file + " " + outcome.line());
			}
			else {
				error("samples " + file + " " + outcome.line());
			}
		}
	}

	private void checkRevocations(String file) {
		String problem;
		try {
			problem = RevocationSync.problemIn(Files.readAllBytes(Path.of(file)));
		}
		catch (IOException ex) {
			problem = "cannot be read (" + ex.getClass().getSimpleName() + ")";
		}
		if (problem != null) {
			error("revocations " + file + ": " + problem);
		}
		else {
			this.out.println("ok     revocations " + file);
		}
	}

	/** One error line, credentials removed as from every message the gateway shows. */
	private void error(String message) {
		this.failed = true;
		this.err.println("error  " + ShownText.withoutCredentials(message));
	}

}
