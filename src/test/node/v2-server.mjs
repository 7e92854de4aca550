#!/usr/bin/env node
/**
 * Stateless MCP "everything" server for protocol revision 2026-07-28,
 * built on the official TypeScript SDK v2.
 *
 *   Dependencies (pinned exactly):
 *     @modelcontextprotocol/server@2.4.0  (pulls @modelcontextprotocol/core@2.4.0, zod@^4)
 *     @modelcontextprotocol/node@2.1.2    (toNodeHandler + Host/Origin guards for node:http)
 *
 *   Run:   PORT=3000 node server.mjs        (Node >= 20; Node 20 works)
 *   URL:   http://127.0.0.1:$PORT/mcp
 *   Ready: prints "v2 MCP server listening on port N" on stderr.
 *
 * How the serving works
 * ---------------------
 * `createMcpHandler(factory)` is the SDK v2 serving entry: a web-standard
 * `{ fetch }` handler that builds a FRESH McpServer from `factory` for every
 * HTTP request. 2026-07-28 traffic (requests that carry the per-request
 * `_meta` envelope `io.modelcontextprotocol/protocolVersion` etc.) is served
 * statelessly; the SDK itself implements `server/discover`, the
 * header/_meta validation ladder (-32602 / -32020 / -32022, Mcp-Method /
 * Mcp-Name / Mcp-Param-* checks), 404/-32601 for removed methods,
 * SEP-2549 cache hints, `subscriptions/listen`, and MRTR
 * (`input_required` results). 2025-era traffic (initialize handshake, no
 * envelope) falls back to the SDK's stateless legacy leg (no sessions,
 * GET/DELETE answer 405).
 *
 * `toNodeHandler()` from @modelcontextprotocol/node adapts that fetch handler
 * to node:http. The entry performs no Host/Origin validation itself, so the
 * localhost DNS-rebinding guards from the same package run first.
 *
 * Fixtures: tool/resource/prompt names are the ones the conformance suite
 * (@modelcontextprotocol/conformance 0.2.0-alpha.12) hard-codes, mirroring
 * its reference "everything-server" and the SDK repo's own
 * test/conformance/src/everythingServer.ts. Schemas are written as plain
 * JSON Schema via `fromJsonSchema` so this file needs no zod import.
 */

import { createServer } from 'node:http';
import { randomUUID, getRandomValues } from 'node:crypto';

import {
    acceptedContent,
    CLIENT_CAPABILITIES_META_KEY,
    createMcpHandler,
    createRequestStateCodec,
    fromJsonSchema,
    inputRequired,
    McpServer,
    ResourceTemplate
} from '@modelcontextprotocol/server';
import { localhostHostValidation, localhostOriginValidation, toNodeHandler } from '@modelcontextprotocol/node';

const PORT = Number(process.env.PORT || 3000);
const HOST = process.env.HOST || '127.0.0.1';
const MCP_PATH = '/mcp';

// 1x1 red PNG and a minimal WAV, as used by the conformance reference fixture.
const TEST_IMAGE_BASE64 =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
const TEST_AUDIO_BASE64 = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

/** An empty-object input schema (tool takes no arguments but gets `(args, ctx)`). */
const noArgs = () => fromJsonSchema({ type: 'object', properties: {} });

/** A single-string-field elicitation schema. */
const stringForm = field => ({ type: 'object', properties: { [field]: { type: 'string' } }, required: [field] });

// MRTR (SEP-2322) requestState integrity: the state round-trips through the
// client, so it is HMAC-sealed with a per-process key. `verify` is plugged
// into ServerOptions.requestState so tampered/expired state is rejected with
// -32602 before a handler runs (input-required-result-tampered-state).
// Every request gets a fresh McpServer, so the codec/key must be module-level.
const requestStateCodec = createRequestStateCodec({ key: getRandomValues(new Uint8Array(32)) });

