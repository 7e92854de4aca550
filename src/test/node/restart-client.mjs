// An MCP client built on the official TypeScript SDK, driven by TypeScriptRestartIT: it connects
// through the gateway, calls a tool, writes READY_FILE, and waits for GO_FILE while the test
// restarts the gateway; then it calls the tool again in the same session, as a client whose
// gateway replica was replaced by a rolling update. Prints ONE JSON line on stdout.
//
// Environment: MCP_URL, MCP_TOKEN (required); READY_FILE, GO_FILE (required);
// RECONNECT_EVERY_MS and RECONNECT_MAX_RETRIES: how the SDK reopens its GET stream (default: the
// SDK's own, 2 retries after 1 s and 1.5 s, which a lone gateway's restart outlasts);
// CLIENT_TIMEOUT_MS (default 60000).
// Exit code: 0 all checks passed, 1 a check failed, 2 the watchdog fired.
import { existsSync, writeFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const env = process.env;
const out = { ok: false, sessionId: null, sessionIdAfter: null, before: null, after: null, transportErrors: [],
  failures: [] };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const textOf = (result) => (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('');

function finish(code) {
  out.ok = out.failures.length === 0 && code === 0;
  console.log(JSON.stringify(out));
  process.exit(out.ok ? 0 : code || 1);
}
setTimeout(() => { out.failures.push('watchdog fired'); finish(2); }, Number(env.CLIENT_TIMEOUT_MS ?? 60000)).unref();

const reconnectionOptions = env.RECONNECT_MAX_RETRIES ? {
  initialReconnectionDelay: Number(env.RECONNECT_EVERY_MS ?? 1000),
  maxReconnectionDelay: Number(env.RECONNECT_EVERY_MS ?? 1000),
  reconnectionDelayGrowFactor: 1,
  maxRetries: Number(env.RECONNECT_MAX_RETRIES),
} : undefined;
const transport = new StreamableHTTPClientTransport(new URL(env.MCP_URL), {
  requestInit: { headers: { Authorization: `Bearer ${env.MCP_TOKEN}` } },
  reconnectionOptions,
});
transport.onerror = (error) => out.transportErrors.push(String(error?.message ?? error));
const client = new Client({ name: 'restart-client', version: '1.0.0' });
try {
  await client.connect(transport);
  out.sessionId = transport.sessionId ?? null;
  out.before = textOf(await client.callTool({ name: 'echo', arguments: { message: 'before the restart' } }));
  // Give the SDK time to open its GET stream, so the restart has one to end.
  await sleep(1000);
  writeFileSync(env.READY_FILE, 'ready');
  while (!existsSync(env.GO_FILE)) {
    await sleep(100);
  }
  out.after = textOf(await client.callTool({ name: 'echo', arguments: { message: 'after the restart' } }));
  out.sessionIdAfter = transport.sessionId ?? null;
  // The SDK reopens its GET stream 1 s after it ended; let it, so the test can see it.
  await sleep(2500);
  if (!out.after.includes('after the restart')) out.failures.push(`call after the restart: ${out.after}`);
  if (out.sessionIdAfter !== out.sessionId) out.failures.push('the session changed');
  await transport.terminateSession();
  await client.close();
} catch (error) {
  out.failures.push(`${error?.name}: ${error?.message ?? error}`);
}
finish(0);
