package io.github.mcpgateway.config;

import java.util.Map;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;

import static java.util.Map.entry;

/**
 * The description (Prometheus {@code HELP}) of every meter the gateway registers, in one
 * catalogue so that none is left blank: a meter of the gateway registered without a
 * description of its own gets the one here. docs/operations.md ("Metrics") has each in
 * its long form, with its tags; {@code MeterDescriptionsTest} fails on a meter name of
 * the sources this catalogue lacks.
 */
public final class MeterDescriptions implements MeterFilter {

	static final Map<String, String> DESCRIPTIONS = Map.ofEntries(
			entry("mcp.gateway.requests", "Governed requests: every request on a server path that passed identity"),
			entry("mcp.gateway.request.duration", "Time in the gateway of a governed request, upstream included"),
			entry("mcp.gateway.virtual.requests", "Requests a virtual server answered, routed or fanned out"),
			entry("mcp.gateway.virtual.request.duration",
					"Time a virtual server spent on a request, its members' requests included"),
			entry("mcp.gateway.virtual.member.failures",
					"Members that failed a virtual server while it answered a request"),
			entry("mcp.gateway.virtual.sessions.store.errors", "Failed Redis operations of the virtual session store"),
			entry("mcp.gateway.virtual.sessions.store.pending",
					"Virtual sessions opened or updated while Redis was unreachable, not yet written"),
			entry("mcp.gateway.admission.in.flight", "Requests or listen streams each admission cap counts now"),
			entry("mcp.gateway.admission.refused", "Requests an admission cap refused before the body was read"),
			entry("mcp.gateway.idempotency", "Requests with an Idempotency-Key, by the stage's outcome"),
			entry("mcp.gateway.idempotency.capacity.refusals",
					"Keyed calls refused with idempotency_capacity, by the limit that refused them"),
			entry("mcp.gateway.idempotency.limit.tombstones.per.human",
					"The store's max-tombstones-per-human (configured or derived)"),
			entry("mcp.gateway.idempotency.limit.tombstones.per.scope", "The store's max-tombstones-per-scope"),
			entry("mcp.gateway.idempotency.store.bytes", "Reply bytes the Idempotency-Key store holds for replay"),
			entry("mcp.gateway.idempotency.store.entries",
					"Entries in the Idempotency-Key store: in flight, completed and tombstones"),
			entry("mcp.gateway.idempotency.store.fullest.human.budget",
					"Tombstone budget used by the fullest human (tombstones plus keyed calls in flight)"),
			entry("mcp.gateway.idempotency.store.fullest.scope.budget",
					"Tombstone budget used by the fullest scope (tombstones plus keyed calls in flight)"),
			entry("mcp.gateway.idempotency.store.fence.remaining",
					"Seconds left of the fence after the Redis Idempotency-Key store lost data (0: none)"),
			entry("mcp.gateway.idempotency.store.in.flight", "Keyed calls in flight in the Idempotency-Key store"),
			entry("mcp.gateway.idempotency.store.losses",
					"Losses of the Redis Idempotency-Key store's data this replica detected first, by cause"),
			entry("mcp.gateway.idempotency.store.operations", "Script calls of the Redis Idempotency-Key store"),
			entry("mcp.gateway.idempotency.store.tombstones", "Tombstones in the Idempotency-Key store"),
			entry("mcp.gateway.idempotency.store.unreplicated",
					"Keyed calls refused because too few Redis replicas acknowledged their begin in time"),
			entry("mcp.gateway.policy.condition.budget.refusals", "Requests refused with condition_budget_exhausted"),
			entry("mcp.gateway.policy.condition.errors",
					"Grant conditions whose evaluation failed on a request and so counted as false"),
			entry("mcp.gateway.policy.condition.time", "Condition evaluation time charged to callers"),
			entry("mcp.gateway.policy.reloads", "Reloads of a changed policy file, ok or failed"),
			entry("mcp.gateway.policy.servers", "Servers in the live policy"),
			entry("mcp.gateway.policy.valid", "1 while the latest read of the policy file was valid, 0 otherwise"),
			entry("mcp.gateway.quota.decisions", "Decisions of the policy's limits on the requests they count"),
			entry("mcp.gateway.revocation.principals", "Revoked principal entries in force"),
			entry("mcp.gateway.revocation.sessions", "Revoked session ids in force"),
			entry("mcp.gateway.revocation.sync.age", "Seconds since the last good read of the revocation source"),
			entry("mcp.gateway.revocation.syncs", "Reads of the revocation source, ok or failed"),
			entry("mcp.gateway.sessions.active", "Session bindings in this process's table (memory store)"),
			entry("mcp.gateway.sessions.events", "Session binding events"),
			entry("mcp.gateway.sessions.store.errors", "Failed Redis operations of the session store"),
			entry("mcp.gateway.sessions.store.pending",
					"Session bindings made while Redis was unreachable, not yet written"),
			entry("mcp.gateway.stdio.ends", "Processes of stdio servers ended, by cause"),
			entry("mcp.gateway.stdio.messages.dropped",
					"Messages of stdio servers' own dropped because the client's stream did not take them"),
			entry("mcp.gateway.stdio.processes", "Processes of stdio servers running now"),
			entry("mcp.gateway.stdio.refusals",
					"New sessions of stdio servers refused because a process cap was reached"),
			entry("mcp.gateway.stdio.starts", "Processes of stdio servers started, or that could not be started"),
			entry("mcp.gateway.tasks", "What the task stage did with a request"),
			entry("mcp.gateway.tasks.active", "Live task bindings"),
			entry("mcp.gateway.tasks.store.errors", "Failed Redis operations of the task store"),
			entry("mcp.gateway.tasks.store.pending", "Task bindings made while Redis was unreachable, not yet written"),
			entry("mcp.gateway.upstream.credentials", "Requests to upstream-auth servers, by how their token was had"),
			entry("mcp.gateway.upstream.duration", "Upstream exchanges of requests that passed the circuit breaker"),
			entry("mcp.gateway.upstream.token.requests", "Requests to token endpoints for upstream credentials"));

	@Override
	public Meter.Id map(Meter.Id id) {
		String description = (id.getDescription() == null) ? DESCRIPTIONS.get(id.getName()) : null;
		return (description != null) ? new Meter.Id(id.getName(), Tags.of(id.getTagsAsIterable()), id.getBaseUnit(),
				description, id.getType()) : id;
	}

}
