# syntax=docker/dockerfile:1
# Two stages: the build stage runs exactly the project's test command (./mvnw -B verify), so the
# image ships the jar the tests tested; the runtime stage holds a JRE and Spring Boot's layers only.

FROM eclipse-temurin:21-jdk AS build
# redis-server: the test suite starts a real one for the Redis idempotency store tests.
RUN apt-get update \
 && apt-get install -y --no-install-recommends redis-server \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /workspace
COPY mvnw pom.xml ./
COPY .mvn .mvn
RUN ./mvnw -B -q dependency:go-offline
COPY src src
# The build checks these too: the configuration reference and the Helm chart.
COPY docs docs
COPY helm helm
# SKIP_TESTS=true builds the jar without running the suite (about 10 minutes on 2 cores): for a
# trial image, never for one you ship.
ARG SKIP_TESTS=false
RUN ./mvnw -B verify -DskipTests=${SKIP_TESTS} \
 && cp target/mcp-gateway-*.jar /workspace/app.jar \
 && java -Djarmode=tools -jar /workspace/app.jar extract --layers --destination /workspace/extracted \
 && mv /workspace/extracted/application/mcp-gateway-*.jar /workspace/extracted/application/app.jar

# The runtime is JDK 25: its AOT cache (JEP 483, 514, 515; built below) is what brings the start
# to about 3 s. The jar is Java 17 bytecode and runs on any JDK from 17; on 17 the start takes
# about 4 s with a CDS archive and 7 s without (docs/performance.md, "Start-up and memory").
FROM eclipse-temurin:25-jre
RUN groupadd --system --gid 10001 gateway \
 && useradd --system --uid 10001 --gid gateway --home-dir /app --shell /usr/sbin/nologin gateway
WORKDIR /app
# Least-changing layers first, so a code change rebuilds only the last one.
COPY --from=build /workspace/extracted/dependencies/ ./
COPY --from=build /workspace/extracted/spring-boot-loader/ ./
COPY --from=build /workspace/extracted/snapshot-dependencies/ ./
COPY --from=build /workspace/extracted/application/ ./
# The policy (and revocation) files are mounted, never baked in: see helm/mcp-gateway.
# JVM options for a sidecar, chosen by bench/footprint.sh (docs/performance.md, "Start-up and
# memory"; figures on 2 cores, JDK 25): the serial collector (one collector thread, no
# concurrent work, pauses of a few ms on a heap this small) with the heap at a quarter of the
# container's memory (the live heap is 30 to 40 MiB after load and after a flood of keyed
# calls; the chart's 384Mi limit gives 96 MiB), shrunk after collections; a young generation
# of at least 16 MiB (without it the serial collector kept it at 2.4 MiB beside the shrinking
# old one: a young collection every 12 ms under load, 30 to 60 % fewer calls in the first 30 s,
# for 7 MiB of RSS).
ENV SPRING_PROFILES_ACTIVE=container \
    JAVA_TOOL_OPTIONS="-XX:+UseSerialGC -XX:MaxRAMPercentage=25 -XX:NewSize=16m -XX:MinHeapFreeRatio=10 -XX:MaxHeapFreeRatio=30 -XX:+ExitOnOutOfMemoryError" \
    GATEWAY_POLICY_LOCATION=/etc/mcp-gateway/policy/policy.yaml
# The AOT cache: a training run that starts the context (a placeholder policy and issuer; the
# context ends once refreshed, spring.context.exit=onRefresh) and records the classes it loaded
# and linked and the methods' profiles. Ready in 2.7 to 3.2 s instead of 7 s on 2 cores.
RUN printf 'servers:\n  - {namespace: training, name: training, uid: training, upstream: "http://127.0.0.1:9/mcp", path: /mcp/training/training, grants: [{tools: ["*"]}]}\n' >/tmp/training-policy.yaml \
 && java -XX:AOTCacheOutput=/app/app.aot -Dspring.context.exit=onRefresh -jar app.jar \
      --gateway.policy.location=file:/tmp/training-policy.yaml --gateway.identity.oauth.issuer=https://training.invalid \
      --gateway.identity.oauth.jwk-set-uri=https://training.invalid/jwks --gateway.identity.oauth.audiences=training \
 && rm /tmp/training-policy.yaml
USER 10001:10001
EXPOSE 8080 9090
# Ready in about 3 s (docs/performance.md): 15 s of grace, five times that, then three
# failures 10 s apart.
HEALTHCHECK --interval=10s --timeout=3s --start-period=15s --retries=3 \
  CMD bash -c 'exec 3<>/dev/tcp/127.0.0.1/9090 && printf "GET /actuator/health/liveness HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3 && grep -q "\"status\":\"UP\"" <&3'
# -XX:AOTCache: a JVM whose options differ from the training run's (another collector, say)
# warns and starts without the cache, slower but correct.
ENTRYPOINT ["java", "-XX:AOTCache=/app/app.aot", "-jar", "app.jar"]
