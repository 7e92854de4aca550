#!/usr/bin/env bash
# Start-up time and memory of the gateway, for each JVM configuration compared (issue 40).
# For each configuration: FOOTPRINT_STARTS starts (default 5) of the demo and of a production
# configuration (the container profile, a policy file and an OAuth issuer, no demo), each timed
# from launch to /actuator/health/readiness UP, with the RSS at ready; then one gateway (demo
# configuration, in front of the bench stub) under 60 s of c=8 tools/call load, then a flood
# of unique keys with 32 KiB replies from 16 principals, with the RSS after each and the heap
# after a full GC; and `validate` of the example files, FOOTPRINT_STARTS times.
# Prints one table per configuration: medians of the starts, and the memory figures.
#
# Usage: bench/footprint.sh [configuration...]   (default: before shipped)
#   configurations (see "configuration" below): before, jar, extracted, cds, shipped, and
#   with a JDK 25 (FOOTPRINT_JDK25, default /usr/lib/jvm/temurin-25-jdk-amd64): shipped25, aot25
#   FOOTPRINT_STARTS=5 FOOTPRINT_LOAD=60s FOOTPRINT_FLOOD=10s FOOTPRINT_MAXRAM=384m
#   FOOTPRINT_SHIPPED_OPTS: JVM options that replace the Dockerfile's in the shipped configurations
#   FOOTPRINT_BEFORE_JAR: the jar of the "before" configuration (default: the one built here),
#   for example a build of the commit before a change
#   (FOOTPRINT_MAXRAM: the memory the JVM sees, as a container limit would set it; default the
#   chart's limit)
set -euo pipefail
cd "$(dirname "$0")/.."
STARTS=${FOOTPRINT_STARTS:-5}
LOAD=${FOOTPRINT_LOAD:-60s}
FLOOD=${FOOTPRINT_FLOOD:-10s}
MAXRAM=${FOOTPRINT_MAXRAM:-384m}
JDK25=${FOOTPRINT_JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
source bench/lib.sh
command -v wrk >/dev/null || { echo "wrk is required (apt-get install wrk)" >&2; exit 1; }
build
start_upstream
policy_server json mcp
policy_server big big

# The image's JVM options (Dockerfile), before issue 40 and now. The container's memory limit
# is given as -XX:MaxRAM, so that percentages size the heap as they would in a pod.
BEFORE_OPTS="-XX:MaxRAM=$MAXRAM -XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=50 -XX:+UseG1GC"
SHIPPED_OPTS="-XX:MaxRAM=$MAXRAM ${FOOTPRINT_SHIPPED_OPTS:-$(sed -n 's/^ *JAVA_TOOL_OPTIONS="\(.*\)" *\\\?$/\1/p' Dockerfile | sed 's/-XX:SharedArchiveFile=[^ ]*//; s/-XX:AOTCache=[^ ]*//')}"

# Boot's extracted layout (what the image holds): the application jar beside lib/.
extracted="$work/extracted"
java -Djarmode=tools -jar "$jar" extract --destination "$extracted" >/dev/null
app_jar="$extracted/$(basename "$jar")"

# The production configuration: no demo; an issuer whose keys are fetched on first use.
prod_args() { # port management-port
  echo "--spring.profiles.active=container --server.address=127.0.0.1 --server.port=$1" \
    "--management.server.address=127.0.0.1 --management.server.port=$2" \
    "--gateway.identity.oauth.issuer=https://issuer.invalid --gateway.identity.oauth.jwk-set-uri=http://127.0.0.1:$up/jwks" \
    "--gateway.identity.oauth.audiences=mcp-gateway --gateway.policy.location=file:$work/policy.yaml"
}
demo_args() { # port
  echo "--spring.profiles.active=demo --server.port=$1 --gateway.demo.upstream-port=$(free_port)" \
    "--gateway.demo.json-upstream-port=$(free_port) --gateway.policy.location=file:$work/policy.yaml"
}

# A configuration: the java binary, how the application is launched, and JVM options.
# Training runs (CDS, AOT cache) use the production configuration and stop once the context
# has refreshed (spring.context.exit=onRefresh), as the Dockerfile's do.
configure() { # name -> sets java_bin, launch (array), opts
  java_bin=java; opts=$SHIPPED_OPTS
  case $1 in
    before) opts=$BEFORE_OPTS; launch=(-jar "${FOOTPRINT_BEFORE_JAR:-$jar}") ;;
    jar) launch=(-jar "$jar") ;;
    extracted) launch=(-jar "$app_jar") ;;
    cds|shipped)
      [ "$1" = cds ] && opts=$BEFORE_OPTS
      train "$1" java -XX:ArchiveClassesAtExit="$work/$1.jsa"
      launch=(-XX:SharedArchiveFile="$work/$1.jsa" -Xlog:cds=off -Xlog:cds+dynamic=off -jar "$app_jar") ;;
    shipped25|aot25)
      java_bin=$JDK25/bin/java
      [ "$1" = aot25 ] && opts=$BEFORE_OPTS
      train "$1" "$java_bin" -XX:AOTCacheOutput="$work/$1.aot"
      launch=(-XX:AOTCache="$work/$1.aot" -Xlog:aot=off -Xlog:cds=off -jar "$app_jar") ;;
    *) echo "unknown configuration: $1" >&2; exit 2 ;;
  esac
}
train() { # name java archive-option
  local name=$1 bin=$2 option=$3 port mport
  [ -f "$work/$name.trained" ] && return
  port=$(free_port); mport=$(free_port)
  # shellcheck disable=SC2046,SC2086
  "$bin" $opts "$option" -Dspring.context.exit=onRefresh -jar "$app_jar" $(prod_args "$port" "$mport") \
    >"$work/$name-training.log" 2>&1 || { echo "training run of $name failed: $work/$name-training.log" >&2; exit 1; }
  touch "$work/$name.trained"
}

