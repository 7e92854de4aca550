// Client recipe: the gateway's Idempotency-Key (docs/idempotency.md) with the official TypeScript SDK.
//
//   const transport = new StreamableHTTPClientTransport(url, { fetch: idempotentFetch(), requestInit });
//   const result = await withIdempotencyKey(key, () => client.callTool({ name, arguments }));
//
// idempotentFetch() returns a fetch for StreamableHTTPClientTransport({ fetch }) that:
// - puts an Idempotency-Key on a POST whose body is a JSON-RPC tools/call request, and on nothing else: the
//   gateway answers 400 idempotency_unsupported_request to a key on initialize, a notification or a GET. (The
//   SDK has no per-request headers: a key in requestInit would go on every request.)
// - takes the key from withIdempotencyKey(key, fn) for the calls made inside fn (AsyncLocalStorage follows the
//   SDK's promise chain down to fetch), or else makes a new random UUID for each tools/call;
// - resends the IDENTICAL request (same body, so the same JSON-RPC id, and the same key) when the network fails
//   and on 409 idempotency_in_flight after Retry-After. That is a retry under any request-hash setting;
// - turns any other gateway error of a keyed request (an HTTP error whose body is a JSON-RPC error with
//   error.data.code) into an IdempotencyError whose .code is that data.code and .status the HTTP status. The SDK
//   would only embed the body in a message. idempotency_outcome_unknown means: never retry with this key.
//
// Gateway options: with an MCP server that answers tools/call with text/event-stream (most SDK servers),
// gateway.idempotency.event-streams=replay, or a retry gets 409 idempotency_response_not_replayable. To retry at
// the application level, by calling client.callTool again inside withIdempotencyKey with the same key, also
// gateway.idempotency.request-hash=without-jsonrpc-id: the SDK gives that call a new JSON-RPC id.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const callerKey = new AsyncLocalStorage();

/** Runs fn; every tools/call it makes carries key. */
export function withIdempotencyKey(key, fn) {
  if (!/^[\x21-\x7E]{1,255}$/.test(key)) throw new TypeError('An Idempotency-Key is 1 to 255 visible ASCII characters');
  return callerKey.run(key, fn);
}

/** A keyed call the gateway refused or could not settle; .code is the gateway's error.data.code. */
export class IdempotencyError extends Error {
  constructor(status, code, message, key, attempts) {
    super(`HTTP ${status} ${code}: ${message}`);
    this.name = 'IdempotencyError';
    this.status = status;
    this.code = code;
    this.key = key;
    this.attempts = attempts;
  }
}

/**
 * Options: fetch (the fetch underneath, default globalThis.fetch), maxAttempts (default 3), onAttempt (called with
 * { key, attempt, status, replayed, code, error } after each attempt of a keyed request; status 0: no answer).
 */
export function idempotentFetch({ fetch: base = globalThis.fetch, maxAttempts = 3, onAttempt = () => {} } = {}) {
  return async (input, init = {}) => {
    if (!isToolCall(init)) return base(input, init);
    const key = callerKey.getStore() ?? randomUUID();
    const headers = new Headers(init.headers);
    headers.set('Idempotency-Key', key);
    const request = { ...init, headers };
    for (let attempt = 1; ; attempt++) {
      let response;
      try {
        response = await base(input, request);
      } catch (error) {
        onAttempt({ key, attempt, status: 0, replayed: false, code: null, error: String(error?.message ?? error) });
        // The SDK's own abort (the transport closing) is not a network failure.
        if (init.signal?.aborted || attempt >= maxAttempts) throw error;
        continue;
      }
      const replayed = response.headers.get('idempotency-replayed') === 'true';
      const gatewayError = response.ok ? null : await readGatewayError(response);
      onAttempt({ key, attempt, status: response.status, replayed, code: gatewayError?.code ?? null, error: null });
      if (!gatewayError) return response;
      await response.body?.cancel();
      if (gatewayError.code === 'idempotency_in_flight' && attempt < maxAttempts) {
        await new Promise((resolve) => setTimeout(resolve, retryAfterMs(response)));
        continue;
      }
      throw new IdempotencyError(response.status, gatewayError.code, gatewayError.message, key, attempt);
    }
  };
}

function isToolCall(init) {
  if ((init.method ?? 'GET').toUpperCase() !== 'POST' || typeof init.body !== 'string') return false;
  try {
    const message = JSON.parse(init.body);
    return message?.method === 'tools/call' && message.id !== undefined;
  } catch {
    return false;
  }
}

/** { code, message } of a gateway error body, or null for any other answer (left to the SDK). */
async function readGatewayError(response) {
  try {
    const error = (await response.clone().json())?.error;
    return typeof error?.data?.code === 'string' ? { code: error.data.code, message: String(error.message) } : null;
  } catch {
    return null;
  }
}

function retryAfterMs(response) {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isInteger(seconds) && seconds >= 0 && seconds <= 60 ? seconds * 1000 : 1000;
}
