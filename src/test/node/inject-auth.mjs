// Preload for tools that cannot send headers, used as: MCP_TOKEN=... node --import ./inject-auth.mjs <tool>
// It adds "Authorization: Bearer $MCP_TOKEN" to every global fetch() call that has no Authorization
// header yet. The conformance CLI (0.2.0-alpha.12) has no header option; its SDK client transport and
// its raw-fetch scenarios both use globalThis.fetch, so this covers the server scenarios (ConformanceParityIT
// runs them against an oauth server of the gateway and a virtual server) but one: dns-rebinding-protection
// sends its requests with undici's request() (fetch may not set Host), so they carry no token and get 401.
// Without MCP_TOKEN it changes nothing.
const token = process.env.MCP_TOKEN;
if (token) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return original(input, { ...init, headers });
  };
}
