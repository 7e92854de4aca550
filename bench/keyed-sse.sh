#!/usr/bin/env bash
# First-event latency of a keyed tools/call answered with an event stream, through the gateway
# with gateway.idempotency.event-streams=deliver-once (the contract) and =replay (ADR 0008).
# Both gateways run at once and calls alternate between them, so a slow moment falls on both.
# Every call has its own key and its own principal (deliver-once leaves a tombstone per call,
# and a scope has 8). Usage: bench/keyed-sse.sh   (BENCH_SSE_CALLS=300)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
CALLS=${BENCH_SSE_CALLS:-300}

build
start_upstream
policy_server sse sse
once=$(free_port); launch_gateway "$jar" "$once" "$work/once.log" --gateway.idempotency.event-streams=deliver-once
replay=$(free_port); launch_gateway "$jar" "$replay" "$work/replay.log" --gateway.idempotency.event-streams=replay
wait_http "http://127.0.0.1:$once/actuator/health/readiness"
wait_http "http://127.0.0.1:$replay/actuator/health/readiness"

first_event() { # port n -> ms to the first byte (the first event)
  local token
  token=$(curl -s "http://127.0.0.1:$1/demo/token?human=sse-$2&ttlSeconds=600")
  curl -s -N -o /dev/null -w '%{time_starttransfer}\n' -X POST -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -H "Authorization: Bearer $token" \
    -H "Idempotency-Key: k-$2-$RANDOM$RANDOM" \
    -d '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}' \
    "http://127.0.0.1:$1/mcp/bench/sse" | awk '{printf "%.3f\n", $1*1000}'
}
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(NR*p/100); if (i<1) i=1; print a[i]}'; }

for i in $(seq 1 50); do first_event "$once" "w$i" >/dev/null; first_event "$replay" "w$i" >/dev/null; done
for i in $(seq 1 "$CALLS"); do
  first_event "$once" "$i" >>"$work/once.ms"
  first_event "$replay" "$i" >>"$work/replay.ms"
done
[ "$(wc -l <"$work/once.ms")" -eq "$CALLS" ] && [ "$(wc -l <"$work/replay.ms")" -eq "$CALLS" ] \
  || { echo "calls failed" >&2; exit 1; }
printf 'Keyed event-stream first event (ms over %s calls each)\n' "$CALLS"
printf '  deliver-once  p50 %s  p99 %s\n' "$(pct 50 <"$work/once.ms")" "$(pct 99 <"$work/once.ms")"
printf '  replay        p50 %s  p99 %s\n' "$(pct 50 <"$work/replay.ms")" "$(pct 99 <"$work/replay.ms")"
