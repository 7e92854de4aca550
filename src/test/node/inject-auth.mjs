// Preload for tools that cannot send headers, used as: MCP_TOKEN=... node --import ./inject-auth.mjs <tool>
// It adds "Authorization: Bearer $MCP_TOKEN" to every global fetch() call that has no Authorization
// header yet. The conformance CLI (0.1.10) has no header option; its SDK client transport and its
// raw-fetch scenarios both use globalThis.fetch, so this covers every server scenario, e.g. to run them
// against an oauth server of the gateway. Without MCP_TOKEN it changes nothing.
const token = process.env.MCP_TOKEN;
if (token) {
  const original = globalThis.fetch;
  globalThis.fetch = (input, init = {}) => {
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined));
    if (!headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return original(input, { ...init, headers });
  };
}
