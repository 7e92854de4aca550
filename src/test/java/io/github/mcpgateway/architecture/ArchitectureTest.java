package io.github.mcpgateway.architecture;

import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.List;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The package structure of docs/architecture.md, kept by the build.
 * <ul>
 * <li>No package cycles.</li>
 * <li>The pipeline's stages, in order: routing, identity, admission, request, session,
 * grant, quota, idempotency, task, upstreamauth, guard, proxy. A stage may use an earlier
 * stage (the request context, for example) but never a later one; a later stage extends
 * an earlier one through an interface the earlier one owns
 * ({@code RequestRefusalCustomizer}) or a ground package
 * ({@code transport.ReplyTap}).</li>
 * <li>Ground packages (clock, error, jsonrpc, principal, transport, poll, policy model,
 * redact, redis, digest) use no stage.</li>
 * <li>The policy model ({@code policy} and every package beneath it) uses neither the
 * request nor any stage: the grant stage that applies it lives below it, in
 * {@code grant}.</li>
 * <li>One SHA-256: only {@code digest.Sha256} looks the algorithm up.</li>
 * <li>One time source: only {@code clock.GatewayClock} reads the machine's clocks; every
 * other class is handed the clock, so that a test clock moves all of them.</li>
 * <li>Nothing but the wiring depends on audit: it observes the stages' events.</li>
 * <li>No stage depends on tracing: tracing observes the pipeline through the one
 * interface the pipeline owns ({@code request.PipelineObserver}).</li>
 * <li>Only the gateway's servlet filters (routing's {@code ServerResolutionFilter},
 * admission's caps through {@code Held} and {@code PrincipalLimitFilter}, the pipeline's
 * {@code McpPipelineFilter}, tracing's {@code MetaTraceContextFilter} and
 * {@code IdentitySpanFilter}) and identity's Spring Security filter call the filter
 * chain: a stage decides and returns its decision, never runs what comes after it. Every
 * {@code McpStage} is a strategy, not a servlet filter, in a stage package.</li>
 * </ul>
 * Wiring ({@code config}) and the demo may use anything; so may the packages no rule
 * names ({@code revocation}, {@code explain}, {@code validate}, and {@code audit} and
 * {@code tracing} apart from the rules above). docs/architecture.md states these rules
 * and lists {@link #STAGES} and {@link #GROUND}; {@code ArchitectureDocumentationTest}
 * keeps the two lists there equal to these.
 */
class ArchitectureTest {

	private static final String ROOT = "io.github.mcpgateway";

	static final List<String> STAGES = List.of("routing", "identity", "admission", "request", "session", "grant",
			"quota", "idempotency", "task", "upstreamauth", "guard", "proxy", "virtual");

	static final List<String> GROUND = List.of("clock", "error", "jsonrpc", "principal", "transport", "poll", "policy",
			"redact", "redis", "digest");

	private final JavaClasses classes = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(ROOT);

	@Test
	void noPackageCycles() {
		slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(this.classes);
	}

	@Test
	void noStageUsesALaterStage() {
		for (int i = 0; i < STAGES.size(); i++) {
			String[] later = STAGES.subList(i + 1, STAGES.size())
				.stream()
				.map(ArchitectureTest::packageOf)
				.toArray(String[]::new);
			if (later.length > 0) {
				noClasses().that()
					.resideInAPackage(packageOf(STAGES.get(i)))
					.should()
					.dependOnClassesThat()
					.resideInAnyPackage(later)
					.check(this.classes);
			}
		}
	}

	@Test
	void groundPackagesUseNoStage() {
		String[] stages = STAGES.stream().map(ArchitectureTest::packageOf).toArray(String[]::new);
		for (String ground : GROUND) {
			noClasses().that()
				.resideInAPackage(ROOT + "." + ground)
				.should()
				.dependOnClassesThat()
				.resideInAnyPackage(stages)
				.check(this.classes);
		}
	}

	@Test
	void thePolicyModelUsesNeitherTheRequestNorAnyStage() {
		String[] stages = STAGES.stream().map(ArchitectureTest::packageOf).toArray(String[]::new);
		noClasses().that()
			.resideInAPackage(packageOf("policy"))
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage(stages)
			.check(this.classes);
	}

	@Test
	void nothingDependsOnAudit() {
		noClasses().that()
			.resideOutsideOfPackages(packageOf("audit"), packageOf("config"))
			.should()
			.dependOnClassesThat()
			.resideInAPackage(packageOf("audit"))
			.check(this.classes);
	}

	@Test
	void noStageDependsOnTracing() {
		noClasses().that()
			.resideInAnyPackage(STAGES.stream().map(ArchitectureTest::packageOf).toArray(String[]::new))
			.should()
			.dependOnClassesThat()
			.resideInAPackage(packageOf("tracing"))
			.check(this.classes);
	}

	@Test
	void onlyTheGatewaysFiltersCallTheFilterChain() {
		noClasses().that()
			.resideOutsideOfPackage(packageOf("identity"))
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".request.McpPipelineFilter")
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".routing.ServerResolutionFilter")
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".admission.Held")
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".admission.PrincipalLimitFilter")
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".virtual.VirtualServerFilter")
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".tracing.MetaTraceContextFilter")
			.and()
			.doNotHaveFullyQualifiedName(ROOT + ".tracing.IdentitySpanFilter")
			.should()
			.callMethod(FilterChain.class, "doFilter", ServletRequest.class, ServletResponse.class)
			.check(this.classes);
	}

	@Test
	void everyStageIsAStrategyNotAServletFilter() {
		classes().that()
			.implement(ROOT + ".request.McpStage")
			.should()
			.notBeAssignableTo(Filter.class)
			.andShould()
			.resideInAnyPackage(STAGES.stream().map(ArchitectureTest::packageOf).toArray(String[]::new))
			.check(this.classes);
	}

	@Test
	void onlyTheGatewayClockReadsTheMachinesClocks() {
		noClasses().that()
			.resideOutsideOfPackage(packageOf("clock"))
			.should()
			.callMethod(System.class, "nanoTime")
			.orShould()
			.callMethod(System.class, "currentTimeMillis")
			.orShould()
			.callMethod(Instant.class, "now")
			.orShould()
			.callMethod(Clock.class, "systemUTC")
			.orShould()
			.callMethod(Clock.class, "systemDefaultZone")
			.check(this.classes);
	}

	@Test
	void onlyTheDigestPackageLooksUpSha256() {
		noClasses().that()
			.resideOutsideOfPackage(packageOf("digest"))
			.should()
			.callMethod(MessageDigest.class, "getInstance", String.class)
			.check(this.classes);
	}

	private static String packageOf(String name) {
		return ROOT + "." + name + "..";
	}

}
