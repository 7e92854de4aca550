package io.github.mcpgateway.idempotency;

/**
 * What a store knows of one keyed request, by its hashes only. The raw key, the principal
 * and the payload never reach a store.
 *
 * @param entryKey the scoped key hash (key, principal, session, server UID): the entry's
 * identity
 * @param requestHash the request hash (key, method, tool, id, canonical params)
 * @param scopeId hash of the quota scope (principal and session)
 * @param principalId hash of the principal, for the per-principal quotas
 * @param humanId hash of the principal's human alone, for the per-human budgets: the
 * agent and team of a principal are often the client's choice ({@code azp},
 * {@code act.sub}), the human is the subject the identity provider verified (ADR 0019)
 */
public record IdempotencyEntry(String entryKey, String requestHash, String scopeId, String principalId,
		String humanId) {
}
