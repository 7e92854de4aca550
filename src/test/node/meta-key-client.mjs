// The Idempotency-Key in params._meta through the official TypeScript SDK, v1 (@modelcontextprotocol/sdk) or v2
// (@modelcontextprotocol/client), against the gateway in front of counting-server.mjs: driven by
// TypeScriptMetaKeyIT. The application code is the recipe (meta-key-recipe.mjs) or a plain client.callTool; the
// network below the SDK is this script's fetch, which records every keyed tools/call and can lose one reply.
// Prints ONE JSON line on stdout (report.mjs); diagnostics go to stderr. The Java test reads the tool runs from
// the counting server itself.
//
// Steps (items are prefixed with the SDK, so that both runs share one counting server):
//   lost        count {item: <sdk>-lost} through the recipe; the first reply is read in full, then lost (fetch
//               throws TypeError: fetch failed); the recipe calls again with the same key and gets the replay;
//   conflict    the same key with {item: <sdk>-other}, through the recipe: idempotency_key_conflict;
//   inFlight    slow {item: <sdk>-slow} with a key, and, once the server counted its run, a plain callTool with
//               the same key: idempotency_in_flight with data.retryAfter; then the first call's result, and the
//               recipe again with that key: its replay;
//   crash       crash {item: <sdk>-crash} through the recipe: the first attempt fails (the upstream's 5xx),
//               the retry gets idempotency_outcome_unknown, which the recipe throws;
//   limited     limited {item: <sdk>-limited-<n>} without a key until the quota refuses (at most 3 calls), then
//               once with a key: both rate_limited with data.retryAfter;
//   header      count {item: <sdk>-header} with an Idempotency-Key HEADER (a fetch that adds it to tools/call
//               only) that reads the event stream in full, then resends the identical request: its answer
//               (HTTP 409 idempotency_response_not_replayable under the defaults) is what the SDK gets.
//
// Environment: SDK (v1 or v2), MCP_URL, MCP_TOKEN, COUNTS_URL (the counting server's GET /counts), all required.
// Exit code: 0 when every check held, 1 otherwise, 2 when the watchdog fired.
import { randomUUID } from 'node:crypto';

import { callToolOnce } from './meta-key-recipe.mjs';
import { startReport } from './report.mjs';

const env = process.env;
const KEY = 'io.github.mcpgateway/idempotency-key';
const out = { ok: false, sdk: env.SDK, steps: {}, failures: [] };
const { fail, check, finish } = startReport(out, 90000);

const sdk = env.SDK === 'v2'
  ? await import('@modelcontextprotocol/client')
  : {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
    };

// ---- The network below the SDK --------------------------------------------------------------------------------

/** Every keyed tools/call sent: { key, form, id, status, contentType, replayedHeader, replyIds, dataCode, lost }. */
const exchanges = [];
let loseNextKeyed = false;
/** The reads of replies still running: awaited before a step's exchanges are reported. */
const pending = [];

function keyedToolCall(init) {
  if ((init?.method ?? 'GET').toUpperCase() !== 'POST' || typeof init.body !== 'string') return null;
  try {
    const message = JSON.parse(init.body);
    if (message?.method !== 'tools/call') return null;
    const header = new Headers(init.headers).get('idempotency-key');
    const key = message.params?._meta?.[KEY] ?? header;
    return key ? { key, form: header ? 'header' : 'meta', id: message.id } : null;
  } catch {
    return null;
  }
}

/** The JSON-RPC messages of a reply body, JSON or an event stream. */
function messagesOf(contentType, text) {
  try {
    if (contentType.includes('text/event-stream')) {
      return text.split(/\r?\n/).filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice(5)));
    }
    return text ? [JSON.parse(text)] : [];
  } catch {
    return [];
  }
}

