package io.github.mcpgateway.architecture;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;

import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.routing.ServerResolutionFilter;
import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pipeline the application registers runs its stages in the order of their packages
 * that {@link ArchitectureTest} enforces (a stage uses earlier stages only), and routing
 * runs ahead of Spring Security, the pipeline after it.
 */
class PipelineOrderTest extends GatewayIntegrationTest {

	private static final String ROOT = "io.github.mcpgateway.";

	@Autowired
	private McpPipelineFilter pipeline;

	@Autowired
	private List<FilterRegistrationBean<?>> registrations;

	@Test
	void stagesRunInTheOrderOfTheirPackages() {
		List<String> packages = new ArrayList<>();
		for (McpStage stage : this.pipeline.stages()) {
			packages.add(stage.getClass().getPackageName().substring(ROOT.length()));
		}

		List<String> enforced = ArchitectureTest.STAGES.stream().filter(packages::contains).toList();
		assertThat(packages).isEqualTo(enforced);
		assertThat(packages).containsExactly("session", "grant", "quota", "idempotency", "task", "upstreamauth",
				"guard");
	}

	@Test
	void routingRunsBeforeIdentityAndThePipelineAfterIt() {
		int routing = orderOf(ServerResolutionFilter.class);
		int pipeline = orderOf(McpPipelineFilter.class);

		assertThat(routing).isLessThan(SecurityFilterProperties.DEFAULT_FILTER_ORDER);
		assertThat(pipeline).isGreaterThan(SecurityFilterProperties.DEFAULT_FILTER_ORDER);
	}

	private int orderOf(Class<?> filter) {
		return this.registrations.stream()
			.filter((registration) -> filter.isInstance(registration.getFilter()))
			.findFirst()
			.orElseThrow()
			.getOrder();
	}

}
