#!/usr/bin/env bash
# Merged tools/list through a virtual server of two members (issue 39, item 7): the same load
# against the gateway with the members' lists kept (gateway.virtual-servers.list-cache-ttl,
# default 30s) and with them not kept (0), one gateway after the other. Reports requests/s,
# mean latency and the members' tools/list requests per client request (counted by the stub).
# The members are BenchUpstream's /catalog (20 tools, answered at once) or, with VLISTS_SLOW=1,
# its /slow-catalog (tools/list answered after 20 ms: with the cache off a merged list then
# takes about one member's delay, as both are asked at the same time).
# Usage: bench/virtual-lists.sh   (VLISTS_DURATION=15s VLISTS_WARMUP=5s VLISTS_THREADS=4
#        VLISTS_CONNECTIONS=8; one principal and one virtual session per wrk thread)
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${VLISTS_DURATION:-15s}
WARMUP=${VLISTS_WARMUP:-5s}
THREADS=${VLISTS_THREADS:-4}
CONNECTIONS=${VLISTS_CONNECTIONS:-8}
source bench/lib.sh
command -v wrk >/dev/null 2>&1 || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }

build
start_upstream
catalog=catalog; [ -n "${VLISTS_SLOW:-}" ] && catalog=slow-catalog
policy_server alpha "$catalog"
policy_server beta "$catalog"
cat >>"$work/policy.yaml" <<POLICY
virtual-servers:
  - namespace: bench
    name: workspace
    uid: bench-workspace
    path: /mcp/bench/workspace
    members:
      - server: bench/alpha
        prefix: alpha
      - server: bench/beta
        prefix: beta
POLICY
wait_http "http://127.0.0.1:$up/catalog-stats"
member_lists() { curl -s "http://127.0.0.1:$up/catalog-stats" | sed 's/.*"toolsLists":\([0-9]*\).*/\1/'; }

post() { # url token session-or-empty body -> response headers and body
  local session=(); [ -n "$3" ] && session=(-H "Mcp-Session-Id: $3")
  curl -s -D - -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' "${session[@]}" -d "$4" "$1"
}

# Opens one virtual session per thread; sets tokens and sessions.
open_sessions() { # port
  local url="http://127.0.0.1:$1/mcp/bench/workspace" token session
  tokens=""; sessions=""
  for i in $(seq 1 "$THREADS"); do
    token=$(curl -s "http://127.0.0.1:$1/demo/token?human=bench-$i&ttlSeconds=3600")
    session=$(post "$url" "$token" "" '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}' \
      | awk 'tolower($1) == "mcp-session-id:" {print $2}' | tr -d '\r')
    post "$url" "$token" "$session" '{"jsonrpc":"2.0","method":"notifications/initialized"}' >/dev/null
    tokens="$tokens $token"; sessions="$sessions $session"
  done
  local tools
  tools=$(post "$url" "$token" "$session" '{"jsonrpc":"2.0","id":2,"method":"tools/list"}' | grep -o '"name":"[a-z]*_tool_' | wc -l)
  [ "$tools" = 40 ] || { echo "expected 40 merged tools, got $tools" >&2; exit 1; }
}

measure() { # label list-cache-ttl -> one table row
  local port out before after requests
  port=$(free_port)
  launch_gateway "$jar" "$port" "$work/gateway-$1.log" --gateway.virtual-servers.list-cache-ttl="$2"
  wait_http "http://127.0.0.1:$port/actuator/health/readiness"
  open_sessions "$port"
  BENCH_TOKENS=$tokens BENCH_SESSIONS=$sessions wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" \
    -s bench/wrk/list.lua "http://127.0.0.1:$port/mcp/bench/workspace" >/dev/null
  before=$(member_lists)
  out=$(BENCH_TOKENS=$tokens BENCH_SESSIONS=$sessions wrk -t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" \
    -s bench/wrk/list.lua "http://127.0.0.1:$port/mcp/bench/workspace")
  after=$(member_lists)
  if echo "$out" | grep -q "Non-2xx"; then echo "$out" >&2; echo "non-2xx answers ($1)" >&2; exit 1; fi
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  printf "%-22s %10s %12s %24s\n" "$1" "$(echo "$out" | awk '/Requests\/sec/ {printf "%.0f", $2}')" \
    "$(echo "$out" | awk '/Latency/ {print $2}')" "$(awk -v m=$((after - before)) -v r="$requests" 'BEGIN {printf "%.3f", m / r}')"
  kill "$gateway_pid"; wait "$gateway_pid" 2>/dev/null || true
}

echo "tools/list through a virtual server of two members ($catalog), $THREADS sessions, $CONNECTIONS connections, $DURATION each"
printf "%-22s %10s %12s %24s\n" "lists kept" "req/s" "mean latency" "member lists per request"
measure "yes (ttl 30s)" 30s
measure "no (ttl 0)" 0s
