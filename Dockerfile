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
RUN ./mvnw -B verify \
 && cp target/mcp-gateway-*.jar /workspace/app.jar \
 && java -Djarmode=tools -jar /workspace/app.jar extract --layers --launcher --destination /workspace/extracted

FROM eclipse-temurin:21-jre
RUN groupadd --system --gid 10001 gateway \
 && useradd --system --uid 10001 --gid gateway --home-dir /app --shell /usr/sbin/nologin gateway
WORKDIR /app
# Least-changing layers first, so a code change rebuilds only the last one.
COPY --from=build /workspace/extracted/dependencies/ ./
COPY --from=build /workspace/extracted/spring-boot-loader/ ./
COPY --from=build /workspace/extracted/snapshot-dependencies/ ./
COPY --from=build /workspace/extracted/application/ ./
USER 10001:10001
# The policy (and revocation) files are mounted, never baked in: see helm/mcp-gateway.
ENV SPRING_PROFILES_ACTIVE=container \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=50 -XX:+ExitOnOutOfMemoryError -XX:+UseG1GC" \
    GATEWAY_POLICY_LOCATION=/etc/mcp-gateway/policy/policy.yaml
EXPOSE 8080 9090
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD bash -c 'exec 3<>/dev/tcp/127.0.0.1/9090 && printf "GET /actuator/health/liveness HTTP/1.0\r\nHost: localhost\r\n\r\n" >&3 && grep -q "\"status\":\"UP\"" <&3'
ENTRYPOINT ["java", "org.springframework.boot.loader.launch.JarLauncher"]