# One start: launch to readiness UP, in ms, and the RSS at that moment. Leaves the process
# running (started_pid) when asked to keep it.
start_once() { # kind(demo|prod) keep(0|1) -> sets start_ms, start_rss, started_pid, started_port
  local port mport args t0 t1 health
  port=$(free_port); mport=$port
  if [ "$1" = prod ]; then mport=$(free_port); args=$(prod_args "$port" "$mport"); else args=$(demo_args "$port"); fi
  health="http://127.0.0.1:$mport/actuator/health/readiness"
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  "$java_bin" $opts "${launch[@]}" $args >"$work/start-$1.log" 2>&1 &
  started_pid=$!; started_port=$port
  until curl -sf -o /dev/null "$health"; do
    kill -0 "$started_pid" 2>/dev/null || { echo "gateway died: $work/start-$1.log" >&2; tail -20 "$work/start-$1.log" >&2; exit 1; }
    sleep 0.02
  done
  t1=$(date +%s%N)
  start_ms=$(( (t1 - t0) / 1000000 )); start_rss=$(rss_mib "$started_pid")
  if [ "$2" = 0 ]; then kill "$started_pid"; wait "$started_pid" 2>/dev/null || true; fi
}
heap_after_gc() { # pid -> MiB of heap used after a full GC (every generation, any collector)
  jcmd "$1" GC.run >/dev/null 2>&1 || true
  sleep 1
  jcmd "$1" GC.heap_info 2>/dev/null | awk '/ total / && !/space/ {for (i=1;i<=NF;i++) if ($i=="used") {v=$(i+1); sub(/K,?$/,"",v); kb+=v}}
    END {printf "%.0f", kb/1024}'
}

report() { # configuration
  local name=$1 kind i validate_ms=() p t0 t1 tokens flood
  configure "$name"
  declare -A ready rss_ready
  for kind in demo prod; do
    for i in $(seq 1 "$STARTS"); do
      start_once "$kind" 0
      ready[$kind]="${ready[$kind]:-} $start_ms"; rss_ready[$kind]="${rss_ready[$kind]:-} $start_rss"
    done
  done
  for i in $(seq 1 "$STARTS"); do
    t0=$(date +%s%N)
    # shellcheck disable=SC2086
    "$java_bin" $opts "${launch[@]}" validate --policy docs/examples/policy.yaml \
      --revocations docs/examples/revocations.json --config docs/examples/application.yaml >"$work/validate.log" 2>&1 \
      || { echo "validate failed: $work/validate.log" >&2; cat "$work/validate.log" >&2; exit 1; }
    t1=$(date +%s%N)
    validate_ms+=($(( (t1 - t0) / 1000000 )))
  done
  # Memory under load: one demo gateway in front of the stub.
  start_once demo 1; p=$started_pid
  tokens=""; for i in $(seq 1 8); do tokens="$tokens $(curl -s "http://127.0.0.1:$started_port/demo/token?human=load-$i&ttlSeconds=3600")"; done
  local rss_idle=$start_rss
  BENCH_TOKENS="$tokens" BENCH_MODE=plain wrk -t8 -c8 -d"$LOAD" -s bench/wrk/mcp.lua \
    "http://127.0.0.1:$started_port/mcp/bench/json" >"$work/$name-load.wrk" 2>&1
  local rss_load heap_load rss_flood heap_flood
  rss_load=$(rss_mib "$p"); heap_load=$(heap_after_gc "$p")
  flood=""; for i in $(seq 1 16); do flood="$flood $(curl -s "http://127.0.0.1:$started_port/demo/token?human=flood-$i&ttlSeconds=3600")"; done
  BENCH_TOKENS="$flood" BENCH_MODE=fresh wrk -t16 -c16 -d"$FLOOD" -s bench/wrk/mcp.lua \
    "http://127.0.0.1:$started_port/mcp/bench/big" >"$work/$name-flood.wrk" 2>&1
  rss_flood=$(rss_mib "$p"); heap_flood=$(heap_after_gc "$p")
  kill "$p"; wait "$p" 2>/dev/null || true

  printf '\n%s: %s %s\n' "$name" "$java_bin" "$opts ${launch[*]}" | sed "s#$work#<work>#g; s#$extracted#<extracted>#g"
  printf '  ready (ms, median of %s)      demo %6s   production %6s   (each: demo%s; production%s)\n' "$STARTS" \
    "$(echo ${ready[demo]} | tr ' ' '\n' | median)" "$(echo ${ready[prod]} | tr ' ' '\n' | median)" "${ready[demo]}" "${ready[prod]}"
  printf '  RSS at ready (MiB, median)      demo %6s   production %6s\n' \
    "$(echo ${rss_ready[demo]} | tr ' ' '\n' | median)" "$(echo ${rss_ready[prod]} | tr ' ' '\n' | median)"
  printf '  validate (ms, median)           %s   (each: %s)\n' "$(printf '%s\n' "${validate_ms[@]}" | median)" "${validate_ms[*]}"
  printf '  load %s c=8: %s req/s; RSS %s MiB idle, %s after the load, %s after the flood (%s requests)\n' "$LOAD" \
    "$(awk '/Requests\/sec/ {printf "%.0f", $2}' "$work/$name-load.wrk")" "$rss_idle" "$rss_load" "$rss_flood" \
    "$(awk '/requests in/ {print $1}' "$work/$name-flood.wrk")"
  printf '  heap after a full GC (MiB)      after the load %s, after the flood %s\n' "$heap_load" "$heap_flood"
}

for name in "${@:-before shipped}"; do
  # shellcheck disable=SC2086
  for n in $name; do report "$n"; done
done
