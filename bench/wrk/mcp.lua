-- wrk script for bench/run.sh: a tools/call POST per request, one principal per wrk thread.
-- Environment: BENCH_TOKENS (space-separated bearer tokens), BENCH_MODE (plain|fresh|replay).
local tokens = {}
for token in string.gmatch(os.getenv("BENCH_TOKENS") or "", "%S+") do
  table.insert(tokens, token)
end
local mode = os.getenv("BENCH_MODE") or "plain"
local counter = 0
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("index", threads)
end

function init(args)
  wrk.method = "POST"
  wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"notes_create","arguments":{"text":"bench"}}}'
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Accept"] = "application/json, text/event-stream"
  if #tokens > 0 then
    wrk.headers["Authorization"] = "Bearer " .. tokens[((index - 1) % #tokens) + 1]
  end
end

function request()
  if mode == "fresh" then
    counter = counter + 1
    wrk.headers["Idempotency-Key"] = "bench-" .. index .. "-" .. counter .. "-" .. math.random(1, 1000000000)
  elseif mode == "replay" then
    wrk.headers["Idempotency-Key"] = "bench-replay-" .. index
  end
  return wrk.format()
end
