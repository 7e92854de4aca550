// A stateless MCP server on the official TypeScript SDK that answers every POST with application/json
// (enableJsonResponse), unlike server-everything's event streams: the kind of upstream whose replies the gateway
// replays under its default settings. One tool, get-sum, as in server-everything. Each tool run is logged on
// stdout as "ran get-sum <a> <b>".
//
// Environment: PORT (required). Ready line on stderr: "JSON MCP server listening on port <PORT>".
import { createServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const port = Number(process.env.PORT);

function mcpServer() {
  const server = new Server({ name: 'json-sum', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{
      name: 'get-sum', description: 'Returns the sum of two numbers',
      inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { a, b } = request.params.arguments ?? {};
    if (request.params.name !== 'get-sum' || typeof a !== 'number' || typeof b !== 'number') {
      return { isError: true, content: [{ type: 'text', text: 'get-sum takes two numbers a and b' }] };
    }
    console.log(`ran get-sum ${a} ${b}`);
    return { content: [{ type: 'text', text: `The sum of ${a} and ${b} is ${a + b}.` }] };
  });
  return server;
}

// Stateless: a new server and transport for every request, as the SDK's stateless examples do.
createServer(async (req, res) => {
  if (new URL(req.url, 'http://localhost').pathname !== '/mcp') {
    res.writeHead(404).end();
    return;
  }
  const server = mcpServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on('close', () => {
    transport.close();
    server.close();
  });
  try {
    await server.connect(transport);
    await transport.handleRequest(req, res);
  } catch (err) {
    console.error('request failed:', err);
    if (!res.headersSent) res.writeHead(500).end();
  }
}).listen(port, '127.0.0.1', () => console.error(`JSON MCP server listening on port ${port}`));
