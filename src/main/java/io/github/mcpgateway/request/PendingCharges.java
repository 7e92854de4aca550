package io.github.mcpgateway.request;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

import io.github.mcpgateway.request.StageDecision.Commit;
import io.github.mcpgateway.request.StageDecision.Defer;
import io.github.mcpgateway.request.StageDecision.Refuse;

/**
 * The charges one request's stages deferred ({@link StageDecision#deferCharge}) until it
 * is known to run: the pipeline's mechanism, whoever the charge is for. Each charge runs
 * at most once, in the order deferred, and only for a request that runs: when a stage
 * commits it ({@link StageDecision#commit}) or once every stage went on. A request a
 * stage refused or answered (a replay) is never charged.
 */
final class PendingCharges {

	/** Created by the first deferred charge: most requests defer none. */
	private @Nullable List<DeferredCharge> charges;

	/**
	 * The decision the pipeline acts on for a stage's {@code decision}: a deferred charge
	 * is kept and the request goes on; a commit runs the charges, then gives the stage's
	 * decision for the running request, or the refusal of a charge (the stage's
	 * {@code withdraw} run first); anything else as it is.
	 */
	StageDecision settle(StageDecision decision) throws IOException {
		if (decision instanceof Defer defer) {
			if (this.charges == null) {
				this.charges = new ArrayList<>(1);
			}
			this.charges.add(defer.charge());
			return StageDecision.proceed();
		}
		if (decision instanceof Commit commit) {
			Refuse refused = charge();
			if (refused != null) {
				commit.withdraw().run();
				return refused;
			}
			StageDecision running = commit.run().decide();
			Assert.state(!(running instanceof Defer || running instanceof Commit), "A running request is committed");
			return running;
		}
		return decision;
	}

	/**
	 * Runs the charges left, once each; stops at the first that refuses.
	 * @return the refusal, or {@code null} when the request may run
	 */
	@Nullable Refuse charge() {
		List<DeferredCharge> charges = this.charges;
		if (charges == null) {
			return null;
		}
		while (!charges.isEmpty()) {
			Refuse refused = charges.remove(0).charge();
			if (refused != null) {
				charges.clear();
				return refused;
			}
		}
		return null;
	}

}
