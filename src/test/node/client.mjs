// An MCP client built on the official TypeScript SDK, driven by TypeScriptSdkIT through the gateway
// (it also runs directly against server-everything). It walks the features a real client uses and
// prints ONE JSON line on stdout that the Java test asserts on; diagnostics go to stderr.
//
// Environment:
//   MCP_URL             the MCP endpoint (required)
//   MCP_TOKEN           sent as "Authorization: Bearer ..." on every request (optional)
//   DENIED_TOOL         a tool the caller may not call: it must be absent from tools/list, and calling
//                       it must fail (optional)
//   EXPECT_DENIED_CODE  the data.code the refusal must carry, e.g. tool_not_granted (optional)
//   PROGRESS_DURATION   seconds the long-running tool runs (default 3)
//   PROGRESS_STEPS      progress notifications it sends, evenly spaced (default 3)
//   CLIENT_TIMEOUT_MS   watchdog for the whole run (default 60000)
//
// Exit code: 0 all checks passed, 1 a check failed, 2 the watchdog fired. The JSON is printed in every
// case, so the test can show what happened.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startReport } from './report.mjs';

const env = process.env;
const url = env.MCP_URL;
const deniedTool = env.DENIED_TOOL || '';
const expectDeniedCode = env.EXPECT_DENIED_CODE || '';
const duration = Number(env.PROGRESS_DURATION ?? 3);
const steps = Number(env.PROGRESS_STEPS ?? 3);
const timeoutMs = Number(env.CLIENT_TIMEOUT_MS ?? 60000);

// The report. failures lists every check that did not hold; ok is true when there is none.
const out = {
  ok: false, url, sessionId: null, server: null, tools: [], calls: [], progress: null, resource: null,
  prompt: null, sampling: null, elicitation: null, denied: null, deleted: false, failures: [], timingsMs: {},
};

const { fail, check, finish } = startReport(out, timeoutMs);

// What the SDK threw, reduced to what a test can compare.
// - McpError (a JSON-RPC error in a 200 reply): err.code is the JSON-RPC code, err.data is error.data.
// - StreamableHTTPError (an HTTP 4xx/5xx, which is how the gateway refuses): err.code is the HTTP
//   status, and the response body is only embedded in err.message, so data.code is parsed out of it.
function describeError(err) {
  const d = {
    name: err?.constructor?.name ?? typeof err, message: String(err?.message ?? err),
    httpStatus: null, rpcCode: null, dataCode: null,
  };
  if (d.name === 'StreamableHTTPError') d.httpStatus = typeof err.code === 'number' ? err.code : null;
  else if (typeof err?.code === 'number') d.rpcCode = err.code;
  if (typeof err?.data?.code === 'string') d.dataCode = err.data.code;
  const bodyStart = d.message.indexOf('{');
  if (bodyStart >= 0) {
    try {
      const body = JSON.parse(d.message.slice(bodyStart));
      const error = body.error ?? body;
      d.dataCode ??= error?.data?.code ?? (typeof body.code === 'string' ? body.code : null);
      if (typeof error?.code === 'number') d.rpcCode ??= error.code;
    } catch {
      // the body was not JSON
    }
  }
  return d;
}

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

// Runs one named step, records its duration, and turns an exception into a failure.
async function step(name, fn) {
  const t0 = Date.now();
  try {
    return await fn();
  } catch (err) {
    fail(`${name}: ${JSON.stringify(describeError(err))}`);
    return undefined;
  } finally {
    out.timingsMs[name] = Date.now() - t0;
  }
}

// The client declares sampling and elicitation, so server-everything registers the tools that send
// those server-to-client requests. The handlers answer with canned content the tools echo back.
const client = new Client({ name: 'mcp-gateway-interop-client', version: '1.0.0' },
  { capabilities: { sampling: {}, elicitation: { form: {} } } });
let samplingRequests = 0;
let elicitationRequests = 0;
client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
  samplingRequests++;
  return {
    role: 'assistant', model: 'interop-fake-model', stopReason: 'endTurn',
    content: { type: 'text', text: `interop-sampled(${request.params.messages.length} msg)` },
  };
});
client.setRequestHandler(ElicitRequestSchema, async () => {
  elicitationRequests++;
  return { action: 'accept', content: { name: 'Interop Tester', check: true } };
});
client.onerror = (e) => console.error('client onerror:', e?.message ?? e);

// The TypeScript SDK has no per-request headers: requestInit headers go on every request.
const headers = env.MCP_TOKEN ? { Authorization: `Bearer ${env.MCP_TOKEN}` } : {};

