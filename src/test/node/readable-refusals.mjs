// Client recipe: the gateway's refusals as protocol errors, whatever gateway.request.refusal-status and
// gateway.idempotency.refusal-status say (docs/errors.md, "HTTP status"; docs/adr/0014).
//
//   const transport = new StreamableHTTPClientTransport(url, { fetch: readableRefusals(), requestInit });
//
// The gateway answers every refusal of a JSON-RPC request with a JSON-RPC error body whose error.data.code names
// it; with an HTTP error status (403, 409, 429, ...) the TypeScript SDK raises a transport error that hides the
// body (v1 StreamableHTTPError, v2 SdkHttpError). This fetch hands such an answer to the SDK as the JSON-RPC
// response it is (HTTP 200, error.data.status added), so the SDK raises its protocol error (v1 McpError, v2
// ProtocolError) with .code and .data. 401 (the SDK's authorization flow) and 404 (a session to start again) are
// left as they are: the transport acts on them.
export function readableRefusals(base = globalThis.fetch) {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.ok || response.status === 401 || response.status === 404
        || !(response.headers.get('content-type') ?? '').startsWith('application/json')) {
      return response;
    }
    let body;
    try {
      body = JSON.parse(await response.clone().text());
    } catch {
      return response;
    }
    if (typeof body?.error?.data?.code !== 'string' || body.id === null || body.id === undefined) return response;
    body.error.data.status ??= response.status;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}