/** Builds one McpServer instance (called by the SDK once per HTTP request). */
function createMcpServer() {
    const server = new McpServer(
        { name: 'v2-stateless-everything-server', version: '1.0.0' },
        {
            capabilities: {
                tools: { listChanged: true },
                resources: { subscribe: true, listChanged: true },
                prompts: { listChanged: true },
                completions: {},
                // `logging` is deprecated as of 2026-07-28 (SEP-2577) and only
                // matters for the 2025-era legacy leg (logging/setLevel).
                logging: {}
            },
            // SEP-2549: the SDK fills ttlMs/cacheScope on cacheable 2026-07-28
            // results anyway (defaults 0/'private'); give real hints here.
            cacheHints: {
                'server/discover': { ttlMs: 300000, cacheScope: 'public' },
                'tools/list': { ttlMs: 300000, cacheScope: 'public' },
                'prompts/list': { ttlMs: 300000, cacheScope: 'public' },
                'resources/list': { ttlMs: 300000, cacheScope: 'public' },
                'resources/templates/list': { ttlMs: 300000, cacheScope: 'public' },
                'resources/read': { ttlMs: 60000, cacheScope: 'private' }
            },
            requestState: { verify: requestStateCodec.verify }
        }
    );

    // ===================== TOOLS: content types =====================

    server.registerTool('test_simple_text', { description: 'Tests simple text content response' }, async () => ({
        content: [{ type: 'text', text: 'This is a simple text response for testing.' }]
    }));

    server.registerTool('test_image_content', { description: 'Tests image content response' }, async () => ({
        content: [{ type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' }]
    }));

    server.registerTool('test_audio_content', { description: 'Tests audio content response' }, async () => ({
        content: [{ type: 'audio', data: TEST_AUDIO_BASE64, mimeType: 'audio/wav' }]
    }));

    server.registerTool('test_embedded_resource', { description: 'Tests embedded resource content response' }, async () => ({
        content: [
            {
                type: 'resource',
                resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' }
            }
        ]
    }));

    server.registerTool(
        'test_multiple_content_types',
        { description: 'Tests response with multiple content types (text, image, resource)' },
        async () => ({
            content: [
                { type: 'text', text: 'Multiple content types test:' },
                { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' },
                {
                    type: 'resource',
                    resource: {
                        uri: 'test://mixed-content-resource',
                        mimeType: 'application/json',
                        text: JSON.stringify({ test: 'data', value: 123 })
                    }
                }
            ]
        })
    );

    // tools-call-error: a thrown error becomes an `isError: true` tool result.
    server.registerTool('test_error_handling', { description: 'Tests error response handling' }, async () => {
        throw new Error('This tool intentionally returns an error for testing');
    });

    // tools-call-with-progress: only emit progress when the client sent a token.
    server.registerTool(
        'test_tool_with_progress',
        { description: 'Tests tool that reports progress notifications', inputSchema: noArgs() },
        async (_args, ctx) => {
            const progressToken = ctx.mcpReq._meta?.progressToken;
            if (progressToken !== undefined) {
                for (const progress of [0, 50, 100]) {
                    await ctx.mcpReq.notify({
                        method: 'notifications/progress',
                        params: { progressToken, progress, total: 100, message: `Completed step ${progress} of 100` }
                    });
                    if (progress < 100) await new Promise(r => setTimeout(r, 50));
                }
            }
            return { content: [{ type: 'text', text: String(progressToken ?? 'no-progress-token') }] };
        }
    );

    // Emits log notifications (2025-era tools-call-with-logging).
    server.registerTool(
        'test_tool_with_logging',
        { description: 'Tests tool that emits log messages during execution', inputSchema: noArgs() },
        async (_args, ctx) => {
            for (const data of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
                await ctx.mcpReq.notify({ method: 'notifications/message', params: { level: 'info', data } });
                await new Promise(r => setTimeout(r, 50));
            }
            return { content: [{ type: 'text', text: 'Tool with logging executed successfully' }] };
        }
    );

    // SEP-1613 / SEP-2106: raw JSON Schema 2020-12 advertised verbatim in tools/list.
    server.registerTool(
        'json_schema_2020_12_tool',
        {
            description: 'Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613, SEP-2106)',
            inputSchema: fromJsonSchema({
                $schema: 'https://json-schema.org/draft/2020-12/schema',
                type: 'object',
                $defs: {
                    address: {
                        $anchor: 'addressDef',
                        type: 'object',
                        properties: { street: { type: 'string' }, city: { type: 'string' } }
                    }
                },
                properties: {
                    name: { type: 'string' },
                    address: { $ref: '#/$defs/address' },
                    contactMethod: { type: 'string', enum: ['phone', 'email'] },
                    phone: { type: 'string' },
                    email: { type: 'string' }
                },
                allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
                if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
                then: { required: ['phone'] },
                else: { required: ['email'] },
                additionalProperties: false
            })
        },
        async args => ({ content: [{ type: 'text', text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}` }] })
    );

    // SEP-2243 (http-custom-header-server-validation): a string parameter
    // annotated with `x-mcp-header` must be mirrored by the client into an
    // `Mcp-Param-Region` header; the SDK validates header vs body (incl.
    // =?base64?...?= decoding) before dispatch and answers -32020 / HTTP 400.
    server.registerTool(
        'test_x_mcp_header',
        {
            description: 'Tests SEP-2243 Mcp-Param-* server-side validation',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: {
                    region: { type: 'string', description: 'mirrored into Mcp-Param-Region', 'x-mcp-header': 'Region' },
                    level: { type: 'integer', description: 'non-mirrored argument' }
                }
            })
        },
        async args => ({ content: [{ type: 'text', text: `region=${args.region ?? '<none>'}` }] })
    );

    // ===================== TOOLS: server-stateless diagnostics (SEP-2575) =====================

    // Called with empty clientCapabilities: returning an input request that
    // needs `sampling` makes the SDK seam answer -32021 (HTTP 400).
    server.registerTool(
        'test_missing_capability',
        { description: 'Requires the sampling client capability (drives -32021)', inputSchema: noArgs() },
        async (_args, ctx) => {
            if (ctx.mcpReq.inputResponses?.['llm_answer'] === undefined) {
                return inputRequired({
                    inputRequests: {
                        llm_answer: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: 'Reply with the single word: pong' } }],
                            maxTokens: 16
                        })
                    }
                });
            }
            return { content: [{ type: 'text', text: 'sampling round-trip complete' }] };
        }
    );

    // Response stream must carry no independent top-level JSON-RPC requests.
    server.registerTool(
        'test_streaming_elicitation',
        { description: 'Yields a response stream carrying no top-level JSON-RPC requests', inputSchema: noArgs() },
        async () => ({ content: [{ type: 'text', text: 'stream observed: result frames only' }] })
    );

    // ctx.mcpReq.log is gated on _meta logLevel: no log frame without it.
    server.registerTool(
        'test_logging_tool',
        { description: 'Logs via ctx.mcpReq.log (only delivered when the request set logLevel)', inputSchema: noArgs() },
        async (_args, ctx) => {
            await ctx.mcpReq.log('info', 'test_logging_tool ran');
            return { content: [{ type: 'text', text: 'Logging evaluated' }] };
        }
    );

    // subscriptions/listen triggers: publish list_changed onto the handler's
    // bus; the SDK's listen router delivers it to open listen streams.
    server.registerTool(
        'test_trigger_tool_change',
        { description: 'Publishes notifications/tools/list_changed to listen streams', inputSchema: noArgs() },
        async () => {
            mcpHandler.notify.toolsChanged();
            return { content: [{ type: 'text', text: 'Mutation triggered' }] };
        }
    );
    server.registerTool(
        'test_trigger_prompt_change',
        { description: 'Publishes notifications/prompts/list_changed to listen streams', inputSchema: noArgs() },
        async () => {
            mcpHandler.notify.promptsChanged();
            return { content: [{ type: 'text', text: 'Mutation triggered' }] };
        }
    );

    // ===================== TOOLS: MRTR / input_required (SEP-2322) =====================

    // Basic elicitation (also used by result-type, missing-input-response,
    // ignore-extra-params, validate-input, unsupported-methods scenarios).
    server.registerTool(
        'test_input_required_result_elicitation',
        { description: 'MRTR: asks for the caller name via an in-band elicitation', inputSchema: noArgs() },
        async (_args, ctx) => {
            const name = acceptedContent(ctx.mcpReq.inputResponses, 'user_name')?.name;
            if (typeof name !== 'string') {
                return inputRequired({
                    inputRequests: {
                        user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: stringForm('name') })
                    }
                });
            }
            return { content: [{ type: 'text', text: `Hello, ${name}!` }] };
        }
    );

    server.registerTool(
        'test_input_required_result_sampling',
        { description: 'MRTR: asks for an LLM completion via an in-band sampling request', inputSchema: noArgs() },
        async (_args, ctx) => {
            const resp = ctx.mcpReq.inputResponses?.['sample_request'];
            if (resp === undefined) {
                return inputRequired({
                    inputRequests: {
                        sample_request: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
                            maxTokens: 100
                        })
                    }
                });
            }
            const text = typeof resp?.content?.text === 'string' ? resp.content.text : 'no response';
            return { content: [{ type: 'text', text: `Sampling result: ${text}` }] };
        }
    );

    server.registerTool(
        'test_input_required_result_list_roots',
        { description: 'MRTR: asks for the client roots via an in-band roots/list request', inputSchema: noArgs() },
        async (_args, ctx) => {
            const resp = ctx.mcpReq.inputResponses?.['roots_request'];
            if (!Array.isArray(resp?.roots)) {
                return inputRequired({ inputRequests: { roots_request: inputRequired.listRoots() } });
            }
            return { content: [{ type: 'text', text: `Found ${resp.roots.length} root(s)` }] };
        }
    );

    server.registerTool(
        'test_input_required_result_request_state',
        { description: 'MRTR: round-trips integrity-protected requestState with an elicitation', inputSchema: noArgs() },
        async (_args, ctx) => {
            const confirmation = acceptedContent(ctx.mcpReq.inputResponses, 'confirm');
            const state = ctx.mcpReq.requestState(); // already HMAC-verified + decoded by the seam
            if (confirmation === undefined || state?.kind !== 'request-state') {
                return inputRequired({
                    inputRequests: {
                        confirm: inputRequired.elicit({
                            message: 'Please confirm',
                            requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
                        })
                    },
                    requestState: await requestStateCodec.mint({ kind: 'request-state', nonce: randomUUID() })
                });
            }
            return { content: [{ type: 'text', text: 'state-ok: requestState validated' }] };
        }
    );

    server.registerTool(
        'test_input_required_result_multiple_inputs',
        { description: 'MRTR: elicitation + sampling + roots input requests in one round', inputSchema: noArgs() },
        async (_args, ctx) => {
            const r = ctx.mcpReq.inputResponses;
            const name = acceptedContent(r, 'user_name')?.name;
            const greeting = r?.['greeting']?.content?.text;
            const roots = r?.['client_roots']?.roots;
            if (typeof name !== 'string' || typeof greeting !== 'string' || !Array.isArray(roots)) {
                return inputRequired({
                    inputRequests: {
                        user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: stringForm('name') }),
                        greeting: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: 'Generate a greeting' } }],
                            maxTokens: 50
                        }),
                        client_roots: inputRequired.listRoots()
                    },
                    requestState: await requestStateCodec.mint({ kind: 'multiple-inputs', nonce: randomUUID() })
                });
            }
            return { content: [{ type: 'text', text: `Name: ${name}; Greeting: ${greeting}; Roots: ${roots.length}` }] };
        }
    );

    // Two rounds; the round number lives in the sealed requestState.
    server.registerTool(
        'test_input_required_result_multi_round',
        { description: 'MRTR: two elicitation rounds with evolving requestState', inputSchema: noArgs() },
        async (_args, ctx) => {
            const state = ctx.mcpReq.requestState();
            const round = state?.kind === 'multi-round' && typeof state.round === 'number' ? state.round : 0;
            if (round === 1 && acceptedContent(ctx.mcpReq.inputResponses, 'step1') !== undefined) {
                const name = acceptedContent(ctx.mcpReq.inputResponses, 'step1')?.name ?? 'unknown';
                return inputRequired({
                    inputRequests: {
                        step2: inputRequired.elicit({
                            message: 'Step 2: What is your favorite color?',
                            requestedSchema: stringForm('color')
                        })
                    },
                    requestState: await requestStateCodec.mint({ kind: 'multi-round', round: 2, name, nonce: randomUUID() })
                });
            }
            if (round === 2 && acceptedContent(ctx.mcpReq.inputResponses, 'step2') !== undefined) {
                const color = acceptedContent(ctx.mcpReq.inputResponses, 'step2')?.color ?? 'unknown';
                return { content: [{ type: 'text', text: `Multi-round complete for ${state.name} who likes ${color}` }] };
            }
            return inputRequired({
                inputRequests: {
                    step1: inputRequired.elicit({ message: 'Step 1: What is your name?', requestedSchema: stringForm('name') })
                },
                requestState: await requestStateCodec.mint({ kind: 'multi-round', round: 1, nonce: randomUUID() })
            });
        }
    );

    // Tampered state never reaches this handler (seam verify -> -32602).
    server.registerTool(
        'test_input_required_result_tampered_state',
        { description: 'MRTR: rejects retries whose requestState fails integrity verification', inputSchema: noArgs() },
        async (_args, ctx) => {
            if (ctx.mcpReq.requestState() !== undefined && acceptedContent(ctx.mcpReq.inputResponses, 'confirm') !== undefined) {
                return { content: [{ type: 'text', text: 'integrity-ok: state verified' }] };
            }
            return inputRequired({
                inputRequests: {
                    confirm: inputRequired.elicit({
                        message: 'Please confirm',
                        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] }
                    })
                },
                requestState: await requestStateCodec.mint({ kind: 'tamper-test', nonce: randomUUID() })
            });
        }
    );

    // Only ask for input kinds the request's declared client capabilities cover.
    server.registerTool(
        'test_input_required_result_capabilities',
        { description: 'MRTR: only requests input kinds the declared client capabilities cover', inputSchema: noArgs() },
        async (_args, ctx) => {
            const responses = ctx.mcpReq.inputResponses;
            if (responses && Object.keys(responses).length > 0) {
                return { content: [{ type: 'text', text: `capabilities-ok: received ${Object.keys(responses).join(',')}` }] };
            }
            const declared = ctx.mcpReq.envelope?.[CLIENT_CAPABILITIES_META_KEY] ?? {};
            const inputRequests = {};
            if (declared.elicitation !== undefined) {
                inputRequests.elicit_input = inputRequired.elicit({ message: 'Elicitation input', requestedSchema: stringForm('value') });
            }
            if (declared.sampling !== undefined) {
                inputRequests.sample_input = inputRequired.createMessage({
                    messages: [{ role: 'user', content: { type: 'text', text: 'Sample request' } }],
                    maxTokens: 50
                });
            }
            if (declared.roots !== undefined) inputRequests.roots_input = inputRequired.listRoots();
            if (Object.keys(inputRequests).length === 0) {
                return { content: [{ type: 'text', text: 'No supported capabilities declared' }] };
            }
            return inputRequired({ inputRequests });
        }
    );

    // ===================== TOOLS: 2025-era server->client requests =====================
    // Written MRTR-style (return inputRequired until the answer arrives): on
    // 2026-07-28 the client fulfils the input request and retries; on the
    // 2025-era legacy leg the SDK's "legacy shim" would instead send a real
    // sampling/elicitation request to the client and re-enter the handler.

    const elicitTool = (name, description, message, requestedSchema, label) =>
        server.registerTool(name, { description, inputSchema: noArgs() }, async (_args, ctx) => {
            const resp = ctx.mcpReq.inputResponses?.['elicit'];
            if (resp === undefined) {
                return inputRequired({ inputRequests: { elicit: inputRequired.elicit({ message, requestedSchema }) } });
            }
            return {
                content: [{ type: 'text', text: `${label}: action=${resp.action}, content=${JSON.stringify(resp.content || {})}` }]
            };
        });

    server.registerTool(
        'test_sampling',
        {
            description: 'Tests server-initiated sampling (LLM completion request)',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { prompt: { type: 'string', description: 'The prompt to send to the LLM' } },
                required: ['prompt']
            })
        },
        async (args, ctx) => {
            const resp = ctx.mcpReq.inputResponses?.['sampling'];
            if (resp === undefined) {
                return inputRequired({
                    inputRequests: {
                        sampling: inputRequired.createMessage({
                            messages: [{ role: 'user', content: { type: 'text', text: args.prompt } }],
                            maxTokens: 100
                        })
                    }
                });
            }
            return { content: [{ type: 'text', text: `LLM response: ${resp?.content?.text ?? 'No response'}` }] };
        }
    );

    server.registerTool(
        'test_elicitation',
        {
            description: 'Tests server-initiated elicitation (user input request)',
            inputSchema: fromJsonSchema({
                type: 'object',
                properties: { message: { type: 'string', description: 'The message to show the user' } },
                required: ['message']
            })
        },
        async (args, ctx) => {
            const resp = ctx.mcpReq.inputResponses?.['elicit'];
            if (resp === undefined) {
                return inputRequired({
                    inputRequests: {
                        elicit: inputRequired.elicit({
                            message: args.message,
                            requestedSchema: {
                                type: 'object',
                                properties: { response: { type: 'string', description: "User's response" } },
                                required: ['response']
                            }
                        })
                    }
                });
            }
            return {
                content: [{ type: 'text', text: `User response: action=${resp.action}, content=${JSON.stringify(resp.content || {})}` }]
            };
        }
    );

    // SEP-1034: elicitation with defaults for every primitive type.
    elicitTool(
        'test_elicitation_sep1034_defaults',
        'Tests elicitation with default values per SEP-1034',
        'Please review and update the form fields with defaults',
        {
            type: 'object',
            properties: {
                name: { type: 'string', description: 'User name', default: 'John Doe' },
                age: { type: 'integer', description: 'User age', default: 30 },
                score: { type: 'number', description: 'User score', default: 95.5 },
                status: { type: 'string', description: 'User status', enum: ['active', 'inactive', 'pending'], default: 'active' },
                verified: { type: 'boolean', description: 'Verification status', default: true }
            },
            required: []
        },
        'Elicitation completed'
    );

    // SEP-1330: the five enum schema variants.
    elicitTool(
        'test_elicitation_sep1330_enums',
        'Tests elicitation with enum schema improvements per SEP-1330',
        'Please select options from the enum fields',
        {
            type: 'object',
            properties: {
                untitledSingle: { type: 'string', description: 'Select one option', enum: ['option1', 'option2', 'option3'] },
                titledSingle: {
                    type: 'string',
                    description: 'Select one option with titles',
                    oneOf: [
                        { const: 'value1', title: 'First Option' },
                        { const: 'value2', title: 'Second Option' },
                        { const: 'value3', title: 'Third Option' }
                    ]
                },
                legacyEnum: {
                    type: 'string',
                    description: 'Select one option (legacy)',
                    enum: ['opt1', 'opt2', 'opt3'],
                    enumNames: ['Option One', 'Option Two', 'Option Three']
                },
                untitledMulti: {
                    type: 'array',
                    description: 'Select multiple options',
                    minItems: 1,
                    maxItems: 3,
                    items: { type: 'string', enum: ['option1', 'option2', 'option3'] }
                },
                titledMulti: {
                    type: 'array',
                    description: 'Select multiple options with titles',
                    minItems: 1,
                    maxItems: 3,
                    items: {
                        anyOf: [
                            { const: 'value1', title: 'First Choice' },
                            { const: 'value2', title: 'Second Choice' },
                            { const: 'value3', title: 'Third Choice' }
                        ]
                    }
                }
            },
            required: []
        },
        'Elicitation completed'
    );

    // ===================== RESOURCES =====================

    server.registerResource(
        'static-text',
        'test://static-text',
        { title: 'Static Text Resource', description: 'A static text resource for testing', mimeType: 'text/plain' },
        async () => ({
            contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }]
        })
    );

    server.registerResource(
        'static-binary',
        'test://static-binary',
        { title: 'Static Binary Resource', description: 'A static binary resource (image) for testing', mimeType: 'image/png' },
        async () => ({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: TEST_IMAGE_BASE64 }] })
    );

    server.registerResource(
        'template',
        new ResourceTemplate('test://template/{id}/data', { list: undefined }),
        { title: 'Resource Template', description: 'A resource template with parameter substitution', mimeType: 'application/json' },
        async (uri, variables) => ({
            contents: [
                {
                    uri: uri.toString(),
                    mimeType: 'application/json',
                    text: JSON.stringify({ id: variables.id, templateTest: true, data: `Data for ID: ${variables.id}` })
                }
            ]
        })
    );

    server.registerResource(
        'watched-resource',
        'test://watched-resource',
        { title: 'Watched Resource', description: 'Resource for subscription testing', mimeType: 'text/plain' },
        async () => ({ contents: [{ uri: 'test://watched-resource', mimeType: 'text/plain', text: 'Watched resource content' }] })
    );
    // Unknown URIs (sep-2164-resource-not-found) are answered by the SDK with
    // -32602 and data.uri.

    // ===================== PROMPTS =====================

    server.registerPrompt('test_simple_prompt', { title: 'Simple Test Prompt', description: 'A simple prompt without arguments' }, async () => ({
        messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }]
    }));

    server.registerPrompt(
        'test_prompt_with_arguments',
        {
            title: 'Prompt With Arguments',
            description: 'A prompt with required arguments',
            argsSchema: fromJsonSchema({
                type: 'object',
                properties: {
                    arg1: { type: 'string', description: 'First test argument' },
                    arg2: { type: 'string', description: 'Second test argument' }
                },
                required: ['arg1', 'arg2']
            })
        },
        async args => ({
            messages: [
                { role: 'user', content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` } }
            ]
        })
    );

    server.registerPrompt(
        'test_prompt_with_embedded_resource',
        {
            title: 'Prompt With Embedded Resource',
            description: 'A prompt that includes an embedded resource',
            argsSchema: fromJsonSchema({
                type: 'object',
                properties: { resourceUri: { type: 'string', description: 'URI of the resource to embed' } },
                required: ['resourceUri']
            })
        },
        async args => ({
            messages: [
                {
                    role: 'user',
                    content: {
                        type: 'resource',
                        resource: { uri: args.resourceUri, mimeType: 'text/plain', text: 'Embedded resource content for testing.' }
                    }
                },
                { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } }
            ]
        })
    );

    server.registerPrompt('test_prompt_with_image', { title: 'Prompt With Image', description: 'A prompt that includes image content' }, async () => ({
        messages: [
            { role: 'user', content: { type: 'image', data: TEST_IMAGE_BASE64, mimeType: 'image/png' } },
            { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } }
        ]
    }));

    // MRTR on a non-tool request (input-required-result-non-tool-request).
    // Without argsSchema the callback receives only ctx.
    server.registerPrompt(
        'test_input_required_result_prompt',
        { title: 'MRTR Prompt', description: 'MRTR: prompt that requires elicitation input before rendering' },
        async ctx => {
            const context = acceptedContent(ctx.mcpReq.inputResponses, 'user_context')?.context;
            if (typeof context !== 'string') {
                return inputRequired({
                    inputRequests: {
                        user_context: inputRequired.elicit({
                            message: 'What context should the prompt use?',
                            requestedSchema: stringForm('context')
                        })
                    }
                });
            }
            return { messages: [{ role: 'user', content: { type: 'text', text: `Prompt with context: ${context}` } }] };
        }
    );

    // ===================== 2025-era only: logging / subscriptions =====================
    // Removed in 2026-07-28 (the SDK answers them 404/-32601 on that era);
    // registered so the 2025-era legacy leg can serve them.
    server.server.setRequestHandler('logging/setLevel', async () => ({}));
    server.server.setRequestHandler('resources/subscribe', async () => ({}));
    server.server.setRequestHandler('resources/unsubscribe', async () => ({}));

    // ===================== COMPLETION =====================
    server.server.setRequestHandler('completion/complete', async () => ({
        completion: { values: [], total: 0, hasMore: false }
    }));

    return server;
}

