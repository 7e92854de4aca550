// The official TypeScript SDK's task client (client.experimental.tasks, MCP 2025-11-25) against
// server-everything's simulate-research-query, driven by TypeScriptTasksIT through the gateway (it also
// runs directly). Prints ONE JSON line on stdout that the Java test asserts on; diagnostics go to stderr.
//
// Environment:
//   MCP_URL          the MCP endpoint (required)
//   MCP_TOKEN        the owner's bearer token (optional)
//   OTHER_TOKEN      another principal's token: its client must not reach the owner's tasks (optional)
//   CLIENT_TIMEOUT_MS watchdog for the whole run (default 90000)
//
// Exit code: 0 all checks passed, 1 a check failed, 2 the watchdog fired.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startReport } from './report.mjs';

const env = process.env;
const url = env.MCP_URL;
const timeoutMs = Number(env.CLIENT_TIMEOUT_MS ?? 90000);

const out = { ok: false, url, runs: {}, listed: [], other: null, failures: [] };

const { fail, finish } = startReport(out, timeoutMs);

// An SDK error reduced to what a test compares: the JSON-RPC code of an McpError, or the HTTP status of a
// transport error, and the gateway's data.code wherever it is (error.data, or the body in the message).
function describeError(err) {
  const d = { name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err), code: null, dataCode: null };
  if (typeof err?.code === 'number') d.code = err.code;
  if (typeof err?.data?.code === 'string') d.dataCode = err.data.code;
  const bodyStart = d.message.indexOf('{');
  if (bodyStart >= 0) {
    try {
      const body = JSON.parse(d.message.slice(bodyStart));
      d.dataCode ??= body?.error?.data?.code ?? null;
    } catch {
      // not JSON
    }
  }
  return d;
}

function connectClient(token, elicitations) {
  const client = new Client({ name: 'mcp-gateway-tasks-client', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    elicitations.push({ message: request.params.message, relatedTask: request.params._meta?.['io.modelcontextprotocol/related-task']?.taskId ?? null });
    return { action: 'accept', content: { interpretation: 'snake' } };
  });
  client.onerror = (e) => console.error('client onerror:', e?.message ?? e);
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  return client.connect(transport).then(() => client);
}

// One task run: created, polled, and its result, with the statuses the client saw.
async function runTask(client, name, args) {
  const run = { taskId: null, statuses: [], result: null, error: null, ms: 0 };
  const t0 = Date.now();
  try {
    const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema,
      { task: { ttl: 60000 } });
    for await (const message of stream) {
      if (message.type === 'taskCreated') run.taskId = message.task.taskId;
      else if (message.type === 'taskStatus') run.statuses.push(message.task.status);
      else if (message.type === 'result') run.result = (message.result.content ?? []).map((c) => c.text ?? '').join('\n');
      else if (message.type === 'error') run.error = describeError(message.error);
    }
  } catch (err) {
    run.error = describeError(err);
  }
  run.ms = Date.now() - t0;
  return run;
}

async function main() {
  const elicitations = [];
  const client = await connectClient(env.MCP_TOKEN, elicitations);
  const { tools } = await client.listTools();
  if (!tools.some((t) => t.name === 'simulate-research-query')) fail('simulate-research-query is not listed');

  out.runs.plain = await runTask(client, 'simulate-research-query', { topic: 'python' });
  out.runs.ambiguous = await runTask(client, 'simulate-research-query', { topic: 'python', ambiguous: true });
  out.runs.ambiguous.elicitations = elicitations;
  for (const [kind, run] of Object.entries(out.runs)) {
    if (!run.taskId) fail(`${kind}: no task created`);
    if (run.error) fail(`${kind}: ${JSON.stringify(run.error)}`);
    if (!run.result) fail(`${kind}: no final result`);
  }
  if (elicitations.length !== 1) fail(`ambiguous: ${elicitations.length} elicitations reached the client, expected 1`);

  try {
    const listed = await client.experimental.tasks.listTasks();
    out.listed = listed.tasks.map((t) => t.taskId);
  } catch (err) {
    fail('tasks/list: ' + JSON.stringify(describeError(err)));
  }

  if (env.OTHER_TOKEN) {
    const other = await connectClient(env.OTHER_TOKEN, []);
    out.other = { get: null, result: null, cancel: null, listed: null };
    const taskId = out.runs.plain.taskId;
    for (const [name, call] of [['get', () => other.experimental.tasks.getTask(taskId)],
      ['result', () => other.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)],
      ['cancel', () => other.experimental.tasks.cancelTask(taskId)]]) {
      try {
        await call();
        out.other[name] = { thrown: false };
        fail(`another principal's tasks/${name} of the owner's task succeeded`);
      } catch (err) {
        out.other[name] = { thrown: true, ...describeError(err) };
      }
    }
    const listed = await other.experimental.tasks.listTasks();
    out.other.listed = listed.tasks.map((t) => t.taskId);
    await other.close();
  }
  await client.close();
}

main().catch((err) => fail('unexpected: ' + (err?.stack ?? err))).finally(finish);
