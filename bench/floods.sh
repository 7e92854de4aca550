#!/usr/bin/env bash
# Issue 36, finding 2: what one caller's flood does to another principal, with the per-caller
# bounds on and off. Starts the packaged gateway twice on loopback (Java 17 platform threads,
# Tomcat's 200), in front of the bench stub, and runs each flood for FLOOD_SECONDS while a second
# principal calls tools/call (two loops, 50 ms apart): slow bodies with an invalid token and with
# a valid one (220 connections, a byte every 2 s), 230 listen streams of one principal, and
# initialize by one principal (8 loops, at most 3,000, against a session table of 2,000) while
# the other's session, opened before, stays idle (used once after the flood: an error if it was
# pushed out). Prints, per flood and setting, the other principal's calls,
# errors, p50 and p99. Everything stays on 127.0.0.1 and stops by itself.
# "off" is the gateway as it was before issue 36: caps off, Tomcat's swallow size (2MB) and
# connection timeout (60s), no body deadline.
# Usage: bench/floods.sh   (FLOOD_SECONDS=20; BENCH_KEEP=1 keeps the logs)
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_FLOOD=${FLOOD_SECONDS:-20}
source bench/lib.sh

build
up=$(free_port)
java -cp "$cp" io.github.mcpgateway.bench.BenchUpstream "$up" 600 >"$work/upstream.log" 2>&1 &
pids+=($!)
policy_server json mcp
policy_server listen listen

OFF=(--gateway.admission.max-requests-per-address=0 --gateway.admission.max-requests-per-principal=0
  --gateway.admission.max-streams-per-principal=0 --gateway.admission.max-streams=0
  --gateway.session.max-per-principal=2000
  --server.tomcat.max-swallow-size=2MB --server.tomcat.connection-timeout=60s
  --gateway.request.body-read-timeout=1h)

printf '%-6s %-15s %8s %8s %9s %9s  %s\n' caps flood calls errors p50_ms p99_ms "flood (requests, refused; error kinds)"
for setting in on off; do
  port=$(free_port)
  args=(--gateway.session.max-bindings=2000)
  [ "$setting" = off ] && args+=("${OFF[@]}")
  launch_gateway "$jar" "$port" "$work/gateway-$setting.log" "${args[@]}"
  wait_http "http://127.0.0.1:$port/actuator/health/readiness"
  attacker=$(curl -s "http://127.0.0.1:$port/demo/token?human=mallory&ttlSeconds=3600")
  victim=$(curl -s "http://127.0.0.1:$port/demo/token?human=carol&ttlSeconds=3600")
  for flood in none slow-body slow-body-auth streams sessions; do
    case $flood in slow-body*) n=220 ;; streams) n=230 ;; sessions) n=3000 ;; *) n=0 ;; esac
    line=$(timeout $((SECONDS_PER_FLOOD + 40)) python3 bench/floods.py "$port" "$flood" "$attacker" "$victim" \
      "$SECONDS_PER_FLOOD" "$n")
    python3 -c 'import json,sys; r=json.loads(sys.argv[2]); print("%-6s %-15s %8s %8s %9s %9s  %s, %s; %s" % (sys.argv[1], r["flood"], r["victim_calls"], r["victim_errors"], r["p50_ms"], r["p99_ms"], r["flood_requests"], r["flood_refused"], ",".join(r["victim_error_kinds"]) or "-"))' "$setting" "$line"
    sleep 3
  done
  kill "$gateway_pid"; wait "$gateway_pid" 2>/dev/null || true
done
