#!/usr/bin/env bash
# The multi-replica proof (issue 15, docs/reliability.md): three gateway replicas behind nginx
# (round robin, keep-alive), one redis-server (AOF), one real MCP server (the demo's Java SDK
# server, with sessions and event streams), and ReplicaDriver running sessions with keyed and
# unkeyed calls through nginx while this script
#   (a) kills one replica with SIGKILL mid-load (and starts it again),
#   (b) restarts Redis,
#   (c) restarts every replica one after another (SIGTERM, graceful), as a rolling update does.
# The driver then counts executions per key in the server's notes and checks the invariants;
# this script exits non-zero when one breaks.
# Usage: bench/replicas.sh   (REPLICAS_WORKERS=6, REPLICAS_STEADY_SECONDS=8)
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/lib.sh
WORKERS=${REPLICAS_WORKERS:-6}
STEADY=${REPLICAS_STEADY_SECONDS:-8}
for tool in nginx redis-server redis-cli; do
  command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install nginx redis-server)" >&2; exit 2; }
done

build
phase() { echo "$1" >"$work/phase.tmp"; mv "$work/phase.tmp" "$work/phase"; echo "[$(date +%T)] phase: $1" >&2; }
phase steady

# Redis, with an append-only file: what it acknowledged survives its restart.
redis_port=$(free_port)
mkdir -p "$work/redis"
start_redis() {
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly yes --appendfsync everysec \
    --dir "$work/redis" >>"$work/redis.log" 2>&1 &
  redis_pid=$!
  pids+=("$redis_pid")
  for _ in $(seq 1 50); do redis-cli -p "$redis_port" ping >/dev/null 2>&1 && return 0; sleep 0.1; done
  echo "redis did not start" >&2; return 1
}
start_redis

# The hub: the demo's MCP server (Java SDK, sessions, event streams) and the token issuer that
# every replica trusts. It is a gateway process in the demo profile; only its demo upstream
# and its /demo endpoints are used.
hub=$(free_port); mcp=$(free_port)
java -Xmx384m -XX:TieredStopAtLevel=1 -jar "$jar" --spring.profiles.active=demo --server.port="$hub" --gateway.demo.upstream-port="$mcp" \
  --gateway.demo.json-upstream-port="$(free_port)" >"$work/hub.log" 2>&1 &
pids+=($!)
wait_http "http://127.0.0.1:$hub/actuator/health/readiness"
cat >"$work/policy.yaml" <<POLICY
servers:
  - namespace: bench
    name: notes
    uid: bench-notes
    upstream: http://127.0.0.1:$mcp/mcp
    path: /mcp/bench/notes
    grants: [{ principal: { team: demo }, tools: ["*"] }]
POLICY

ports=($(free_port) $(free_port) $(free_port))
replica_pids=(0 0 0)
start_replica() { # index
  local port=${ports[$1]}
  java -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" --spring.profiles.active=demo --server.port="$port" \
    --gateway.demo.upstream-port="$(free_port)" --gateway.demo.json-upstream-port="$(free_port)" \
    --gateway.policy.location="$work/policy.yaml" \
    --gateway.identity.oauth.issuer="http://127.0.0.1:$hub/demo" \
    --gateway.identity.oauth.jwk-set-uri="http://127.0.0.1:$hub/demo/jwks.json" \
    --gateway.session.store=redis --gateway.idempotency.store=redis \
    --spring.data.redis.port="$redis_port" \
    --gateway.idempotency.redis.lease=5s --gateway.idempotency.redis.lease-renew-interval=1s \
    --spring.lifecycle.timeout-per-shutdown-phase=20s >>"$work/replica-$1.log" 2>&1 &
  replica_pids[$1]=$!
  pids+=($!)
}
wait_replica() { wait_http "http://127.0.0.1:${ports[$1]}/actuator/health/readiness"; }
for i in 0 1 2; do start_replica "$i"; done
for i in 0 1 2; do wait_replica "$i"; done

# nginx: round robin over the three, keep-alive to them, no buffering (event streams). A refused
# connection is tried on the next replica; a request already sent is never resent by nginx.
# write_nginx [index-taken-out] writes the configuration, with that replica marked down (as a
# Kubernetes Service drops a terminating pod from its endpoints).
lb=$(free_port)
mkdir -p "$work/nginx"
write_nginx() {
  local state=("" "" "")
  [ -n "${1:-}" ] && state[$1]=" down"
  cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
daemon off;
pid $work/nginx/nginx.pid;
error_log $work/nginx/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $work/nginx/body;
  proxy_temp_path $work/nginx/proxy;
  fastcgi_temp_path $work/nginx/fastcgi;
  uwsgi_temp_path $work/nginx/uwsgi;
  scgi_temp_path $work/nginx/scgi;
  upstream gateways {
    server 127.0.0.1:${ports[0]} max_fails=1 fail_timeout=2s${state[0]};
    server 127.0.0.1:${ports[1]} max_fails=1 fail_timeout=2s${state[1]};
    server 127.0.0.1:${ports[2]} max_fails=1 fail_timeout=2s${state[2]};
    keepalive 32;
  }
  server {
    listen 127.0.0.1:$lb;
    location / {
      proxy_pass http://gateways;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_read_timeout 120s;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries 3;
    }
  }
}
NGINX
}
write_nginx
nginx -p "$work/nginx" -c "$work/nginx.conf" 2>>"$work/nginx/error.log" &
pids+=($!)
wait_http "http://127.0.0.1:$lb/actuator/health/readiness"

java -cp "$cp" io.github.mcpgateway.bench.ReplicaDriver "http://127.0.0.1:$lb" "http://127.0.0.1:$hub/demo/token" \
  "$work/phase" "$work/stop" "$WORKERS" >"$work/driver.out" 2>&1 &
driver=$!
sleep "$STEADY"

# (a) SIGKILL one replica under load, then start it again.
phase kill
kill -KILL "${replica_pids[1]}"
sleep 3
start_replica 1
wait_replica 1
sleep 5

# (b) Restart Redis (a clean shutdown: the AOF has every acknowledged write).
phase redis-restart
redis-cli -p "$redis_port" shutdown >/dev/null 2>&1 || true
wait "$redis_pid" 2>/dev/null || true
sleep 2
start_redis
sleep 5

# (c) A rolling restart, as Kubernetes does it: each replica in turn leaves the balancer, gets
# SIGTERM after a 2 s pre-stop pause, stops gracefully (its GET streams end at once), starts
# again and comes back once ready.
phase rolling
for i in 0 1 2; do
  write_nginx "$i"; nginx -p "$work/nginx" -c "$work/nginx.conf" -s reload
  sleep 2
  start=$(date +%s.%N)
  kill -TERM "${replica_pids[$i]}"
  wait "${replica_pids[$i]}" 2>/dev/null || true
  awk -v i="$i" -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "replica %d stopped in %.1f s\n", i, e - s }' >&2
  start_replica "$i"
  wait_replica "$i"
  write_nginx; nginx -p "$work/nginx" -c "$work/nginx.conf" -s reload
  sleep 2
done

phase after
sleep "$STEADY"
touch "$work/stop"
status=0
wait "$driver" || status=$?
cat "$work/driver.out"
grep -h "Shutting down: ended" "$work"/replica-*.log | sed 's/^.*Shutting down/  replica log: Shutting down/' >&2 || true
exit "$status"
