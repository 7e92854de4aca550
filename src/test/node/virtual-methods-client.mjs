// An application on the official TypeScript SDK, v1 (@modelcontextprotocol/sdk) or v2 (@modelcontextprotocol/client),
// using every MCP method a virtual server routes or merges, against a virtual server whose member under the prefix
// EVERY is server-everything: prompts (list, get, a completion), resources (list, templates, read, a template's
// read, a completion, subscribe and unsubscribe), logging/setLevel, ping, a sampling and an elicitation request of
// the member answered by this client, and (v1, whose SDK runs tasks) a task run to its result and listed. Driven by
// VirtualServerSdkIT. Prints ONE JSON line on stdout (report.mjs); the Java test decides what is right.
//
// Environment (all required):
//   SDK        v1 or v2
//   MCP_URL    the virtual server's URL
//   MCP_TOKEN  the caller's bearer token
//   EVERY      server-everything's prefix on the virtual server
//   OTHER      the prefix of the other member, the 2026-07-28 server (v2-server.mjs)
//
// Report: { sdk, capabilities, steps: { <name>: outcome }, sampled, elicited, notified, failures }. An outcome is the value
// the step returned (reduced to what the test compares), or { error: { code, dataCode, message } }. sampled and
// elicited are the requests this client's handlers received (their JSON-RPC method and, for sampling, the text);
// notified the resource notifications it received on its stream (method, and an update's URI).
import { startReport } from './report.mjs';

const env = process.env;
const every = env.EVERY;
const out = { ok: false, sdk: env.SDK, capabilities: null, steps: {}, sampled: [], elicited: [], notified: [],
  failures: [] };
const { fail, finish } = startReport(out, 90000);

const v2 = env.SDK === 'v2';
const sdk = v2
  ? await import('@modelcontextprotocol/client')
  : {
      ...(await import('@modelcontextprotocol/sdk/client/index.js')),
      ...(await import('@modelcontextprotocol/sdk/client/streamableHttp.js')),
      ...(await import('@modelcontextprotocol/sdk/types.js')),
    };

async function step(name, fn) {
  try {
    out.steps[name] = (await fn()) ?? {};
  } catch (err) {
    const data = err?.data ?? null;
    out.steps[name] = { error: { code: (typeof err?.code === 'number') ? err.code : null,
      dataCode: (typeof data?.code === 'string') ? data.code : null, message: String(err?.message ?? err).slice(0, 300) } };
    console.error(`${name}:`, err?.message ?? err);
  }
}

