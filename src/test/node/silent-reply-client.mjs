// What an application sees, through the TypeScript SDK v2 client (@modelcontextprotocol/client) speaking
// MCP 2026-07-28, of a tool call whose upstream stays silent past the gateway's silent-reply-stream-after and
// then answers (ADR 0024): driven by SilentReplySdkIT. Prints ONE JSON line on stdout; diagnostics on stderr.
//
// Environment:
//   MCP_URL    the gateway's path in front of the test's 2026-07-28 upstream, tool "silent" granted (required)
//   MCP_TOKEN  the caller's bearer token (required)
//
// Report: { protocolVersion, calls: { <name>: { contentType, status, outcome } } }, where outcome is
// { result: <first text> } or { thrown, name, rpcCode, dataCode, upstreamStatus, httpStatus, message }.
import { startReport } from './report.mjs';

const env = process.env;
const out = { ok: false, protocolVersion: null, calls: {}, failures: [] };
const { fail, finish } = startReport(out, 90000);

const sdk = await import('@modelcontextprotocol/client');

function describe(err) {
  const data = err?.data ?? null;
  const name = err?.constructor?.name ?? typeof err;
  return {
    thrown: true,
    name,
    rpcCode: (typeof err?.code === 'number' && name !== 'SdkHttpError') ? err.code : null,
    dataCode: (typeof data?.code === 'string') ? data.code : null,
    upstreamStatus: data?.upstreamStatus ?? null,
    httpStatus: (err?.constructor?.name === 'SdkHttpError') ? (err.status ?? err.code ?? null) : null,
    message: String(err?.message ?? err).slice(0, 300),
  };
}

const CALLS = {
  answered: { ms: 2500 },
  jsonRpcErrorWith400: { ms: 2500, status: 400, body: 'json-rpc' },
  textWith500: { ms: 2500, status: 500, body: 'text' },
  dropped: { ms: 2500, body: 'drop' },
  fastAnswered: { ms: 50 },
  fastTextWith500: { ms: 50, status: 500, body: 'text' },
};

try {
  let current = null;
  const client = new sdk.Client({ name: 'silent-reply', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  const transport = new sdk.StreamableHTTPClientTransport(new URL(env.MCP_URL), {
    requestInit: { headers: { Authorization: `Bearer ${env.MCP_TOKEN}` } },
    fetch: async (input, init = {}) => {
      const response = await fetch(input, init);
      if (current !== null && typeof init.body === 'string' && init.body.includes('"tools/call"')) {
        out.calls[current].contentType = response.headers.get('content-type');
        out.calls[current].status = response.status;
      }
      return response;
    } });
  await client.connect(transport);
  out.protocolVersion = transport.protocolVersion ?? null;
  for (const [name, args] of Object.entries(CALLS)) {
    current = name;
    out.calls[name] = { contentType: null, status: null, outcome: null };
    try {
      const result = await client.callTool({ name: 'silent', arguments: args }, { timeout: 20000 });
      out.calls[name].outcome = { result: result.content?.[0]?.text ?? null, isError: result.isError ?? false };
    } catch (err) {
      out.calls[name].outcome = describe(err);
    }
  }
  current = null;
  await client.close();
} catch (err) {
  fail(`unexpected: ${err?.stack ?? err}`);
}
finish();
