-- wrk script for bench/virtual-lists.sh: a tools/list POST per request on a virtual server, one
-- principal and its virtual session per wrk thread.
-- Environment: BENCH_TOKENS and BENCH_SESSIONS (space-separated, the n-th session the n-th token's).
local tokens, sessions = {}, {}
for token in string.gmatch(os.getenv("BENCH_TOKENS") or "", "%S+") do
  table.insert(tokens, token)
end
for session in string.gmatch(os.getenv("BENCH_SESSIONS") or "", "%S+") do
  table.insert(sessions, session)
end
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("index", threads)
end

function init(args)
  local i = ((index - 1) % #tokens) + 1
  wrk.method = "POST"
  wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}'
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  wrk.headers["MCP-Protocol-Version"] = "2025-06-18"
  wrk.headers["Authorization"] = "Bearer " .. tokens[i]
  wrk.headers["Mcp-Session-Id"] = sessions[i]
end
