// The TypeScript client recipe (idempotent-fetch.mjs) through the gateway, driven by TypeScriptRecipeIT. It
// prints ONE JSON line on stdout that the Java test asserts on; diagnostics go to stderr.
//
// Steps, each with its own key (except "repeat" and "conflict", which reuse the key of "first"):
//   first     get-sum {a: 2, b: 40} with key K1;
//   repeat    the same call again with K1, through the SDK (so with a new JSON-RPC id): must be a replay;
//   conflict  get-sum {a: 1, b: 1} with K1: must fail with code idempotency_key_conflict;
//   lost      get-sum {a: 3, b: 4} with key K2, whose first attempt loses its connection once the answer has
//             started: the recipe resends the identical request, and the retry gets the replay.
//
// Environment: MCP_URL (required), MCP_TOKEN (optional bearer token), CLIENT_TIMEOUT_MS (default 30000).
// Exit code: 0 when every step gave what it must, 1 otherwise, 2 when the watchdog fired.
import { randomUUID } from 'node:crypto';
import { idempotentFetch, withIdempotencyKey } from './idempotent-fetch.mjs';

// The recipe is the same for both SDK majors: v1 (@modelcontextprotocol/sdk, the default) or, with SDK=v2,
// @modelcontextprotocol/client, whose StreamableHTTPClientTransport takes the same { fetch } option.
const { Client, StreamableHTTPClientTransport } = (process.env.SDK === 'v2')
  ? await import('@modelcontextprotocol/client')
  : { ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')) };

const url = process.env.MCP_URL;
const timeoutMs = Number(process.env.CLIENT_TIMEOUT_MS ?? 30000);
const out = { ok: false, url, steps: {}, failures: [] };

function finish(exitCode) {
  out.ok = out.failures.length === 0;
  process.stdout.write(JSON.stringify(out) + '\n', () => process.exit(exitCode));
}

const watchdog = setTimeout(() => {
  out.failures.push(`watchdog: no completion within ${timeoutMs} ms`);
  finish(2);
}, timeoutMs);

// The network under the recipe: loseNext() makes the next keyed request fail like a dropped connection, after
// the gateway has started to answer it (so the request was sent and the tool ran).
let loseNext = false;
async function lossyFetch(input, init) {
  if (!(loseNext && new Headers(init?.headers).has('idempotency-key'))) return fetch(input, init);
  loseNext = false;
  const connection = new AbortController();
  init.signal?.addEventListener('abort', () => connection.abort());
  await fetch(input, { ...init, signal: connection.signal });
  connection.abort();
  throw new TypeError('fetch failed', { cause: new Error('simulated: connection lost after the answer started') });
}

const attempts = [];
const transport = new StreamableHTTPClientTransport(new URL(url), {
  fetch: idempotentFetch({ fetch: lossyFetch, onAttempt: (a) => attempts.push(a) }),
  requestInit: { headers: process.env.MCP_TOKEN ? { Authorization: `Bearer ${process.env.MCP_TOKEN}` } : {} },
});
const client = new Client({ name: 'mcp-gateway-recipe-client', version: '1.0.0' });
client.onerror = (e) => console.error('client onerror:', e?.message ?? e);

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// One keyed call: its result text or error, and what each attempt got.
async function keyedCall(name, key, args, check) {
  const before = attempts.length;
  const step = { text: null, errorName: null, errorCode: null, errorStatus: null, attempts: [] };
  try {
    step.text = textOf(await withIdempotencyKey(key, () => client.callTool({ name: 'get-sum', arguments: args })));
  } catch (err) {
    step.errorName = err?.name ?? typeof err;
    step.errorCode = typeof err?.code === 'string' ? err.code : null;
    step.errorStatus = err?.status ?? null;
    console.error(`${name}:`, err?.message ?? err);
  }
  step.attempts = attempts.slice(before).map(({ status, replayed, code, error }) => ({ status, replayed, code, error }));
  step.replayed = step.attempts.at(-1)?.replayed ?? false;
  if (!check(step)) out.failures.push(`${name}: ${JSON.stringify(step)}`);
  out.steps[name] = step;
}

try {
  await client.connect(transport);
  const first = randomUUID();
  await keyedCall('first', first, { a: 2, b: 40 }, (s) => s.text?.includes('42') && !s.replayed);
  await keyedCall('repeat', first, { a: 2, b: 40 }, (s) => s.text === out.steps.first.text && s.replayed);
  await keyedCall('conflict', first, { a: 1, b: 1 }, (s) => s.errorCode === 'idempotency_key_conflict');
  loseNext = true;
  await keyedCall('lost', randomUUID(), { a: 3, b: 4 },
    (s) => s.text?.includes('7') && s.replayed && s.attempts[0]?.status === 0);
  await transport.terminateSession().catch(() => {});
} catch (err) {
  out.failures.push(`unexpected: ${err?.message ?? err}`);
} finally {
  await client.close().catch(() => {});
}
clearTimeout(watchdog);
finish(out.failures.length === 0 ? 0 : 1);
