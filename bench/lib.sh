# Shared by bench/run.sh and bench/soak.sh (sourced from the repository root).
# Sets: work (a temporary directory), pids (processes to stop on exit), jar, cp (test classpath).
work=$(mktemp -d)
pids=()
cleanup() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

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