/** Sends a request and records its exchange once the reply has been read in full (from a clone). */
async function send(input, init, call, { lose = false } = {}) {
  const response = await fetch(input, init);
  const contentType = response.headers.get('content-type') ?? '';
  const exchange = { ...call, status: response.status, contentType,
    replayedHeader: response.headers.get('idempotency-replayed'), replyIds: [], dataCode: null, lost: lose };
  exchanges.push(exchange);
  const read = response.clone().text().then((text) => {
    const messages = messagesOf(contentType, text);
    exchange.replyIds = messages.map((m) => m.id ?? null);
    exchange.dataCode = messages.find((m) => m.error)?.error?.data?.code ?? null;
  });
  if (lose) {
    // The reply came in full, then the connection broke: the SDK never gets it.
    await read;
    await response.body?.cancel();
    throw new TypeError('fetch failed', { cause: new Error('simulated: connection lost after the reply') });
  }
  pending.push(read);
  return response;
}

/** The transport's fetch: records keyed tools/calls and loses the next one's reply when loseNextKeyed is set. */
async function observedFetch(input, init) {
  const call = keyedToolCall(init);
  if (!call) return fetch(input, init);
  const lose = loseNextKeyed;
  loseNextKeyed = false;
  return send(input, init, call, { lose });
}

/**
 * A header-keyed fetch, as the header recipe (idempotent-fetch.mjs) puts the header on tools/call only: it sends
 * the request, reads its event stream in full, then resends the IDENTICAL request (a retry under the default
 * request hash) while it is in flight, and hands the SDK the last answer.
 */
function headerRetryFetch(key) {
  return async (input, init) => {
    if (!isToolCall(init)) return fetch(input, init);
    const headers = new Headers(init.headers);
    headers.set('Idempotency-Key', key);
    const request = { ...init, headers };
    const call = keyedToolCall(request);
    const first = await send(input, request, call);
    await first.text();
    for (let attempt = 1; ; attempt++) {
      const retry = await send(input, request, call);
      if (retry.status !== 409 || retry.headers.get('retry-after') === null || attempt >= 5) return retry;
      // 409 idempotency_in_flight: the gateway had not recorded the stream's end yet.
      await retry.text();
      await new Promise((resolve) => setTimeout(resolve, 1000 * Number(retry.headers.get('retry-after'))));
    }
  };
}

function isToolCall(init) {
  try {
    return JSON.parse(init?.body ?? 'null')?.method === 'tools/call';
  } catch {
    return false;
  }
}

// ---- The application ------------------------------------------------------------------------------------------

async function connect(fetchImpl) {
  const client = new sdk.Client({ name: `meta-key-${env.SDK}`, version: '1.0.0' });
  client.onerror = (e) => console.error('client onerror:', e?.message ?? e);
  const transport = new sdk.StreamableHTTPClientTransport(new URL(env.MCP_URL),
    { requestInit: { headers: { Authorization: `Bearer ${env.MCP_TOKEN}` } }, fetch: fetchImpl });
  await client.connect(transport);
  return { client, transport };
}

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
const replayMark = (result) => result?._meta?.['io.github.mcpgateway/idempotency'] ?? null;

/** What the SDK handed the application: a result, or the error it threw with its code and data. */
async function outcome(fn, key) {
  const before = exchanges.length;
  const step = { key };
  try {
    const result = await fn();
    step.text = textOf(result);
    step.replayMark = replayMark(result);
  } catch (err) {
    step.error = {
      name: err?.name ?? typeof err,
      className: err?.constructor?.name ?? null,
      code: err?.code ?? null,
      data: err?.data ?? null,
      message: String(err?.message ?? err).slice(0, 300),
    };
    console.error(`error (key ${key}):`, step.error.message);
  }
  await Promise.all(pending.splice(0));
  step.exchanges = exchanges.slice(before).map(({ key: k, ...rest }) => ({ ...rest, sameKey: k === key }));
  return step;
}

