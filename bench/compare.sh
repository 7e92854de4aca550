#!/usr/bin/env bash
# Two gateway builds side by side, for before/after figures: both run at once in front of the
# same stub, and their measured windows alternate (A, B, A, B, ...), so that drift on a shared
# machine falls on both alike. Reports req/s and the gateway's CPU time per request (utime +
# stime from /proc), which is steadier than throughput on a machine whose cores the load
# generator shares.
# Usage: bench/compare.sh A.jar B.jar ["plain fresh replay"] [rounds]
#        (COMPARE_WARMUP=20s per mode, twice; COMPARE_DURATION=10s per window;
#         COMPARE_A_ARGS / COMPARE_B_ARGS: extra gateway arguments of each, for comparing
#         settings of one build, for example COMPARE_B_ARGS=--server.tomcat.max-keep-alive-requests=-1;
#         COMPARE_REDIS=1: both use the Redis idempotency store, on one redis-server started here;
#         COMPARE_REDIS=A or B: only that one does, the other keeps the memory store;
#         COMPARE_REDIS_REPLICA=1: that redis-server gets a replica (a second redis-server), for
#         comparing gateway.idempotency.redis.wait-for-replicas, which waits for it;
#         COMPARE_A_JAVA / COMPARE_B_JAVA: the java binary of each, default java on the PATH;
#         COMPARE_A_OPTS / COMPARE_B_OPTS: the JVM options of each (default GATEWAY_JAVA_OPTS, see lib.sh);
#         COMPARE_A_LIMITS / COMPARE_B_LIMITS: a YAML flow list of policy limits that variant's
#         bench server gets, for example
#         COMPARE_B_LIMITS='[{name: bench, tokens: 1000000000, period: 1s}]';
#         COMPARE_A_GRANTS / COMPARE_B_GRANTS: a YAML flow list that replaces the bench server's
#         grants in that variant, for example (the calls send {"text":"bench"})
#         COMPARE_B_GRANTS="[{tools: ['*'], when: 'arguments.text == \"bench\"'}]")
set -euo pipefail
cd "$(dirname "$0")/.."
A=$(readlink -f "$1"); B=$(readlink -f "$2"); MODES=${3:-"plain fresh replay"}; ROUNDS=${4:-3}
source bench/lib.sh
build
start_upstream
policy_server json mcp
redis_args=""
if [ -n "${COMPARE_REDIS:-}" ]; then
  rport=$(free_port)
  redis-server --port "$rport" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" >"$work/redis.log" 2>&1 &
  pids+=($!)
  redis_args="--gateway.idempotency.store=redis --spring.data.redis.host=127.0.0.1 --spring.data.redis.port=$rport"
  if [ -n "${COMPARE_REDIS_REPLICA:-}" ]; then
    replica_port=$(free_port)
    mkdir -p "$work/replica"
    redis-server --port "$replica_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work/replica" \
      --replicaof 127.0.0.1 "$rport" >"$work/redis-replica.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 1 40); do
      redis-cli -p "$replica_port" info replication 2>/dev/null | grep -q 'master_link_status:up' && break
      sleep 0.25
    done
    redis-cli -p "$replica_port" info replication | grep -q 'master_link_status:up' || { echo "replica not in sync" >&2; exit 1; }
  fi
fi
declare -A port pid tokens
for v in A B; do
  port[$v]=$(free_port)
  args_var="COMPARE_${v}_ARGS"
  # shellcheck disable=SC2086
  v_redis=""; if [ "${COMPARE_REDIS:-}" = 1 ] || [ "${COMPARE_REDIS:-}" = "$v" ]; then v_redis=$redis_args; fi
  java_var="COMPARE_${v}_JAVA"
  limits_var="COMPARE_${v}_LIMITS"
  grants_var="COMPARE_${v}_GRANTS"
  v_policy="$work/policy.yaml"
  if [ -n "${!limits_var:-}${!grants_var:-}" ]; then
    v_policy="$work/policy-$v.yaml"
    V_GRANTS=${!grants_var:-} V_LIMITS=${!limits_var:-} python3 - "$work/policy.yaml" >"$v_policy" <<'PY'
import os, sys
for line in open(sys.argv[1]).read().splitlines():
    if line.startswith("    grants: "):
        line = "    grants: " + (os.environ["V_GRANTS"] or line[len("    grants: "):])
        if os.environ["V_LIMITS"]:
            line += "\n    limits: " + os.environ["V_LIMITS"]
    print(line)
PY
  fi
  opts_var="COMPARE_${v}_OPTS"
  GATEWAY_JAVA_OPTS=${!opts_var:-${GATEWAY_JAVA_OPTS:-}} GATEWAY_POLICY=$v_policy GATEWAY_JAVA=${!java_var:-java} launch_gateway "${!v}" "${port[$v]}" "$work/gateway-$v.log" $v_redis ${!args_var:-}
  pid[$v]=$gateway_pid
done
for v in A B; do
  wait_http "http://127.0.0.1:${port[$v]}/actuator/health/readiness"
  for i in $(seq 1 8); do
    tokens[$v]="${tokens[$v]:-} $(curl -s "http://127.0.0.1:${port[$v]}/demo/token?human=bench-$i&ttlSeconds=3600")"
  done
done
window() { # variant mode duration -> "req/s CPU-µs-per-request"
  local before after out requests
  before=$(cpu_ticks "${pid[$1]}")
  out=$(BENCH_TOKENS="${tokens[$1]}" BENCH_MODE=$2 wrk -t8 -c8 -d"$3" -s bench/wrk/mcp.lua \
    "http://127.0.0.1:${port[$1]}/mcp/bench/json")
  after=$(cpu_ticks "${pid[$1]}")
  requests=$(echo "$out" | awk '/requests in/ {print $1}')
  echo "$(echo "$out" | awk '/Requests\/sec/ {printf "%.0f", $2}') $(( (after - before) * 10000 / requests ))"
}
echo "Warming up both builds..." >&2
for _ in 1 2; do for v in A B; do for mode in $MODES; do window "$v" "$mode" "${COMPARE_WARMUP:-20s}" >/dev/null; done; done; done
echo "Measuring $ROUNDS alternating rounds..." >&2
for mode in $MODES; do
  for _ in $(seq 1 "$ROUNDS"); do for v in A B; do echo "$mode $v $(window "$v" "$mode" "${COMPARE_DURATION:-10s}")"; done; done
done | awk -v a="$1" -v b="$2" -v aa="${COMPARE_A_ARGS:-}" -v ba="${COMPARE_B_ARGS:-}" '{rps[$1" "$2] += $3; cpu[$1" "$2] += $4; n[$1" "$2]++; if (!($1 in seen)) {seen[$1]; order[++m] = $1}}
  END {printf "%-8s %-4s %10s %16s\n", "mode", "jar", "req/s", "CPU us/request"
       for (i = 1; i <= m; i++) for (j = 1; j <= 2; j++) { v = (j == 1) ? "A" : "B"; k = order[i] " " v
         printf "%-8s %-4s %10.0f %16.0f\n", order[i], v, rps[k] / n[k], cpu[k] / n[k] }
       printf "A: %s %s\nB: %s %s\n", a, aa, b, ba}'