const textOf = (result) => (result?.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

function onRequest(method, schema, handler) {
  if (v2) {
    client.setRequestHandler(method, handler);
  } else {
    client.setRequestHandler(schema, handler);
  }
}

function onNotification(method, schema, handler) {
  if (v2) {
    client.setNotificationHandler(method, handler);
  } else {
    client.setNotificationHandler(schema, handler);
  }
}

const until = async (condition, ms) => {
  for (const end = Date.now() + ms; Date.now() < end && !condition();) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
};

const client = new sdk.Client({ name: `virtual-methods-${env.SDK}`, version: '1.0.0' },
  { capabilities: { sampling: {}, elicitation: { form: {} } } });
client.onerror = (e) => console.error('client onerror:', e?.message ?? e);
onRequest('sampling/createMessage', sdk.CreateMessageRequestSchema, async (request) => {
  out.sampled.push({ method: request.method, text: request.params?.messages?.[0]?.content?.text ?? null });
  return { model: 'virtual-test-model', role: 'assistant', content: { type: 'text', text: 'sampled by the client' } };
});
onRequest('elicitation/create', sdk.ElicitRequestSchema, async (request) => {
  out.elicited.push({ method: request.method, message: request.params?.message ?? null });
  return { action: 'accept', content: { name: 'Vera' } };
});

onNotification('notifications/resources/updated', sdk.ResourceUpdatedNotificationSchema, async (notification) => {
  out.notified.push({ method: notification.method, uri: notification.params?.uri ?? null });
});
onNotification('notifications/resources/list_changed', sdk.ResourceListChangedNotificationSchema, async (notification) => {
  out.notified.push({ method: notification.method });
});

try {
  const transport = new sdk.StreamableHTTPClientTransport(new URL(env.MCP_URL),
    { requestInit: { headers: { Authorization: `Bearer ${env.MCP_TOKEN}` } } });
  await client.connect(transport);
  out.capabilities = client.getServerCapabilities() ?? null;

  await step('ping', async () => { await client.ping(); return { pong: true }; });
  await step('listPrompts', async () => ({ names: (await client.listPrompts()).prompts.map((p) => p.name) }));
  await step('getPrompt', async () => {
    const result = await client.getPrompt({ name: `${every}_args-prompt`, arguments: { city: 'Lisbon' } });
    return { text: result.messages.map((m) => m.content?.text ?? '').join('\n') };
  });
  await step('getOtherPrompt', async () => ({ messages: (await client.getPrompt({ name: `${env.OTHER}_test_simple_prompt` }))
    .messages.length }));
  await step('completePrompt', async () => ({ values: (await client.complete({
    ref: { type: 'ref/prompt', name: `${every}_completable-prompt` },
    argument: { name: 'department', value: 'E' } })).completion.values }));
  await step('unknownPrompt', async () => client.getPrompt({ name: 'other_args-prompt', arguments: { city: 'x' } }));

  const resources = (await client.listResources()).resources.map((r) => r.uri);
  out.steps.listResources = { uris: resources };
  await step('listTemplates', async () => ({ templates: (await client.listResourceTemplates()).resourceTemplates
    .map((t) => t.uriTemplate) }));
  const listed = resources.find((uri) => uri.startsWith('demo://resource/static/document/'));
  await step('readListed', async () => {
    const result = await client.readResource({ uri: listed });
    return { uri: result.contents[0]?.uri, length: (result.contents[0]?.text ?? '').length };
  });
  await step('readFromTemplate', async () => {
    const result = await client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    return { uri: result.contents[0]?.uri, text: result.contents[0]?.text ?? null };
  });
  // The other member's: routed by the URI it wrote (test:// is the 2026-07-28 server's).
  await step('readOther', async () => ({ uri: (await client.readResource({ uri: 'test://static-text' })).contents[0]?.uri }));
  await step('readOtherTemplate', async () => ({ uri: (await client.readResource({ uri: 'test://template/5/data' }))
    .contents[0]?.uri }));
  await step('readUnknown', async () => client.readResource({ uri: 'nowhere://nothing' }));
  await step('completeResource', async () => ({ values: (await client.complete({
    ref: { type: 'ref/resource', uri: 'demo://resource/dynamic/text/{resourceId}' },
    argument: { name: 'resourceId', value: '1' } })).completion.values }));
  // A subscription's updates and a list change reach this client on its stream (the virtual server's GET, the
  // members' streams merged): server-everything sends an update at once when updates are turned on, and a list
  // change when a tool adds a resource to the session.
  await step('subscribe', async () => { await client.subscribeResource({ uri: listed }); return { subscribed: true }; });
  await step('updates', async () => {
    await client.callTool({ name: `${every}_toggle-subscriber-updates`, arguments: {} });
    const updated = await until(() => out.notified.some((n) => n.method === 'notifications/resources/updated'), 12000);
    await client.callTool({ name: `${every}_toggle-subscriber-updates`, arguments: {} });
    return { updated };
  });
  await step('listChanged', async () => {
    await client.callTool({ name: `${every}_gzip-file-as-resource`,
      arguments: { name: 'virtual.txt.gz', data: 'data:text/plain;base64,aGVsbG8gdmlydHVhbA==' } });
    return { changed: await until(() => out.notified.some((n) => n.method === 'notifications/resources/list_changed'), 12000) };
  });
  await step('unsubscribe', async () => { await client.unsubscribeResource({ uri: listed }); return { unsubscribed: true }; });
  await step('setLevel', async () => { await client.setLoggingLevel('info'); return { set: true }; });

  await step('sampling', async () => ({ text: textOf(await client.callTool({ name: `${every}_trigger-sampling-request`,
    arguments: { prompt: 'say hello', maxTokens: 20 } })) }));
  await step('elicitation', async () => ({ text: textOf(await client.callTool({
    name: `${every}_trigger-elicitation-request`, arguments: {} })) }));

  // Progress of a member's call reaches the client by the client's own progress token.
  await step('progress', async () => {
    const seen = [];
    const params = { name: `${every}_trigger-long-running-operation`, arguments: { duration: 1, steps: 3 } };
    const options = { onprogress: (progress) => seen.push(progress.progress) };
    // v1: callTool(params, resultSchema, options); v2: callTool(params, options).
    const result = v2 ? await client.callTool(params, options) : await client.callTool(params, undefined, options);
    return { updates: seen.length, text: textOf(result).slice(0, 100) };
  });

  if (!v2) {
    await step('task', async () => {
      const stream = client.experimental.tasks.callToolStream(
        { name: `${every}_simulate-research-query`, arguments: { topic: 'virtual servers' } }, sdk.CallToolResultSchema,
        { task: { ttl: 60000 } });
      const seen = { taskId: null, statuses: [], text: null };
      for await (const message of stream) {
        if (message.type === 'taskCreated') seen.taskId = message.task.taskId;
        if (message.type === 'taskStatus') seen.statuses.push(message.task.status);
        if (message.type === 'result') seen.text = textOf(message.result).slice(0, 200);
        if (message.type === 'error') throw message.error;
      }
      const again = await client.experimental.tasks.getTask(seen.taskId);
      seen.gotStatus = again.status;
      seen.listed = (await client.experimental.tasks.listTasks()).tasks.map((t) => t.taskId);
      return seen;
    });
  }

  await transport.terminateSession().catch((err) => console.error('terminateSession:', err?.message ?? err));
  await client.close();
} catch (err) {
  fail(`unexpected: ${err?.stack ?? err}`);
}
finish();
