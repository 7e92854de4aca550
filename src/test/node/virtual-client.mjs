// An application on the official TypeScript SDK, v1 (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client),
// against a virtual server of the gateway (one path serving the tools of several members under their prefixes):
// driven by VirtualServerSdkIT. It connects, lists the tools, calls one tool of each member, a tool the member's
// grants except, and a name whose prefix is no member's, and ends its session. Prints ONE JSON line on stdout
// (report.mjs); diagnostics go to stderr. The Java test decides what is right; this script checks nothing itself
// beyond "no step threw unexpectedly".
//
// Environment (all required):
//   SDK              v1 or v2
//   MCP_URL          the virtual server's URL
//   MCP_TOKEN        the caller's bearer token
//   CALLS            JSON: [{ "step": name, "tool": exposed name, "arguments": {...} }, ...], called in order;
//                    each step's outcome is reported under its name
//
// Report: { sdk, sessionId, protocolVersion, server, tools, steps: { <name>: outcome }, exchanges, deleted,
// failures }. An outcome is { text, isError, structured } for a result, or { error: { name, code, dataCode,
// dataStatus, message } } for what the SDK threw. exchanges lists every HTTP request the SDK made below the
// application ({ method, rpc, status, sentSession, answeredSession }), so a refusal of the transport itself (a GET
// stream, a DELETE) and the session ids on the wire show.
import { startReport } from './report.mjs';

const env = process.env;
const out = { ok: false, sdk: env.SDK, sessionId: null, protocolVersion: null, server: null, tools: [], steps: {},
  exchanges: [], deleted: null, failures: [] };
const { fail, finish } = startReport(out, 60000);

const sdk = env.SDK === 'v2'
  ? await import('@modelcontextprotocol/client')
  : {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
    };

/**
 * The SDK's fetch: records each exchange (method, the JSON-RPC method or "response", status, and the
 * Mcp-Session-Id the request carried and the one its response named, if any).
 */
async function observedFetch(input, init = {}) {
  let rpc = null;
  try {
    const message = JSON.parse(typeof init.body === 'string' ? init.body : 'null');
    rpc = message?.method ?? (message ? 'response' : null);
  } catch {
    rpc = 'unparsed';
  }
  const exchange = { method: (init.method ?? 'GET').toUpperCase(), rpc, status: null,
    sentSession: new Headers(init.headers).get('mcp-session-id'), answeredSession: null };
  out.exchanges.push(exchange);
  const response = await fetch(input, init);
  exchange.status = response.status;
  exchange.answeredSession = response.headers.get('mcp-session-id');
  return response;
}

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

/** What the SDK handed the application: a result, or the error it threw with its code and data. */
async function outcome(fn) {
  try {
    const result = await fn();
    return { text: textOf(result).slice(0, 300), isError: !!result.isError, structured: result.structuredContent ?? null };
  } catch (err) {
    const data = err?.data ?? null;
    const error = {
      name: err?.constructor?.name ?? typeof err,
      code: (typeof err?.code === 'number') ? err.code : null,
      dataCode: (typeof data?.code === 'string') ? data.code : null,
      dataStatus: (typeof data?.status === 'number') ? data.status : null,
      message: String(err?.message ?? err).slice(0, 300),
    };
    console.error('error:', error.message);
    return { error };
  }
}

try {
  const client = new sdk.Client({ name: `virtual-${env.SDK}`, version: '1.0.0' });
  client.onerror = (e) => console.error('client onerror:', e?.message ?? e);
  const transport = new sdk.StreamableHTTPClientTransport(new URL(env.MCP_URL),
    { requestInit: { headers: { Authorization: `Bearer ${env.MCP_TOKEN}` } }, fetch: observedFetch });
  await client.connect(transport);
  out.sessionId = transport.sessionId ?? null;
  out.protocolVersion = transport.protocolVersion ?? null;
  out.server = client.getServerVersion() ?? null;

  out.tools = (await client.listTools()).tools.map((t) => t.name);
  for (const call of JSON.parse(env.CALLS)) {
    out.steps[call.step] = await outcome(() => client.callTool({ name: call.tool, arguments: call.arguments }));
  }

  await transport.terminateSession().catch((err) => console.error('terminateSession:', err?.message ?? err));
  out.deleted = out.exchanges.find((e) => e.method === 'DELETE')?.status ?? null;
  await client.close();
} catch (err) {
  fail(`unexpected: ${err?.stack ?? err}`);
}
finish();
