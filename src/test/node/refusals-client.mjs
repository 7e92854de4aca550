// What an application sees of the gateway's refusals through the official TypeScript SDK, v1
// (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client): driven by SdkRefusalsIT. Prints ONE JSON
// line on stdout; diagnostics go to stderr.
//
// Environment:
//   SDK            v1 or v2 (required)
//   MCP_URL        a server the caller may use, where DENIED_TOOL is not granted (required)
//   UNGRANTED_URL  a server no grant of the caller applies to (required)
//   MCP_TOKEN      the caller's bearer token (required)
//   DENIED_TOOL    a tool the caller may not call (required)
//   KEYED_TOOL     a granted tool, called twice with one Idempotency-Key and other arguments (required)
//   RECIPE         when "readable-refusals", the transport's fetch is the recipe readable-refusals.mjs (for a
//                  gateway that answers refusals with their HTTP statuses)
//
// Each refusal is recorded as { thrown, name, rpcCode, dataCode, httpStatus }: rpcCode and dataCode are what the
// SDK itself hands the application (a protocol error's code and data), never parsed out of a message text.
import { randomUUID } from 'node:crypto';

import { readableRefusals } from './readable-refusals.mjs';
import { startReport } from './report.mjs';

const env = process.env;
const out = { ok: false, sdk: env.SDK, denied: null, ungranted: null, conflict: null, failures: [] };
const { fail, finish } = startReport(out, 60000);

const sdk = env.SDK === 'v2'
  ? await import('@modelcontextprotocol/client')
  : {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
    };

// A protocol error carries the JSON-RPC code and data; a transport error carries an HTTP status.
function describe(err) {
  const data = err?.data ?? null;
  return {
    thrown: true,
    name: err?.constructor?.name ?? typeof err,
    rpcCode: (typeof err?.code === 'number' && data !== null) ? err.code : null,
    dataCode: (typeof data?.code === 'string') ? data.code : null,
    dataStatus: (typeof data?.status === 'number') ? data.status : null,
    httpStatus: (err?.constructor?.name === 'StreamableHTTPError' || err?.constructor?.name === 'SdkHttpError')
      ? (err.status ?? err.code ?? null) : null,
    message: String(err?.message ?? err).slice(0, 300),
  };
}

async function connect(url, fetch = globalThis.fetch) {
  const client = new sdk.Client({ name: `refusals-${env.SDK}`, version: '1.0.0' });
  const wrapped = (env.RECIPE === 'readable-refusals') ? readableRefusals(fetch) : fetch;
  const transport = new sdk.StreamableHTTPClientTransport(new URL(url),
    { requestInit: { headers: { Authorization: `Bearer ${env.MCP_TOKEN}` } }, fetch: wrapped });
  await client.connect(transport);
  return client;
}

async function refusal(fn) {
  try {
    await fn();
    return { thrown: false };
  } catch (err) {
    return describe(err);
  }
}

// One key for every tools/call of KEYED_TOOL: the second call, with other arguments, conflicts.
const key = randomUUID();
const keyedFetch = async (input, init = {}) => {
  if (typeof init.body === 'string' && init.body.includes('"tools/call"') && init.body.includes(env.KEYED_TOOL)) {
    const headers = new Headers(init.headers);
    headers.set('Idempotency-Key', key);
    return fetch(input, { ...init, headers });
  }
  return fetch(input, init);
};

try {
  const client = await connect(env.MCP_URL, keyedFetch);
  out.denied = await refusal(() => client.callTool({ name: env.DENIED_TOOL, arguments: {} }));
  await client.callTool({ name: env.KEYED_TOOL, arguments: { message: 'first' } });
  out.conflict = await refusal(() => client.callTool({ name: env.KEYED_TOOL, arguments: { message: 'other' } }));
  await client.close();
  out.ungranted = await refusal(() => connect(env.UNGRANTED_URL));
} catch (err) {
  fail('unexpected: ' + (err?.stack ?? err));
}
finish();
