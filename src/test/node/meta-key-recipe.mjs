// The gateway's Idempotency-Key in params._meta (docs/idempotency.md), with the official TypeScript SDK v1
// (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client): the same code for both. Run by
// TypeScriptMetaKeyIT (meta-key-client.mjs); docs/idempotency.md shows the part between the markers, and
// DocumentationContentsTest checks that it is an exact excerpt of this file.
// recipe:begin
const KEY = 'io.github.mcpgateway/idempotency-key';
const WAIT = ['idempotency_in_flight', 'rate_limited']; // nothing ran (yet): wait data.retryAfter s, call again

// An answer from the gateway or the server: McpError (v1) or ProtocolError (v2), the gateway's in data.code.
// Anything else (a network error, an HTTP error, v1's own timeout -32001 or closed connection -32000, which
// carry no data.code): no answer.
const answered = (e) => e?.name === 'ProtocolError'
  || (e?.name === 'McpError' && (typeof e.data?.code === 'string' || ![-32000, -32001].includes(e.code)));

/** client.callTool, retried with the same key: the tool runs at most once, however often this retries. */
export async function callToolOnce(client, { name, arguments: args }, key, { maxAttempts = 5 } = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.callTool({ name, arguments: args, _meta: { [KEY]: key } });
    } catch (error) {
      const wait = answered(error) && WAIT.includes(error.data?.code);
      // Thrown: idempotency_outcome_unknown (may have run: never retry this key), idempotency_key_conflict (a bug),
      // idempotency_response_not_replayable (ran once), the tool's own errors, or the last attempt's error.
      if (attempt >= maxAttempts || (answered(error) && !wait)) throw error;
      if (wait) await new Promise((resolve) => setTimeout(resolve, 1000 * (error.data.retryAfter ?? 1)));
    }
  }
}
// recipe:end
