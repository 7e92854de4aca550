package io.github.mcpgateway.idempotency;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import org.springframework.util.unit.DataSize;

import io.github.mcpgateway.idempotency.IdempotencyProperties.Limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** The per-human budgets of ADR 0019: derived defaults, and headroom below every cap. */
class IdempotencyLimitsTest {

	@Test
	void absentPerHumanBudgetsDeriveFromTheStoreWideCaps() {
		Limits defaults = Limits.defaults();

		assertThat(defaults.maxEntriesPerHuman()).isEqualTo(128);
		assertThat(defaults.maxInFlightPerHuman()).isEqualTo(16);
		assertThat(defaults.maxTombstonesPerHuman()).isEqualTo(32);
		Limits small = limits(10, 3, null, null, null);
		assertThat(small.maxEntriesPerHuman()).isEqualTo(5);
		assertThat(small.maxInFlightPerHuman()).isEqualTo(1);
		assertThat(small.maxTombstonesPerHuman()).isEqualTo(1);
	}

	@Test
	void perHumanBudgetThatCouldFillItsStoreWideCapIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> limits(256, 32, null, null, 256))
			.withMessageContaining("max-tombstones-per-human must be at most 255");
		assertThatIllegalArgumentException().isThrownBy(() -> limits(256, 32, null, 32, null))
			.withMessageContaining("max-in-flight-per-human must be at most 31");
		assertThatIllegalArgumentException().isThrownBy(() -> limits(256, 32, 256, null, null))
			.withMessageContaining("max-entries-per-human must be at most 255");
		assertThat(limits(256, 32, 255, 31, 255).maxTombstonesPerHuman()).isEqualTo(255);
	}

	@Test
	void storeWideCapOfOneCannotBeSharedAndIsAcceptedAsIs() {
		assertThat(limits(1, 1, null, 1, 1).maxInFlightPerHuman()).isEqualTo(1);
	}

	private static Limits limits(int maxEntries, int maxInFlight, Integer entriesPerHuman, Integer inFlightPerHuman,
			Integer tombstonesPerHuman) {
		return new Limits(Duration.ofMinutes(5), maxEntries, maxInFlight, 32, 4, 64, 8, 8, entriesPerHuman,
				inFlightPerHuman, tombstonesPerHuman, DataSize.ofKilobytes(32));
	}

}
