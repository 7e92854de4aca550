#!/usr/bin/env bash
# One-command benchmark: the same tools/call load, in one run, against the upstream directly,
# nginx, and the gateway (unkeyed, fresh keys, replays; memory and Redis stores), plus the first
# SSE event's latency direct vs through the gateway. Prints a table and the ratios.
# Usage: bench/run.sh   (BENCH_ROUNDS=3 BENCH_DURATION=10s BENCH_WARMUP=3s BENCH_MAX_WARMUP=15 BENCH_THREADS=8)
# Exits non-zero when a row it should measure cannot be measured.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${BENCH_DURATION:-10s}
WARMUP=${BENCH_WARMUP:-3s}
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

policy_server json mcp
policy_server big big
policy_server sse sse

start_gateway() { # name port extra-args...
  local name=$1 port=$2; shift 2
  launch_gateway "$jar" "$port" "$work/$name.log" --gateway.identity.operators[0].human=bench-ops "$@"
}
gw=$(free_port); start_gateway gateway "$gw"; gwpid=$gateway_pid
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

declare -A rps p50 p99 rounds_rps rounds_p50 rounds_p99
failed=0
to_ms() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); v/=1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000}; printf "%.3f\n", v}'; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
rate() { # url mode tokens duration -> requests per second (empty when the run failed)
  BENCH_TOKENS="$3" BENCH_MODE="$2" wrk -t"$THREADS" -c"$THREADS" -d"$4" -s bench/wrk/mcp.lua "$1" 2>/dev/null \
    | awk '/Requests\/sec/ {printf "%.0f", $2}'
}
# One measured round of a row: WARMUP unmeasured, then DURATION measured.
measure() { # row url mode tokens
  local row=$1 url=$2 mode=$3 toks=$4
  rate "$url" "$mode" "$toks" "$WARMUP" >/dev/null
  local out
  out=$(BENCH_TOKENS="$toks" BENCH_MODE="$mode" wrk -t"$THREADS" -c"$THREADS" -d"$DURATION" --latency -s bench/wrk/mcp.lua "$url" 2>&1) || true
  echo "$out" >>"$work/$row.wrk"
  local requests bad
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  bad=$(echo "$out" | awk '/Non-2xx or 3xx responses/ {print $5}')
  if [ -z "$requests" ] || [ "${bad:-0}" -gt $(( ${requests:-0} / 100 )) ]; then
    echo "Row $row failed:" >&2; echo "$out" >&2; failed=1; return
  fi
  rounds_rps[$row]="${rounds_rps[$row]:-} $(echo "$out" | awk '/Requests\/sec/ {print $2}')"
  rounds_p50[$row]="${rounds_p50[$row]:-} $(echo "$out" | awk '$1=="50%" {print $2}' | to_ms)"
  rounds_p99[$row]="${rounds_p99[$row]:-} $(echo "$out" | awk '$1=="99%" {print $2}' | to_ms)"
}

# JIT warm-up: each gateway runs every measured path in 10 s windows until its throughput over
# a window is within 5 % of the window before (at least 3, at most BENCH_MAX_WARMUP windows).
# On 2 cores the JIT needs a minute or more before a gateway reaches its steady state, and a
# row measured earlier would compare a cold gateway with a warm one.
warm_up() { # name url tokens
  local previous=0 current window
  for window in $(seq 1 "${BENCH_MAX_WARMUP:-15}"); do
    current=0
    for mode in plain fresh replay; do
      current=$(( current + $(rate "$2" "$mode" "$3" 10s || echo 0) ))
    done
    echo "  $1 warm-up window $window: $current req/s (sum of 3 modes)" >&2
    if [ "$window" -ge 3 ] && awk -v a="$current" -v b="$previous" 'BEGIN {exit !(b > 0 && (a-b)/b < 0.05 && (b-a)/b < 0.05)}'; then
      return
    fi
    previous=$current
  done
}
echo "Warming up until throughput is stable..." >&2
warm_up gateway "http://127.0.0.1:$gw/mcp/bench/json" "$tokens"
$have_redis && warm_up gateway-redis "http://127.0.0.1:$gwr/mcp/bench/json" "$tokens_redis"

