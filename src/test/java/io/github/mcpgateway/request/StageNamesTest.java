package io.github.mcpgateway.request;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StageNamesTest {

	@Test
	void nameWhenClassEndsInStageThenSnakeCaseWithoutSuffix() {
		assertThat(new UpstreamGuardStage().name()).isEqualTo("upstream_guard");
		assertThat(new PolicyStage().name()).isEqualTo("policy");
	}

	@Test
	void nameWhenClassDoesNotEndInStageThenWholeNameInSnakeCase() {
		assertThat(new Oauth2Checks().name()).isEqualTo("oauth2_checks");
	}

	@Test
	void nameWhenStageOverridesItThenItsOwn() {
		McpStage named = new PolicyStage() {
			@Override
			public String name() {
				return "grants";
			}
		};

		assertThat(named.name()).isEqualTo("grants");
	}

	private static class UpstreamGuardStage implements McpStage {

		@Override
		public StageDecision decide(McpExchange exchange) {
			return StageDecision.proceed();
		}

	}

	private static class PolicyStage extends UpstreamGuardStage {

	}

	private static class Oauth2Checks extends UpstreamGuardStage {

	}

}