// ===================== HTTP SERVING =====================

// One handler for the whole process; it calls createMcpServer() per request.
const mcpHandler = createMcpHandler(() => createMcpServer(), {
    onerror: err => console.error('[mcp] handler error:', err?.message ?? err)
});
const nodeHandler = toNodeHandler(mcpHandler);

// DNS-rebinding protection: only localhost Host / Origin (403 otherwise).
const validateHost = localhostHostValidation();
const validateOrigin = localhostOriginValidation();

const httpServer = createServer(async (req, res) => {
    const path = (req.url || '/').split('?')[0];
    if (path !== MCP_PATH) {
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
        return;
    }
    // The guards write the 403 themselves and return false.
    if (!validateHost(req, res) || !validateOrigin(req, res)) return;
    try {
        await nodeHandler(req, res);
    } catch (err) {
        console.error('[mcp] request failed:', err);
        if (!res.headersSent) {
            res.writeHead(500, { 'Content-Type': 'application/json' });
            res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal server error' } }));
        }
    }
});

httpServer.listen(PORT, HOST, () => {
    const addr = httpServer.address();
    console.error(`v2 MCP server listening on port ${typeof addr === 'object' && addr ? addr.port : PORT}`);
});

const shutdown = () => {
    mcpHandler.close().finally(() => httpServer.close(() => process.exit(0)));
    setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
