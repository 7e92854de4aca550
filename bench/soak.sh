#!/usr/bin/env bash
# Soak: SOAK_MINUTES (10) of mixed keyed and unkeyed tools/call traffic from SOAK_THREADS (16)
# clients and 8 principals, against an upstream that answers at random with success, 422, 500 or
# a reset mid-body, while one principal is revoked for 5 s every 20 s. Reports the outcomes, the
# executions per operation (and any operation run again after an outcome the gateway must keep),
# heap after a full GC at start and end, and the idempotency store's counts at the end.
# Not part of ./mvnw verify. Usage: bench/soak.sh
set -euo pipefail
cd "$(dirname "$0")/.."
MINUTES=${SOAK_MINUTES:-10}
THREADS=${SOAK_THREADS:-16}
source bench/lib.sh
build
start_upstream
policy_server faulty faulty soak
echo '{}' >"$work/revocations.json"
gw=$(free_port)
GATEWAY_JAVA_OPTS=-Xmx512m launch_gateway "$jar" "$gw" "$work/gateway.log" \
  --gateway.revocation.source="$work/revocations.json" --gateway.identity.operators[0].human=ops \
  --gateway.proxy.circuit-breaker.failure-rate-threshold=100
gwpid=$gateway_pid
wait_http "http://127.0.0.1:$gw/actuator/health/readiness"
for i in $(seq 1 8); do curl -s "http://127.0.0.1:$gw/demo/token?human=soak-$i&ttlSeconds=86400"; done >"$work/tokens"
ops=$(curl -s "http://127.0.0.1:$gw/demo/token?human=ops&ttlSeconds=86400")

heap() { jcmd "$gwpid" GC.run >/dev/null; sleep 1
  curl -s "http://127.0.0.1:$gw/actuator/metrics/jvm.memory.used?tag=area:heap" -H "Authorization: Bearer $ops" \
    | python3 -c 'import json,sys; print("%.1f MiB" % (json.load(sys.stdin)["measurements"][0]["value"]/1048576))'; }
start_heap=$(heap)
echo "Soaking for $MINUTES minute(s) with $THREADS clients..." >&2
java -cp "$cp" io.github.mcpgateway.bench.SoakDriver "http://127.0.0.1:$gw" "$work/tokens" "$work/revocations.json" \
  "$THREADS" "$MINUTES" >"$work/driver.out"
end_heap=$(heap)

echo "== Soak: $MINUTES min, $THREADS clients, $(date -u +%FT%TZ), $(nproc) cores"
echo "-- responses seen by the clients (outcome: count)"
cat "$work/driver.out"
echo "-- upstream executions"
curl -s "http://127.0.0.1:$up/stats"; echo
echo "-- idempotency store at the end"
curl -s "http://127.0.0.1:$gw/actuator/idempotency" -H "Authorization: Bearer $ops"; echo
echo "-- heap after full GC: start $start_heap, end $end_heap"
violations=$(curl -s "http://127.0.0.1:$up/stats" | python3 -c 'import json,sys; print(json.load(sys.stdin)["violations"])')
[ "$violations" = 0 ]
