package io.github.mcpgateway.admission;

/**
 * The meters of the per-caller caps, each tagged {@value #LIMIT}: {@code address}
 * (requests per client address), {@code principal} (requests per human) or {@code stream}
 * (listen streams per human).
 */
final class AdmissionMeters {

	/** Counter: requests a cap refused (429). */
	static final String REFUSED = "mcp.gateway.admission.refused";

	/** Gauge: requests (or streams) in flight that a cap counts, over all callers. */
	static final String IN_FLIGHT = "mcp.gateway.admission.in.flight";

	static final String LIMIT = "limit";

	private AdmissionMeters() {
	}

}
