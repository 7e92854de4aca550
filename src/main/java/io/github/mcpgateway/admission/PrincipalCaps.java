package io.github.mcpgateway.admission;

import io.micrometer.core.instrument.MeterRegistry;

/**
 * The in-flight caps a verified caller meets ({@link PrincipalLimitFilter}): requests per
 * human, listen streams per human, and listen streams on the whole replica.
 *
 * @param requests requests in flight per human ({@code max-requests-per-principal})
 * @param streams listen streams per human ({@code max-streams-per-principal})
 * @param allStreams listen streams on this replica ({@code max-streams}), one key
 */
record PrincipalCaps(InFlightLimiter requests, InFlightLimiter streams, InFlightLimiter allStreams) {

	static PrincipalCaps of(AdmissionProperties properties, MeterRegistry meterRegistry) {
		return new PrincipalCaps(new InFlightLimiter("principal", properties.maxRequestsPerPrincipal(), meterRegistry),
				new InFlightLimiter("stream", properties.maxStreamsPerPrincipal(), meterRegistry),
				new InFlightLimiter("streams_total", properties.maxStreams(), meterRegistry));
	}

}
