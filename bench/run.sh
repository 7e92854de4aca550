#!/usr/bin/env bash
# One-command benchmark: the same tools/call load, in one run, against the upstream directly,
# nginx, and the gateway (unkeyed, fresh keys, replays; memory and Redis stores), plus the first
# SSE event's latency direct vs through the gateway. Prints a table and the ratios.
# Usage: bench/run.sh   (BENCH_DURATION=20s BENCH_WARMUP=5s BENCH_JIT_WARMUP=15s BENCH_THREADS=8)
# Exits non-zero when a row it should measure cannot be measured.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-20s}
WARMUP=${BENCH_WARMUP:-5s}
THREADS=${BENCH_THREADS:-8}
source bench/lib.sh

install_if_missing() { # command package
  if ! command -v "$1" >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$2" >/dev/null 2>&1 || true
  fi
  command -v "$1" >/dev/null 2>&1
}

install_if_missing wrk wrk || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }
have_nginx=false; install_if_missing nginx nginx-light && have_nginx=true
have_redis=false; install_if_missing redis-server redis-server && have_redis=true

build
start_upstream

cat >"$work/policy.yaml" <<POLICY
servers:
  - namespace: bench
    name: json
    uid: bench-json
    upstream: http://127.0.0.1:$up/mcp
    path: /mcp/bench/json
    grants: [{ tools: ["*"] }]
  - namespace: bench
    name: big
    uid: bench-big
    upstream: http://127.0.0.1:$up/big
    path: /mcp/bench/big
    grants: [{ tools: ["*"] }]
  - namespace: bench
    name: sse
    uid: bench-sse
    upstream: http://127.0.0.1:$up/sse
    path: /mcp/bench/sse
    grants: [{ tools: ["*"] }]
POLICY

start_gateway() { # name port extra-args...
  local name=$1 port=$2; shift 2
  java -XX:+UseG1GC -Xms512m -Xmx1g -jar "$jar" --spring.profiles.active=demo --server.port="$port" \
    --gateway.demo.upstream-port="$(free_port)" --gateway.demo.json-upstream-port="$(free_port)" \
    --gateway.policy.location="$work/policy.yaml" --gateway.proxy.bulkhead.max-concurrent-calls=1000 \
    --gateway.identity.operators[0].human=bench-ops "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
}
gw=$(free_port); start_gateway gateway "$gw"; gwpid=${pids[-1]}
if $have_redis; then
  rport=$(free_port)
  redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
  pids+=($!)
  gwr=$(free_port); start_gateway gateway-redis "$gwr" --gateway.idempotency.store=redis \
    --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$rport"
fi
if $have_nginx; then
  ng=$(free_port)
  mkdir -p "$work/nginx"
  cat >"$work/nginx/nginx.conf" <<NGINX
worker_processes 2;
error_log $work/nginx/error.log;
pid $work/nginx/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx; proxy_temp_path $work/nginx; fastcgi_temp_path $work/nginx;
  uwsgi_temp_path $work/nginx; scgi_temp_path $work/nginx;
  upstream stub { server 127.0.0.1:$up; keepalive 64; }
  server {
    listen 127.0.0.1:$ng;
    location / { proxy_pass http://stub; proxy_http_version 1.1; proxy_set_header Connection ""; proxy_buffering off; }
  }
}
NGINX
  nginx -c "$work/nginx/nginx.conf" -g 'daemon off;' >"$work/nginx.log" 2>&1 &
  pids+=($!)
fi

wait_http "http://127.0.0.1:$gw/actuator/health/readiness"
$have_redis && wait_http "http://127.0.0.1:$gwr/actuator/health/readiness"
tokens=""
for i in $(seq 1 "$THREADS"); do tokens="$tokens $(curl -s "http://127.0.0.1:$gw/demo/token?human=bench-$i&ttlSeconds=3600")"; done
tokens_redis=""
if $have_redis; then
  for i in $(seq 1 "$THREADS"); do tokens_redis="$tokens_redis $(curl -s "http://127.0.0.1:$gwr/demo/token?human=bench-$i&ttlSeconds=3600")"; done
fi

declare -A rps p50 p99
failed=0
measure() { # row url mode tokens
  local row=$1 url=$2 mode=$3 toks=$4
  BENCH_TOKENS="$toks" BENCH_MODE="$mode" wrk -t"$THREADS" -c"$THREADS" -d"$WARMUP" -s bench/wrk/mcp.lua "$url" >/dev/null 2>&1 || true
  local out
  out=$(BENCH_TOKENS="$toks" BENCH_MODE="$mode" wrk -t"$THREADS" -c"$THREADS" -d"$DURATION" --latency -s bench/wrk/mcp.lua "$url" 2>&1) || true
  echo "$out" >"$work/$row.wrk"
  local requests bad
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  bad=$(echo "$out" | awk '/Non-2xx or 3xx responses/ {print $5}')
  if [ -z "$requests" ] || [ "${bad:-0}" -gt $(( ${requests:-0} / 100 )) ]; then
    echo "Row $row failed:" >&2; echo "$out" >&2; failed=1; return
  fi
  rps[$row]=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50[$row]=$(echo "$out" | awk '$1=="50%" {print $2}')
  p99[$row]=$(echo "$out" | awk '$1=="99%" {print $2}')
}

# JIT warm-up of both gateways over every path measured, so that the first gateway row does not
# pay for compiling what the later rows reuse.
JIT_WARMUP=${BENCH_JIT_WARMUP:-15s}
echo "Warming up the gateways (${JIT_WARMUP} per mode)..." >&2
for mode in plain fresh replay; do
  BENCH_TOKENS="$tokens" BENCH_MODE=$mode wrk -t"$THREADS" -c"$THREADS" -d"$JIT_WARMUP" -s bench/wrk/mcp.lua \
    "http://127.0.0.1:$gw/mcp/bench/json" >/dev/null 2>&1 || true
  if $have_redis; then
    BENCH_TOKENS="$tokens_redis" BENCH_MODE=$mode wrk -t"$THREADS" -c"$THREADS" -d"$JIT_WARMUP" -s bench/wrk/mcp.lua \
      "http://127.0.0.1:$gwr/mcp/bench/json" >/dev/null 2>&1 || true
  fi
