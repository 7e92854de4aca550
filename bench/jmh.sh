#!/usr/bin/env bash
# Micro-benchmarks of the Idempotency-Key hot path (JMH). Usage: bench/jmh.sh [extra JMH options]
# Default: one fork, 3 warm-up and 5 measured iterations of 1 s each.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -Dspring-javaformat.skip=true test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" org.openjdk.jmh.Main \
  "Idempotency.*Benchmark" -f 1 -wi 3 -i 5 -w 1s -r 1s "$@"
