// An MCP server on the official TypeScript SDK v1 that answers tools/call with EVENT STREAMS (the
// StreamableHTTPServerTransport's default, stateful sessions, as server-everything) and counts every tool run, so
// that a test can assert how often a tool executed behind the gateway.
//
// Tools (each takes { item: string } and counts one run of <tool, item> before anything else):
//   count    answers "item <item> run <n>", n the runs of <count, item> so far;
//   slow     answers the same after about 2 s (for calls in flight);
//   crash    the HTTP response is a 500 (no JSON-RPC answer) after the run was counted: an upstream that failed
//            after the tool ran;
//   limited  answers as count; the gateway's policy puts a quota on it.
// GET /counts answers JSON { "<tool>": { "<item>": runs } } of the runs so far.
//
// Environment: PORT (required). Ready line on stderr: "Counting MCP server listening on port <PORT>".
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.env.PORT);
const TOOLS = ['count', 'slow', 'crash', 'limited'];
const SLOW_MS = 2000;

/** runs[tool][item]: how often the tool ran for the item. */
const runs = Object.fromEntries(TOOLS.map((tool) => [tool, {}]));

function countRun(tool, item) {
  runs[tool][item] = (runs[tool][item] ?? 0) + 1;
  console.log(`ran ${tool} ${item} (run ${runs[tool][item]})`);
  return runs[tool][item];
}

function mcpServer() {
  const server = new Server({ name: 'counting', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((name) => ({
      name, description: `Counts a run of ${name} for an item`,
      inputSchema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'] },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name } = request.params;
    const item = request.params.arguments?.item;
    if (!TOOLS.includes(name) || name === 'crash' || typeof item !== 'string') {
      return { isError: true, content: [{ type: 'text', text: `unknown tool ${name} or no string item` }] };
    }
    const run = countRun(name, item);
    if (name === 'slow') await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
    return { content: [{ type: 'text', text: `item ${item} run ${run}` }] };
  });
  return server;
}

/** The transports of the open sessions, by Mcp-Session-Id. */
const sessions = new Map();

async function readJson(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

createServer(async (req, res) => {
  const path = new URL(req.url, 'http://localhost').pathname;
  if (path === '/counts' && req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(runs));
    return;
  }
  if (path !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    // The crash tool: the run is counted, then the upstream fails with a 500 instead of answering.
    if (body?.method === 'tools/call' && body.params?.name === 'crash') {
      countRun('crash', String(body.params.arguments?.item));
      res.writeHead(500, { 'content-type': 'text/plain' }).end('crashed after the run');
      return;
    }
    const sessionId = req.headers['mcp-session-id'];
    let transport = sessionId ? sessions.get(sessionId) : undefined;
    if (!transport) {
      if (sessionId || !isInitializeRequest(body)) {
        res.writeHead(sessionId ? 404 : 400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'no such session' } }));
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => sessions.set(id, transport),
      });
      transport.onclose = () => sessions.delete(transport.sessionId);
      await mcpServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (err) {
    console.error('request failed:', err);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(port, '127.0.0.1', () => console.error(`Counting MCP server listening on port ${port}`));