done
echo "Measuring (${THREADS} connections, ${WARMUP} warm-up, ${DURATION} measured per row)..." >&2
measure direct "http://127.0.0.1:$up/mcp" plain ""
$have_nginx && measure nginx "http://127.0.0.1:$ng/mcp" plain ""
measure gateway "http://127.0.0.1:$gw/mcp/bench/json" plain "$tokens"
measure gateway-keyed "http://127.0.0.1:$gw/mcp/bench/json" fresh "$tokens"
measure gateway-replay "http://127.0.0.1:$gw/mcp/bench/json" replay "$tokens"
if $have_redis; then
  measure redis-keyed "http://127.0.0.1:$gwr/mcp/bench/json" fresh "$tokens_redis"
  measure redis-replay "http://127.0.0.1:$gwr/mcp/bench/json" replay "$tokens_redis"
fi

# First SSE event: time to the first response byte, which carries the first event (the stub
# writes headers and the first event at once; the gateway commits its response on that flush).
first_event() { # url token -> sorted ms list
  for _ in $(seq 1 200); do
    curl -s -N -o /dev/null -w '%{time_starttransfer}\n' -X POST -H 'Content-Type: application/json' \
      -H 'Accept: application/json, text/event-stream' ${2:+-H "Authorization: Bearer $2"} \
      -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}' "$1"
  done | awk '{printf "%.3f\n", $1*1000}' | sort -n
}
pct() { awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; print a[i]}'; }
first_token=$(echo $tokens | awk '{print $1}')
first_event "http://127.0.0.1:$up/sse" "" >"$work/sse-direct"
first_event "http://127.0.0.1:$gw/mcp/bench/sse" "$first_token" >"$work/sse-gateway"

# Memory: a flood of unique keys with 32 KiB replies from 16 principals; the store must stay at
# its bound (256 entries, 8 MiB of bodies) and the heap after a full GC flat.
ops=$(curl -s "http://127.0.0.1:$gw/demo/token?human=bench-ops&ttlSeconds=3600")
heap() { jcmd "$gwpid" GC.run >/dev/null; sleep 1
  curl -s "http://127.0.0.1:$gw/actuator/metrics/jvm.memory.used?tag=area:heap" -H "Authorization: Bearer $ops" \
    | python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["measurements"][0]["value"]/1048576))'; }
flood_tokens=""
for i in $(seq 1 16); do flood_tokens="$flood_tokens $(curl -s "http://127.0.0.1:$gw/demo/token?human=flood-$i&ttlSeconds=3600")"; done
heap_before=$(heap)
BENCH_TOKENS="$flood_tokens" BENCH_MODE=fresh wrk -t16 -c16 -d"$DURATION" -s bench/wrk/mcp.lua \
  "http://127.0.0.1:$gw/mcp/bench/big" >"$work/flood.wrk" 2>&1 || true
heap_after=$(heap)
store=$(curl -s "http://127.0.0.1:$gw/actuator/idempotency" -H "Authorization: Bearer $ops")

printf '\n%-16s %12s %10s %10s\n' row "req/s" p50 p99
for row in direct nginx gateway gateway-keyed gateway-replay redis-keyed redis-replay; do
  [ -n "${rps[$row]:-}" ] && printf '%-16s %12s %10s %10s\n' "$row" "${rps[$row]}" "${p50[$row]}" "${p99[$row]}"
done
$have_nginx || echo "nginx: not installed, row skipped"
$have_redis || echo "redis-server: not installed, Redis rows skipped"
printf '\nSSE first event (ms over 200 calls)  p50 direct %s, gateway %s; p99 direct %s, gateway %s\n' \
  "$(pct 50 <"$work/sse-direct")" "$(pct 50 <"$work/sse-gateway")" "$(pct 99 <"$work/sse-direct")" "$(pct 99 <"$work/sse-gateway")"

printf '\nMemory flood (%s, 16 principals, unique keys, 32 KiB replies): %s requests\n' "$DURATION" \
  "$(awk '/requests in/ {print $1}' "$work/flood.wrk")"
echo "  store after the flood: $store"
echo "  heap after full GC: before ${heap_before} MiB, after ${heap_after} MiB"

ratio() { [ -n "${rps[$1]:-}" ] && [ -n "${rps[$2]:-}" ] && awk -v a="${rps[$1]}" -v b="${rps[$2]}" -v t="$3" -v n="$4" \
  'BEGIN {r=a/b; printf "%-44s %6.2f  (target %s: %s)\n", n, r, t, (r>=t ? "met" : "NOT met")}'; return 0; }
echo
ratio gateway-keyed gateway 0.95 "keyed first calls / unkeyed"
ratio gateway-replay gateway 1.5 "replays / forwarded calls"
ratio gateway direct 0.5 "gateway unkeyed / direct"
ratio gateway nginx 0.6 "gateway unkeyed / nginx"
ratio redis-keyed gateway-keyed 0.8 "Redis keyed / memory keyed"
awk -v d="$(pct 99 <"$work/sse-direct")" -v g="$(pct 99 <"$work/sse-gateway")" \
  'BEGIN {printf "%-44s %6.2f  (target <= 5 ms: %s)\n", "SSE first event p99, gateway - direct (ms)", g-d, (g-d<=5 ? "met" : "NOT met")}'
exit $failed
