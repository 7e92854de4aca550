#!/usr/bin/env bash
# Where the gateway's CPU goes: one gateway in front of the JDK stub, warmed up, then a JFR
# recording of 30 s of wrk load (8 connections) in one mode, bucketed by component
# (bench/jfr_components.py). Usage: bench/profile.sh [plain|fresh|replay] [jar]
# (PROFILE_REDIS=1: the Redis idempotency store, on a redis-server started here; more gateway
# arguments in PROFILE_ARGS)
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-plain}
source bench/lib.sh
build
JAR=$(readlink -f "${2:-$jar}")
start_upstream
policy_server json mcp
port=$(free_port)
extra=()
if [ -n "${PROFILE_REDIS:-}" ]; then
  rport=$(free_port)
  redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
  pids+=($!)
  extra+=(--gateway.idempotency.store=redis --spring.data.redis.host=127.0.0.1 --spring.data.redis.port="$rport")
fi
# shellcheck disable=SC2206
extra+=(${PROFILE_ARGS:-})
launch_gateway "$JAR" "$port" "$work/gateway.log" "${extra[@]}"
wait_http "http://127.0.0.1:$port/actuator/health/readiness"
tokens=""
for i in $(seq 1 8); do tokens="$tokens $(curl -s "http://127.0.0.1:$port/demo/token?human=bench-$i&ttlSeconds=3600")"; done
url="http://127.0.0.1:$port/mcp/bench/json"
echo "Warming up (60 s)..." >&2
BENCH_TOKENS="$tokens" BENCH_MODE=$MODE wrk -t8 -c8 -d60s -s bench/wrk/mcp.lua "$url" >&2
jcmd "$gateway_pid" JFR.start name=bench settings="${PROFILE_SETTINGS:-$PWD/bench/cpu-sampling.jfc}" filename="$work/gateway.jfr" >/dev/null
BENCH_TOKENS="$tokens" BENCH_MODE=$MODE wrk -t8 -c8 -d30s -s bench/wrk/mcp.lua "$url" | grep 'Requests/sec' >&2
jcmd "$gateway_pid" JFR.stop name=bench >/dev/null
python3 bench/jfr_components.py "$work/gateway.jfr"
cp "$work/gateway.jfr" "${PROFILE_OUT:-/tmp/gateway-$MODE.jfr}"
