#!/usr/bin/env bash
# Micro-benchmarks (JMH), by default of the Idempotency-Key hot path; JMH_INCLUDE=ConditionBenchmark
# for grant conditions. Usage: [JMH_INCLUDE=regexp] bench/jmh.sh [extra JMH options]
# Default: one fork, 3 warm-up and 5 measured iterations of 1 s each.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -B -Dspring-javaformat.skip=true test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test
java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" org.openjdk.jmh.Main \
  "${JMH_INCLUDE:-Idempotency.*Benchmark}" -f 1 -wi 3 -i 5 -w 1s -r 1s "$@"