# Rows are measured in ROUNDS interleaved rounds, so that drift on a shared machine (other
# tenants, the JIT, GC) falls on every row alike. A row's req/s is the mean of its rounds, its
# p50 and p99 the median of its rounds'.
ROUNDS=${BENCH_ROUNDS:-3}
echo "Measuring ($ROUNDS rounds; per row and round ${THREADS} connections, ${WARMUP} warm-up, ${DURATION} measured)..." >&2
for round in $(seq 1 "$ROUNDS"); do
  measure direct "http://127.0.0.1:$up/mcp" plain ""
  $have_nginx && measure nginx "http://127.0.0.1:$ng/mcp" plain ""
  measure gateway "http://127.0.0.1:$gw/mcp/bench/json" plain "$tokens"
  measure gateway-keyed "http://127.0.0.1:$gw/mcp/bench/json" fresh "$tokens"
  measure gateway-replay "http://127.0.0.1:$gw/mcp/bench/json" replay "$tokens"
  if $have_redis; then
    measure redis-keyed "http://127.0.0.1:$gwr/mcp/bench/json" fresh "$tokens_redis"
    measure redis-replay "http://127.0.0.1:$gwr/mcp/bench/json" replay "$tokens_redis"
  fi
done
for row in "${!rounds_rps[@]}"; do
  rps[$row]=$(echo ${rounds_rps[$row]} | tr ' ' '\n' | awk '{s+=$1} END {printf "%.0f", s/NR}')
  p50[$row]="$(echo ${rounds_p50[$row]} | median)ms"
  p99[$row]="$(echo ${rounds_p99[$row]} | median)ms"
done

# First SSE event: time to the first response byte, which carries the first event (the stub
# writes headers and the first event at once; the gateway commits its response on that flush).
# Direct and gateway calls alternate, so that a slow moment on the machine falls on both alike.
first_event() { # url token -> ms
  curl -s -N -o /dev/null -w '%{time_starttransfer}\n' -X POST -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' ${2:+-H "Authorization: Bearer $2"} \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}' "$1" \
    | awk '{printf "%.3f\n", $1*1000}'
}
pct() { awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; print a[i]}'; }
first_token=$(echo $tokens | awk '{print $1}')
SSE_CALLS=${BENCH_SSE_CALLS:-500}
for _ in $(seq 1 20); do first_event "http://127.0.0.1:$gw/mcp/bench/sse" "$first_token" >/dev/null; done
for _ in $(seq 1 "$SSE_CALLS"); do
  first_event "http://127.0.0.1:$up/sse" "" >>"$work/sse-direct.raw"
  first_event "http://127.0.0.1:$gw/mcp/bench/sse" "$first_token" >>"$work/sse-gateway.raw"
done
sort -n "$work/sse-direct.raw" >"$work/sse-direct"
sort -n "$work/sse-gateway.raw" >"$work/sse-gateway"

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

printf '\n%-16s %12s %10s %10s   %s\n' row "req/s" p50 p99 "req/s per round"
for row in direct nginx gateway gateway-keyed gateway-replay redis-keyed redis-replay; do
  [ -n "${rps[$row]:-}" ] && printf '%-16s %12s %10s %10s  %s\n' "$row" "${rps[$row]}" "${p50[$row]}" "${p99[$row]}" "${rounds_rps[$row]}"
done
$have_nginx || echo "nginx: not installed, row skipped"
$have_redis || echo "redis-server: not installed, Redis rows skipped"
printf '\nSSE first event (ms over %s calls each)  p50 direct %s, gateway %s; p99 direct %s, gateway %s\n' \
  "$SSE_CALLS" "$(pct 50 <"$work/sse-direct")" "$(pct 50 <"$work/sse-gateway")" "$(pct 99 <"$work/sse-direct")" "$(pct 99 <"$work/sse-gateway")"

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
