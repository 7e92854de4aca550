package io.github.mcpgateway.request;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.mcpgateway.error.GatewayErrors;
import io.github.mcpgateway.request.StageDecision.Refuse;

import static org.assertj.core.api.Assertions.assertThat;

class PendingChargesTest {

	private final List<String> events = new ArrayList<>();

	private final PendingCharges charges = new PendingCharges();

	@Test
	void settleWhenChargeDeferredThenGoesOnWithoutCharging() throws Exception {
		assertThat(this.charges.settle(StageDecision.deferCharge(charge(null)))).isSameAs(StageDecision.proceed());
		assertThat(this.events).isEmpty();
	}

	@Test
	void settleWhenCommittedThenChargesOnceAndRunsTheStagesDecision() throws Exception {
		this.charges.settle(StageDecision.deferCharge(charge(null)));
		StageDecision running = StageDecision.around((failure) -> failure);

		StageDecision settled = this.charges.settle(StageDecision.commit(() -> {
			this.events.add("run");
			return running;
		}, () -> this.events.add("withdrawn")));

		assertThat(settled).isSameAs(running);
		assertThat(this.events).containsExactly("charged", "run");
		assertThat(this.charges.charge()).isNull();
		assertThat(this.events).containsExactly("charged", "run");
	}

	@Test
	void settleWhenChargeRefusesOnCommitThenWithdrawsAndRefuses() throws Exception {
		Refuse limited = (Refuse) StageDecision.refuse(GatewayErrors.RATE_LIMITED);
		this.charges.settle(StageDecision.deferCharge(charge(limited)));

		StageDecision settled = this.charges.settle(StageDecision.commit(() -> {
			this.events.add("run");
			return StageDecision.proceed();
		}, () -> this.events.add("withdrawn")));

		assertThat(settled).isSameAs(limited);
		assertThat(this.events).containsExactly("charged", "withdrawn");
	}

	@Test
	void chargeWhenNothingCommittedThenChargesWhatIsLeftOnce() throws Exception {
		this.charges.settle(StageDecision.deferCharge(charge(null)));
		this.charges.settle(StageDecision.proceed());

		assertThat(this.charges.charge()).isNull();
		assertThat(this.charges.charge()).isNull();
		assertThat(this.events).containsExactly("charged");
	}

	@Test
	void settleWhenAnsweredThenNothingIsCharged() throws Exception {
		this.charges.settle(StageDecision.deferCharge(charge(null)));

		assertThat(this.charges.settle(StageDecision.answered())).isSameAs(StageDecision.answered());
		assertThat(this.events).isEmpty();
	}

	private DeferredCharge charge(Refuse refusal) {
		return () -> {
			this.events.add("charged");
			return refusal;
		};
	}

}