async function countsOf(tool, item) {
  const runs = await (await fetch(env.COUNTS_URL)).json();
  return runs[tool]?.[item] ?? 0;
}

const item = (name) => `${env.SDK}-${name}`;
const steps = out.steps;

try {
  const { client, transport } = await connect(observedFetch);

  // a. The first reply is lost after the tool ran; the recipe calls again with the same key.
  const lostKey = randomUUID();
  loseNextKeyed = true;
  steps.lost = await outcome(() => callToolOnce(client, { name: 'count', arguments: { item: item('lost') } }, lostKey),
    lostKey);
  check(steps.lost.text === `item ${item('lost')} run 1` && steps.lost.replayMark?.replayed === true,
    `lost: ${JSON.stringify(steps.lost)}`);

  // b. The same key with other arguments.
  steps.conflict = await outcome(
    () => callToolOnce(client, { name: 'count', arguments: { item: item('other') } }, lostKey), lostKey);
  check(steps.conflict.error?.data?.code === 'idempotency_key_conflict', `conflict: ${JSON.stringify(steps.conflict)}`);

  // c. A second call with the key of a call in flight, without the recipe.
  const slowKey = randomUUID();
  const slowArgs = { name: 'slow', arguments: { item: item('slow') } };
  const first = outcome(() => client.callTool({ ...slowArgs, _meta: { [KEY]: slowKey } }), slowKey);
  for (let waited = 0; (await countsOf('slow', item('slow'))) === 0; waited += 20) {
    if (waited > 10000) throw new Error('the slow tool did not start within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  steps.inFlight = await outcome(() => client.callTool({ ...slowArgs, _meta: { [KEY]: slowKey } }), slowKey);
  steps.inFlightFirst = await first;
  steps.inFlightAgain = await outcome(() => callToolOnce(client, slowArgs, slowKey), slowKey);
  check(steps.inFlight.error?.data?.code === 'idempotency_in_flight', `inFlight: ${JSON.stringify(steps.inFlight)}`);

  // d. The upstream fails after the tool ran.
  const crashKey = randomUUID();
  steps.crash = await outcome(() => callToolOnce(client, { name: 'crash', arguments: { item: item('crash') } },
    crashKey), crashKey);
  check(steps.crash.error?.data?.code === 'idempotency_outcome_unknown', `crash: ${JSON.stringify(steps.crash)}`);

  // e. Over the quota on `limited`: unkeyed calls until one is refused, then a keyed one.
  steps.limited = [];
  for (let n = 1; n <= 3; n++) {
    const step = await outcome(() => client.callTool({ name: 'limited', arguments: { item: item(`limited-${n}`) } }));
    steps.limited.push(step);
    if (step.error) break;
  }
  const limitedKey = randomUUID();
  steps.limitedKeyed = await outcome(() => client.callTool(
    { name: 'limited', arguments: { item: item('limited-keyed') }, _meta: { [KEY]: limitedKey } }), limitedKey);
  check(steps.limited.at(-1).error?.data?.code === 'rate_limited' && steps.limitedKeyed.error?.data?.code === 'rate_limited',
    `limited: ${JSON.stringify(steps.limited)} ${JSON.stringify(steps.limitedKeyed)}`);

  await transport.terminateSession().catch(() => {});
  await client.close().catch(() => {});

  // f. The header form, unchanged: a retry of an event-stream reply is not replayable.
  const headerKey = randomUUID();
  const header = await connect(headerRetryFetch(headerKey));
  steps.header = await outcome(() => header.client.callTool({ name: 'count', arguments: { item: item('header') } }),
    headerKey);
  check(steps.header.exchanges.at(-1)?.dataCode === 'idempotency_response_not_replayable',
    `header: ${JSON.stringify(steps.header)}`);
  await header.transport.terminateSession().catch(() => {});
  await header.client.close().catch(() => {});
} catch (err) {
  fail(`unexpected: ${err?.stack ?? err}`);
}
finish();