async function run() {
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
  await step('connect', () => client.connect(transport));
  if (out.failures.length) return;
  out.sessionId = transport.sessionId ?? null;
  out.server = client.getServerVersion() ?? null;

  await step('tools/list', async () => {
    const { tools } = await client.listTools();
    out.tools = tools.map((t) => t.name);
    if (deniedTool) check(!out.tools.includes(deniedTool), `denied tool ${deniedTool} is listed`);
    for (const needed of ['echo', 'get-sum', 'get-structured-content', 'trigger-long-running-operation',
      'trigger-sampling-request', 'trigger-elicitation-request']) {
      check(out.tools.includes(needed), `tool ${needed} missing from tools/list`);
    }
  });

  // Three plain calls: text, text computed from arguments, structured content.
  const call = (name, args, verify) => step(`call ${name}`, async () => {
    const result = await client.callTool({ name, arguments: args });
    const record = { name, isError: !!result.isError, text: textOf(result).slice(0, 200),
      structured: result.structuredContent ?? null };
    out.calls.push(record);
    check(!result.isError && verify(result), `call ${name} unexpected result: ${JSON.stringify(record)}`);
  });
  await call('echo', { message: 'hello gateway' }, (r) => textOf(r).includes('hello gateway'));
  await call('get-sum', { a: 2, b: 40 }, (r) => textOf(r).includes('42'));
  await call('get-structured-content', { location: 'Chicago' },
    (r) => typeof r.structuredContent?.temperature === 'number');

  // Progress: the tool sends one notification every duration/steps seconds on the call's event
  // stream. The arrival times show whether they reach the client live or bunched at the end.
  await step('progress', async () => {
    const t0 = Date.now();
    const arrivals = [];
    const seen = [];
    const result = await client.callTool(
      { name: 'trigger-long-running-operation', arguments: { duration, steps } }, undefined,
      {
        onprogress: (p) => { arrivals.push(Date.now()); seen.push(`${p.progress}/${p.total}`); },
        resetTimeoutOnProgress: true,
      });
    out.progress = {
      durationSeconds: duration, steps, notifications: seen, timestamps: arrivals,
      firstAfterMs: arrivals.length ? arrivals[0] - t0 : null,
      gapsMs: arrivals.slice(1).map((t, i) => t - arrivals[i]),
      totalMs: Date.now() - t0, resultText: textOf(result),
    };
    check(!result.isError, 'long-running tool returned isError');
    check(seen.length === steps, `expected ${steps} progress notifications, got ${seen.length}`);
  });

  await step('resources/read', async () => {
    const { resources } = await client.listResources();
    const uri = 'demo://resource/dynamic/text/1';
    const content = (await client.readResource({ uri })).contents?.[0];
    out.resource = { listed: resources.length, uri: content?.uri, mimeType: content?.mimeType,
      text: content?.text?.slice(0, 100) };
    check(content?.uri === uri && typeof content?.text === 'string', `resources/read ${uri} returned no text`);
  });

  await step('prompts/get', async () => {
    const result = await client.getPrompt({ name: 'args-prompt', arguments: { city: 'Berlin', state: 'BE' } });
    const text = result.messages?.[0]?.content?.text;
    out.prompt = { name: 'args-prompt', text };
    check(typeof text === 'string' && text.includes('Berlin'), `prompts/get unexpected: ${JSON.stringify(result)}`);
  });

  // Server-to-client requests: the server asks the client mid-call, the client answers with a POST.
  await step('sampling', async () => {
    const result = await client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'ping', maxTokens: 16 } });
    out.sampling = { handlerCalls: samplingRequests, isError: !!result.isError,
      echoed: textOf(result).includes('interop-sampled') };
    check(samplingRequests === 1 && out.sampling.echoed && !result.isError, `sampling failed: ${JSON.stringify(out.sampling)}`);
  });
  await step('elicitation', async () => {
    const result = await client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    out.elicitation = { handlerCalls: elicitationRequests, isError: !!result.isError,
      echoed: textOf(result).includes('Interop Tester') };
    check(elicitationRequests === 1 && out.elicitation.echoed && !result.isError,
      `elicitation failed: ${JSON.stringify(out.elicitation)}`);
  });

  // A tool the caller may not call. The gateway refuses it (a JSON-RPC error, thrown by the SDK as McpError); a server
  // itself answers an unknown tool with a result whose isError is true.
  if (deniedTool) {
    await step('denied', async () => {
      try {
        const result = await client.callTool({ name: deniedTool, arguments: {} });
        out.denied = { tool: deniedTool, thrown: false, isError: !!result.isError, message: textOf(result).slice(0, 300),
          httpStatus: null, rpcCode: null, dataCode: null };
        check(result.isError, `denied tool ${deniedTool} succeeded`);
      } catch (err) {
        const d = describeError(err);
        out.denied = { tool: deniedTool, thrown: true, errorClass: d.name, message: d.message.slice(0, 500),
          httpStatus: d.httpStatus, rpcCode: d.rpcCode, dataCode: d.dataCode };
      }
      if (expectDeniedCode) {
        check(out.denied.dataCode === expectDeniedCode, `denied data.code ${out.denied.dataCode} != ${expectDeniedCode}`);
      }
    });
  }

  // DELETE ends the session; the SDK forgets the session id once the server accepted it.
  await step('delete', async () => {
    await transport.terminateSession();
    out.deleted = transport.sessionId === undefined;
  });
  check(out.deleted, 'session not terminated');
}

if (!url) {
  fail('MCP_URL not set');
} else {
  try {
    await run();
  } catch (err) {
    fail(`unexpected: ${JSON.stringify(describeError(err))}`);
  } finally {
    try { await client.close(); } catch (e) { console.error('close:', e?.message ?? e); }
  }
}
finish();
