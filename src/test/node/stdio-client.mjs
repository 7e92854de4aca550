// An application on the official TypeScript SDK, v1 (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client),
// against two stdio servers the gateway runs (ADR 0023), driven by StdioServersIT: the reference server-memory and
// server-filesystem, each started by the gateway as a child process per session. Prints ONE JSON line on stdout
// (report.mjs); diagnostics go to stderr. The Java test decides what is right; this script checks nothing itself
// beyond "no step threw unexpectedly".
//
// Environment (all required):
//   SDK          v1 or v2
//   MEMORY_URL   the gateway's path of server-memory
//   FILES_URL    the gateway's path of server-filesystem
//   SHARED_URL   the gateway's path of server-memory with one shared process
//   TOKEN_A      a bearer token of one human
//   TOKEN_B      a bearer token of another human
//   ROOT_A       a directory; the first human's client gives it as its only root
//   ROOT_B       another directory, the second human's root
//   RUN          a word that makes this run's entity names unique
//
// Report: { sdk, memory: { tools, steps }, files: { a: { tools, steps }, b: { steps } }, negotiated, failures }.
// negotiated (v2 only): for SHARED_URL and MEMORY_URL, a client with versionNegotiation 'auto':
// { protocolVersion, called, exchanges: ["<method>:<status>", ...] }. A step's outcome is
// { text, isError } for a result, or { error: { code, dataCode, message } } for what the SDK threw.
import { startReport } from './report.mjs';

const env = process.env;
const out = { ok: false, sdk: env.SDK, memory: { tools: [], steps: {} }, files: { a: { tools: [], steps: {} },
  b: { steps: {} } }, negotiated: [], failures: [] };
const { fail, finish } = startReport(out, 90000);

const v2 = env.SDK === 'v2';
const sdk = v2
  ? await import('@modelcontextprotocol/client')
  : {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      ...(await import('@modelcontextprotocol/sdk/types.js')),
    };
const KEY = 'io.github.mcpgateway/idempotency-key';

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

async function outcome(fn) {
  try {
    const result = await fn();
    return { text: textOf(result).slice(0, 2000), isError: !!result.isError };
  } catch (err) {
    const data = err?.data ?? null;
    console.error('error:', err?.message ?? err);
    return { error: { code: (typeof err?.code === 'number') ? err.code : null,
      dataCode: (typeof data?.code === 'string') ? data.code : null, message: String(err?.message ?? err).slice(0, 300) } };
  }
}

/** A connected client of `url` with `token`; with `root`, it declares roots and answers roots/list with that one. */
async function connect(url, token, root) {
  const client = new sdk.Client({ name: `stdio-${env.SDK}`, version: '1.0.0' },
    root ? { capabilities: { roots: { listChanged: true } } } : {});
  client.onerror = (e) => console.error('client onerror:', e?.message ?? e);
  if (root) {
    const roots = async () => ({ roots: [{ uri: `file://${root}`, name: 'work' }] });
    if (v2) {
      client.setRequestHandler('roots/list', roots);
    } else {
      client.setRequestHandler(sdk.ListRootsRequestSchema, roots);
    }
  }
  const transport = new sdk.StreamableHTTPClientTransport(new URL(url),
    { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  return { client, transport };
}

const call = (client, name, args, meta) => outcome(() => client.callTool(meta ? { name, arguments: args, _meta: meta }
  : { name, arguments: args }));

async function close({ client, transport }) {
  await transport.terminateSession().catch((err) => console.error('terminateSession:', err?.message ?? err));
  await client.close();
}

/** Polls list_allowed_directories until the server took the client's root (it asks for roots after initialized). */
async function rootTaken(client, root) {
  let last = null;
  for (const end = Date.now() + 10000; Date.now() < end;) {
    last = await call(client, 'list_allowed_directories', {});
    if (last.text?.includes(root)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return last;
}

try {
  const entity = (name) => ({ entities: [{ name: `${name}-${env.RUN}-${env.SDK}`, entityType: 'test', observations: ['o'] }] });
  const memory = await connect(env.MEMORY_URL, env.TOKEN_A);
  out.memory.tools = (await memory.client.listTools()).tools.map((t) => t.name);
  const steps = out.memory.steps;
  steps.created = await call(memory.client, 'create_entities', entity('plain'));
  steps.ungranted = await call(memory.client, 'delete_entities', { entityNames: [`plain-${env.RUN}-${env.SDK}`] });
  const key = `key-${env.RUN}-${env.SDK}`;
  steps.keyed = await call(memory.client, 'create_entities', entity('keyed'), { [KEY]: key });
  steps.keyedAgain = await call(memory.client, 'create_entities', entity('keyed'), { [KEY]: key });
  steps.unkeyedAgain = await call(memory.client, 'create_entities', entity('keyed'));
  steps.graph = await call(memory.client, 'search_nodes', { query: `${env.RUN}-${env.SDK}` });
  await close(memory);

  const a = await connect(env.FILES_URL, env.TOKEN_A, env.ROOT_A);
  out.files.a.tools = (await a.client.listTools()).tools.map((t) => t.name);
  out.files.a.steps.allowed = await rootTaken(a.client, env.ROOT_A);
  out.files.a.steps.written = await call(a.client, 'write_file', { path: `${env.ROOT_A}/from-a.txt`, content: 'a' });
  out.files.a.steps.listed = await call(a.client, 'list_directory', { path: env.ROOT_A });
  out.files.a.steps.ungranted = await call(a.client, 'move_file', { source: `${env.ROOT_A}/from-a.txt`,
    destination: `${env.ROOT_A}/moved.txt` });
  const b = await connect(env.FILES_URL, env.TOKEN_B, env.ROOT_B);
  out.files.b.steps.allowed = await rootTaken(b.client, env.ROOT_B);
  out.files.b.steps.listedOthers = await call(b.client, 'list_directory', { path: env.ROOT_A });
  out.files.b.steps.listedOwn = await call(b.client, 'list_directory', { path: env.ROOT_B });
  await close(a);
  await close(b);

  out.negotiated = [];
  for (const url of v2 ? [env.SHARED_URL, env.MEMORY_URL] : []) {
    const exchanges = [];
    const client = new sdk.Client({ name: 'stdio-auto', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
    const transport = new sdk.StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { Authorization: `Bearer ${env.TOKEN_A}` } },
      fetch: async (input, init = {}) => {
        const response = await fetch(input, init);
        let method = init.method ?? 'GET';
        try {
          method = JSON.parse(init.body).method ?? 'response';
        } catch {
          // GET, DELETE: no body
        }
        exchanges.push(`${method}:${response.status}`);
        return response;
      } });
    await client.connect(transport);
    const called = await call(client, 'search_nodes', { query: 'nothing' });
    out.negotiated.push({ protocolVersion: transport.protocolVersion ?? null, called: !called.error && !called.isError,
      exchanges: exchanges.map((e) => e.split(':')[0]) });
    await close({ client, transport });
  }
} catch (err) {
  fail(`unexpected: ${err?.stack ?? err}`);
}
finish();
