# Shared by bench/run.sh and bench/soak.sh (sourced from the repository root).
# Sets: work (a temporary directory), pids (processes to stop on exit), jar, cp (test classpath),
# bare_jar (build_bare_route).
work=$(mktemp -d)
pids=()
# BENCH_KEEP=1 keeps the work directory (logs) and prints its path.
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  if [ -n "${BENCH_KEEP:-}" ]; then echo "work directory kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT

# CPU time (user + system, in clock ticks of 10 ms) of a process and its threads.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
# Resident set size of a process, in MiB.
rss_mib() { awk '/^VmRSS/ {printf "%.0f", $2/1024}' "/proc/$1/status"; }

# The median of numbers given on stdin, separated by spaces or newlines.
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_http() { for _ in $(seq 1 120); do curl -s -o /dev/null "$1" && return 0; sleep 0.5; done; echo "not up: $1" >&2; return 1; }

# Builds the jar and the test classes (the stub upstream and drivers live there).
build() {
  echo "Building..." >&2
  ./mvnw -q -B -DskipTests -Dspring-javaformat.skip=true package dependency:build-classpath \
    -Dmdep.outputFile="$work/cp.txt" -Dmdep.includeScope=test >&2
  jar=$(ls target/mcp-gateway-*.jar | head -1)
  cp="target/test-classes:$(cat "$work/cp.txt")"
}

# Starts BenchUpstream on a free port; sets up.
start_upstream() {
  up=$(free_port)
  java -Dsun.net.httpserver.nodelay=true -cp "$cp" io.github.mcpgateway.bench.BenchUpstream "$up" >"$work/upstream.log" 2>&1 &
  pids+=($!)
}

# Adds a server to the policy file "$work/policy.yaml": /mcp/<namespace>/<name> in front of the
# stub's /<stub-path> (or of another upstream's, given its base URL), every tool granted to
# everyone.
policy_server() { # name stub-path [namespace] [upstream-base-url]
  local namespace=${3:-bench} base=${4:-http://127.0.0.1:$up}
  [ -f "$work/policy.yaml" ] || echo "servers:" >"$work/policy.yaml"
  cat >>"$work/policy.yaml" <<SERVER
  - namespace: $namespace
    name: $1
    uid: $namespace-$1
    upstream: $base/$2
    path: /mcp/$namespace/$1
    grants: [{ tools: ["*"] }]
SERVER
}

# The gateway's JVM options: GATEWAY_JAVA_OPTS, or the default of every bench run.
gateway_java_opts() { echo "${GATEWAY_JAVA_OPTS:--XX:+UseG1GC -Xms512m -Xmx1g}"; }

# Starts a gateway from a jar on a port, with the demo profile (for its token endpoint) and the
# policy file ($GATEWAY_POLICY, default the one policy_server writes); the JVM from GATEWAY_JAVA (default: java on the PATH), its options from
# GATEWAY_JAVA_OPTS, more gateway arguments after the log file.
# Sets gateway_pid.
launch_gateway() { # jar port log-file gateway-args...
  local jar_file=$1 port=$2 log=$3; shift 3
  # shellcheck disable=SC2046
  "${GATEWAY_JAVA:-java}" $(gateway_java_opts) -jar "$jar_file" --spring.profiles.active=demo \
    --server.port="$port" --gateway.demo.upstream-port="$(free_port)" \
    --gateway.demo.json-upstream-port="$(free_port)" --gateway.policy.location="${GATEWAY_POLICY:-$work/policy.yaml}" \
    --gateway.proxy.bulkhead.max-concurrent-calls=1000 "$@" >"$log" 2>&1 &
  gateway_pid=$!
  pids+=("$gateway_pid")
}

# Builds the bare Spring Cloud Gateway Server MVC route (bench/bare-route, the stack's floor)
# with the root pom's Spring Boot and Spring Cloud versions, when its jar for those versions is
# missing or older than its sources. Sets bare_jar.
build_bare_route() {
  local boot cloud
  read -r boot cloud < <(python3 -c '
import xml.etree.ElementTree as ET
ns = {"m": "http://maven.apache.org/POM/4.0.0"}
pom = ET.parse("pom.xml").getroot()
print(pom.find("m:parent/m:version", ns).text, pom.find("m:properties/m:spring-cloud.version", ns).text)')
  bare_jar=bench/bare-route/target/bare-route-$boot-$cloud.jar
  if [ ! -f "$bare_jar" ] || [ -n "$(find bench/bare-route/pom.xml bench/bare-route/src -type f -newer "$bare_jar")" ]; then
    echo "Building the bare route (Spring Boot $boot, Spring Cloud $cloud)..." >&2
    ./mvnw -q -B -f bench/bare-route/pom.xml -Dspring-boot.version="$boot" -Dspring-cloud.version="$cloud" package >&2
  fi
}

# Starts the bare route on a port in front of an upstream (and of a fixed upstream on /fixed),
# with the gateway's JVM (GATEWAY_JAVA), JVM options and application.yaml (Tomcat, filters,
# client timeouts). Sets bare_pid.
launch_bare_route() { # port log-file upstream-url [fixed-upstream-url]
  # shellcheck disable=SC2046
  "${GATEWAY_JAVA:-java}" $(gateway_java_opts) -jar "$bare_jar" --server.address=127.0.0.1 --server.port="$1" \
    --spring.application.name=bare-route \
    --bare.gateway-config="$PWD/src/main/resources/application.yaml" --bare.upstream="$3" \
    ${4:+--bare.fixed-upstream="$4"} >"$2" 2>&1 &
  bare_pid=$!
  pids+=("$bare_pid")
}
