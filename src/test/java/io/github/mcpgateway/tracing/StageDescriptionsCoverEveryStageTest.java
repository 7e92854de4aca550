package io.github.mcpgateway.tracing;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

import io.github.mcpgateway.request.McpPipelineFilter;
import io.github.mcpgateway.request.McpStage;
import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tracing derives each stage span's attributes by the stage's name
 * ({@link StageDescriptions}): the names it knows are the stages the application
 * registers, in order, so a stage added or renamed is not silently left undescribed.
 */
class StageDescriptionsCoverEveryStageTest extends GatewayIntegrationTest {

	@Autowired
	private McpPipelineFilter pipeline;

	@Test
	void theStagesTracingDescribesAreTheRegisteredStages() {
		assertThat(this.pipeline.stages().stream().map(McpStage::name).toList()).isEqualTo(StageDescriptions.STAGES);
	}

}
