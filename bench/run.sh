#!/usr/bin/env bash
# One-command benchmark: the same tools/call load, in one run, against the upstreams directly,
# nginx as a reverse proxy, a bare Spring Cloud Gateway Server MVC route on the gateway's stack
# (bench/bare-route: the floor of the gateway's request path), and the gateway (unkeyed, fresh
# keys, replays; memory and Redis stores); one-connection latency; the first SSE event's
# latency direct vs through the gateway; CPU per call for every row, the gateway's heap and RSS. Prints a table, then every target
# with its measured value and met / not met.
# Usage: bench/run.sh   (BENCH_ROUNDS=3 BENCH_DURATION=10s BENCH_WARMUP=3s BENCH_MAX_WARMUP=15 BENCH_THREADS=8)
# Exits non-zero only when a row it should measure cannot be measured.
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
build_bare_route
start_upstream
uppid=${pids[-1]}

# nginx, twice: "fixed" answers every request with a fixed JSON-RPC result (an upstream that
# costs almost nothing, so a ratio against it shows the proxy itself); "proxy" is a plain
# keep-alive reverse proxy in front of the JDK stub (port ng) and of "fixed" (port ngf). Two
# instances, so that each row's CPU is the proxy's alone.
start_nginx() { # name config-body -> sets nginx_pid (the master)
  mkdir -p "$work/$1"
  cat >"$work/$1/nginx.conf" <<NGINX
worker_processes 2;
error_log $work/$1/error.log;
pid $work/$1/nginx.pid;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/$1; proxy_temp_path $work/$1; fastcgi_temp_path $work/$1;
  uwsgi_temp_path $work/$1; scgi_temp_path $work/$1;
  $2
}
NGINX
  nginx -c "$work/$1/nginx.conf" -g 'daemon off;' >"$work/$1.log" 2>&1 &
  nginx_pid=$!
  pids+=("$nginx_pid")
}
FIXED_REPLY='{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"bench"}],"isError":false}}'
if $have_nginx; then
  fx=$(free_port); ng=$(free_port); ngf=$(free_port)
  start_nginx fixed "server { listen 127.0.0.1:$fx; location / { default_type application/json; return 200 '$FIXED_REPLY'; } }"
  fixedpid=$nginx_pid
  start_nginx proxy "upstream stub { server 127.0.0.1:$up; keepalive 64; }
  upstream fixed { server 127.0.0.1:$fx; keepalive 64; }
  server { listen 127.0.0.1:$ng; location / { proxy_pass http://stub; proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_buffering off; } }
  server { listen 127.0.0.1:$ngf; location / { proxy_pass http://fixed; proxy_http_version 1.1; proxy_set_header Connection \"\"; proxy_buffering off; } }"
  proxypid=$nginx_pid
  policy_server fixed "" bench "http://127.0.0.1:$fx"
fi
policy_server json mcp
policy_server big big
policy_server sse sse

start_gateway() { # name port extra-args...
  local name=$1 port=$2; shift 2
  launch_gateway "$jar" "$port" "$work/$name.log" --gateway.identity.operators[0].human=bench-ops "$@"
}
gw=$(free_port); start_gateway gateway "$gw"; gwpid=$gateway_pid
# The bare route: the stub on every path, nginx's fixed reply on /fixed.
bare=$(free_port)
launch_bare_route "$bare" "$work/bare.log" "http://127.0.0.1:$up" "$($have_nginx && echo "http://127.0.0.1:$fx")"
barepid=$bare_pid
if $have_redis; then
  rport=$(free_port)
  redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
  pids+=($!)
  gwr=$(free_port); start_gateway gateway-redis "$gwr" --gateway.idempotency.store=redis \
    --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$rport"
  gwrpid=$gateway_pid
fi

wait_http "http://127.0.0.1:$gw/actuator/health/readiness"
wait_http "http://127.0.0.1:$bare/mcp"
$have_redis && wait_http "http://127.0.0.1:$gwr/actuator/health/readiness"
tokens=""
for i in $(seq 1 "$THREADS"); do tokens="$tokens $(curl -s "http://127.0.0.1:$gw/demo/token?human=bench-$i&ttlSeconds=3600")"; done
tokens_redis=""
if $have_redis; then
  for i in $(seq 1 "$THREADS"); do tokens_redis="$tokens_redis $(curl -s "http://127.0.0.1:$gwr/demo/token?human=bench-$i&ttlSeconds=3600")"; done
fi
ops=$(curl -s "http://127.0.0.1:$gw/demo/token?human=bench-ops&ttlSeconds=3600")
heap() { jcmd "$gwpid" GC.run >/dev/null; sleep 1
  curl -s "http://127.0.0.1:$gw/actuator/metrics/jvm.memory.used?tag=area:heap" -H "Authorization: Bearer $ops" \
    | python3 -c 'import json,sys; print("%.1f" % (json.load(sys.stdin)["measurements"][0]["value"]/1048576))'; }
idle_rss=$(rss_mib "$gwpid")
bare_idle_rss=$(rss_mib "$barepid")
idle_heap=$(heap)

# The process whose CPU a row is charged to: the proxy of the row (for direct rows, the
# upstream itself).
declare -A row_pid=([direct]=$uppid [gateway]=$gwpid [gateway-keyed]=$gwpid [gateway-replay]=$gwpid
  [gateway-fixed]=$gwpid [gateway-fixed-c1]=$gwpid [bare]=$barepid)
$have_nginx && row_pid+=([nginx]=$proxypid [nginx-fixed]=$proxypid [nginx-fixed-c1]=$proxypid
  [fixed]=$fixedpid [fixed-c1]=$fixedpid [bare-fixed]=$barepid [bare-fixed-c1]=$barepid)
$have_redis && row_pid+=([redis-keyed]=$gwrpid [redis-replay]=$gwrpid)
# nginx's CPU is its master's and its workers' (children).
proc_ticks() { local total=0 p; for p in $1 $(pgrep -P "$1" || true); do total=$(( total + $(cpu_ticks "$p") )); done; echo $total; }

declare -A rps p50 p99 cpu rounds_rps rounds_p50 rounds_p99 rounds_cpu
failed=0
to_us() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v)} else if (v ~ /ms$/) {sub(/ms$/,"",v); v*=1000} else if (v ~ /s$/) {sub(/s$/,"",v); v*=1000000}; printf "%.0f\n", v}'; }
rate() { # url mode tokens duration [connections] -> requests per second (empty when the run failed)
  local c=${5:-$THREADS}
  BENCH_TOKENS="$3" BENCH_MODE="$2" wrk -t"$c" -c"$c" -d"$4" -s bench/wrk/mcp.lua "$1" 2>/dev/null \
    | awk '/Requests\/sec/ {printf "%.0f", $2}'
}
# One measured round of a row: WARMUP unmeasured, then DURATION measured, with the CPU time the
# row's process spent during the measured part.
measure() { # row url mode tokens [connections]
  local row=$1 url=$2 mode=$3 toks=$4 c=${5:-$THREADS}
  rate "$url" "$mode" "$toks" "$WARMUP" "$c" >/dev/null
  local out before after
  before=$(proc_ticks "${row_pid[$row]}")
  out=$(BENCH_TOKENS="$toks" BENCH_MODE="$mode" wrk -t"$c" -c"$c" -d"$DURATION" --latency -s bench/wrk/mcp.lua "$url" 2>&1) || true
  after=$(proc_ticks "${row_pid[$row]}")
  echo "$out" >>"$work/$row.wrk"
  local requests bad
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  bad=$(echo "$out" | awk '/Non-2xx or 3xx responses/ {print $5}')
  if [ -z "$requests" ] || [ "$requests" = 0 ] || [ "${bad:-0}" -gt $(( ${requests:-0} / 100 )) ]; then
    echo "Row $row failed:" >&2; echo "$out" >&2; failed=1; return
  fi
  rounds_rps[$row]="${rounds_rps[$row]:-} $(echo "$out" | awk '/Requests\/sec/ {print $2}')"
  rounds_p50[$row]="${rounds_p50[$row]:-} $(echo "$out" | awk '$1=="50%" {print $2}' | to_us)"
  rounds_p99[$row]="${rounds_p99[$row]:-} $(echo "$out" | awk '$1=="99%" {print $2}' | to_us)"
  rounds_cpu[$row]="${rounds_cpu[$row]:-} $(( (after - before) * 10000 / requests ))"
  if [ "$row" = gateway ]; then load_rss=$(rss_mib "$gwpid"); fi
  if [ "$row" = bare ]; then bare_load_rss=$(rss_mib "$barepid"); fi
}

# JIT warm-up: each gateway (and the bare route) runs every measured path in 10 s windows until its throughput over
# a window is within 5 % of the window before (at least 3, at most BENCH_MAX_WARMUP windows).
# On 2 cores the JIT needs a minute or more before a gateway reaches its steady state, and a
# row measured earlier would compare a cold gateway with a warm one.
warm_up() { # name url tokens [modes]
  local previous=0 current window
  for window in $(seq 1 "${BENCH_MAX_WARMUP:-15}"); do
    current=0
    for mode in ${4:-plain fresh replay}; do
      current=$(( current + $(rate "$2" "$mode" "$3" 10s || echo 0) ))
    done
    echo "  $1 warm-up window $window: $current req/s (sum of modes: ${4:-plain fresh replay})" >&2
    if [ "$window" -ge 3 ] && awk -v a="$current" -v b="$previous" 'BEGIN {exit !(b > 0 && (a-b)/b < 0.05 && (b-a)/b < 0.05)}'; then
      return
    fi
    previous=$current
  done
}
echo "Warming up until throughput is stable..." >&2
warm_up gateway "http://127.0.0.1:$gw/mcp/bench/json" "$tokens"
$have_nginx && rate "http://127.0.0.1:$gw/mcp/bench/fixed" plain "$tokens" 10s >/dev/null
$have_redis && warm_up gateway-redis "http://127.0.0.1:$gwr/mcp/bench/json" "$tokens_redis"
# The bare route forwards every call alike (an Idempotency-Key is one more header): one mode.
warm_up bare "http://127.0.0.1:$bare/mcp" "" plain
$have_nginx && rate "http://127.0.0.1:$bare/fixed" plain "" 10s >/dev/null

# Rows are measured in ROUNDS interleaved rounds, so that drift on a shared machine (other
# tenants, the JIT, GC) falls on every row alike. A row's req/s and CPU per call are the mean
# of its rounds, its p50 and p99 the median of its rounds'.
ROUNDS=${BENCH_ROUNDS:-3}
echo "Measuring ($ROUNDS rounds; per row and round ${THREADS} connections (c1 rows: 1), ${WARMUP} warm-up, ${DURATION} measured)..." >&2
for round in $(seq 1 "$ROUNDS"); do
  measure direct "http://127.0.0.1:$up/mcp" plain ""
  $have_nginx && measure nginx "http://127.0.0.1:$ng/mcp" plain ""
  measure bare "http://127.0.0.1:$bare/mcp" plain ""
  measure gateway "http://127.0.0.1:$gw/mcp/bench/json" plain "$tokens"
  measure gateway-keyed "http://127.0.0.1:$gw/mcp/bench/json" fresh "$tokens"
  measure gateway-replay "http://127.0.0.1:$gw/mcp/bench/json" replay "$tokens"
  if $have_redis; then
    measure redis-keyed "http://127.0.0.1:$gwr/mcp/bench/json" fresh "$tokens_redis"
    measure redis-replay "http://127.0.0.1:$gwr/mcp/bench/json" replay "$tokens_redis"
  fi
  if $have_nginx; then
    measure fixed "http://127.0.0.1:$fx/" plain ""
    measure nginx-fixed "http://127.0.0.1:$ngf/" plain ""
    measure bare-fixed "http://127.0.0.1:$bare/fixed" plain ""
    measure gateway-fixed "http://127.0.0.1:$gw/mcp/bench/fixed" plain "$tokens"
    measure fixed-c1 "http://127.0.0.1:$fx/" plain "" 1
    measure nginx-fixed-c1 "http://127.0.0.1:$ngf/" plain "" 1
    measure bare-fixed-c1 "http://127.0.0.1:$bare/fixed" plain "" 1
    measure gateway-fixed-c1 "http://127.0.0.1:$gw/mcp/bench/fixed" plain "$tokens" 1
  fi
done
for row in "${!rounds_rps[@]}"; do
  rps[$row]=$(echo ${rounds_rps[$row]} | tr ' ' '\n' | awk '{s+=$1} END {printf "%.0f", s/NR}')
  cpu[$row]=$(echo ${rounds_cpu[$row]} | tr ' ' '\n' | awk '{s+=$1} END {printf "%.0f", s/NR}')
  p50[$row]=$(echo ${rounds_p50[$row]} | median)
  p99[$row]=$(echo ${rounds_p99[$row]} | median)
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

# Memory: the heap after a full GC once the load has run, then a flood of unique keys with
# 32 KiB replies from 16 principals; the store must stay at its bound (256 entries, 8 MiB of
# bodies) and the heap after a full GC flat.
load_heap=$(heap)
flood_tokens=""
for i in $(seq 1 16); do flood_tokens="$flood_tokens $(curl -s "http://127.0.0.1:$gw/demo/token?human=flood-$i&ttlSeconds=3600")"; done
BENCH_TOKENS="$flood_tokens" BENCH_MODE=fresh wrk -t16 -c16 -d"$DURATION" -s bench/wrk/mcp.lua \
  "http://127.0.0.1:$gw/mcp/bench/big" >"$work/flood.wrk" 2>&1 || true
flood_rss=$(rss_mib "$gwpid")
heap_after=$(heap)
store=$(curl -s "http://127.0.0.1:$gw/actuator/idempotency" -H "Authorization: Bearer $ops")

printf '\n%-18s %9s %9s %9s %9s   %s\n' row "req/s" "p50 us" "p99 us" "CPU us" "req/s per round"
for row in direct nginx bare gateway gateway-keyed gateway-replay redis-keyed redis-replay fixed nginx-fixed bare-fixed \
    gateway-fixed fixed-c1 nginx-fixed-c1 bare-fixed-c1 gateway-fixed-c1; do
  [ -n "${rps[$row]:-}" ] && printf '%-18s %9s %9s %9s %9s  %s\n' "$row" "${rps[$row]}" "${p50[$row]}" "${p99[$row]}" \
    "${cpu[$row]}" "${rounds_rps[$row]}"
done
echo "(CPU us: CPU time per request of the row's proxy, from /proc: the gateway; nginx for nginx rows;"
echo " the bare route for bare rows; the upstream itself for direct and fixed. c1 rows: one connection,"
echo " latency only. bare: a Spring Cloud Gateway Server MVC route on the gateway's stack, nothing else.)"
$have_nginx || echo "nginx: not installed, nginx and fixed-upstream rows skipped"
$have_redis || echo "redis-server: not installed, Redis rows skipped"
printf '\nSSE first event (ms over %s calls each)  p50 direct %s, gateway %s; p99 direct %s, gateway %s\n' \
  "$SSE_CALLS" "$(pct 50 <"$work/sse-direct")" "$(pct 50 <"$work/sse-gateway")" "$(pct 99 <"$work/sse-direct")" "$(pct 99 <"$work/sse-gateway")"

printf '\nMemory of the gateway (memory store): heap after full GC %s MiB idle, %s MiB after the load;\n' "$idle_heap" "$load_heap"
printf '  RSS %s MiB idle, %s MiB under the c=%s load, %s MiB after the flood\n' "$idle_rss" "${load_rss:-?}" "$THREADS" "$flood_rss"
printf 'Memory of the bare route: RSS %s MiB idle, %s MiB under the c=%s load\n' "$bare_idle_rss" "${bare_load_rss:-?}" "$THREADS"
printf 'Memory flood (%s, 16 principals, unique keys, 32 KiB replies): %s requests\n' "$DURATION" \
  "$(awk '/requests in/ {print $1}' "$work/flood.wrk")"
echo "  store after the flood: $store"
echo "  heap after full GC: before ${load_heap} MiB, after ${heap_after} MiB"

# Targets: value, then met / not met. A target whose rows were skipped says so.
target() { # name value-expression comparison limit unit
  if [ -z "$2" ]; then printf '%-52s %8s  (target %s %s%s: not measured)\n' "$1" "-" "$3" "$4" "$5"; return; fi
  awk -v n="$1" -v v="$2" -v op="$3" -v t="$4" -v u="$5" 'BEGIN {
    ok = (op == ">=") ? (v >= t) : (v <= t)
    printf "%-52s %8.2f  (target %s %s%s: %s)\n", n, v, op, t, u, (ok ? "met" : "NOT met") }'
}
ratio_of() { [ -n "${rps[$1]:-}" ] && [ -n "${rps[$2]:-}" ] && awk -v a="${rps[$1]}" -v b="${rps[$2]}" 'BEGIN {print a/b}'; return 0; }
diff_of() { [ -n "${2:-}" ] && [ -n "${3:-}" ] && awk -v a="$2" -v b="$3" 'BEGIN {print a-b}'; return 0; }
echo
echo "Targets (issue 40):"
target "gateway unkeyed / bare route, fixed upstream, c=$THREADS" "$(ratio_of gateway-fixed bare-fixed)" ">=" 0.95 ""
target "gateway unkeyed / bare route, stub, c=$THREADS" "$(ratio_of gateway bare)" ">=" 0.95 ""
target "keyed first calls / unkeyed (throughput)" "$(ratio_of gateway-keyed gateway)" ">=" 0.9 ""
printf '%-52s %8s\n' "added median latency at c=1, gateway - bare (us)" "$(diff_of x "${p50[gateway-fixed-c1]:-}" "${p50[bare-fixed-c1]:-}")"
printf '%-52s %8s\n' "CPU per call, gateway - bare, fixed upstream (us)" "$(diff_of x "${cpu[gateway-fixed]:-}" "${cpu[bare-fixed]:-}")"
printf '%-52s %8s\n' "bare route / nginx proxy, fixed upstream, c=$THREADS" "$(ratio_of bare-fixed nginx-fixed | awk '{printf "%.2f", $1}')"
echo "Targets (issue 27):"
target "gateway CPU per unkeyed call (us)" "${cpu[gateway]:-}" "<=" 190 ""
target "gateway CPU per keyed call, memory store (us)" "${cpu[gateway-keyed]:-}" "<=" 220 ""
target "gateway CPU per replay (us)" "${cpu[gateway-replay]:-}" "<=" 90 ""
target "keyed first calls / unkeyed (throughput)" "$(ratio_of gateway-keyed gateway)" ">=" 0.9 ""
target "gateway unkeyed / nginx proxy, fixed upstream, c=$THREADS" "$(ratio_of gateway-fixed nginx-fixed)" ">=" 0.4 ""
echo "Targets (issue 17):"
target "gateway CPU per unkeyed call (us)" "${cpu[gateway]:-}" "<=" 150 ""
target "gateway CPU per keyed call, memory store (us)" "${cpu[gateway-keyed]:-}" "<=" 180 ""
target "gateway CPU per replay (us)" "${cpu[gateway-replay]:-}" "<=" 60 ""
target "Redis keyed CPU - memory keyed CPU (us)" "$(diff_of x "${cpu[redis-keyed]:-}" "${cpu[gateway-keyed]:-}")" "<=" 60 ""
target "gateway unkeyed / nginx proxy, fixed upstream, c=$THREADS" "$(ratio_of gateway-fixed nginx-fixed)" ">=" 0.35 ""
target "added median latency at c=1, gateway (us)" "$(diff_of x "${p50[gateway-fixed-c1]:-}" "${p50[fixed-c1]:-}")" "<=" 200 ""
printf '%-52s %8s\n' "added p99 latency at c=1, gateway (us)" "$(diff_of x "${p99[gateway-fixed-c1]:-}" "${p99[fixed-c1]:-}")"
printf '%-52s %8s\n' "added median latency at c=1, nginx proxy (us)" "$(diff_of x "${p50[nginx-fixed-c1]:-}" "${p50[fixed-c1]:-}")"
echo "Earlier targets:"
target "keyed first calls / unkeyed" "$(ratio_of gateway-keyed gateway)" ">=" 0.95 ""
target "replays / forwarded calls" "$(ratio_of gateway-replay gateway)" ">=" 1.5 ""
target "gateway unkeyed / direct" "$(ratio_of gateway direct)" ">=" 0.5 ""
target "gateway unkeyed / nginx" "$(ratio_of gateway nginx)" ">=" 0.6 ""
target "Redis keyed / memory keyed" "$(ratio_of redis-keyed gateway-keyed)" ">=" 0.8 ""
target "SSE first event p99, gateway - direct (ms)" "$(diff_of x "$(pct 99 <"$work/sse-gateway")" "$(pct 99 <"$work/sse-direct")")" "<=" 5 ""
exit $failed
