#!/usr/bin/env python3
"""Buckets the JFR execution samples of a recording by component, for bench/profile.sh.

A sample is charged to the component of its deepest (closest to the leaf) frame whose class
belongs to a known component; frames of the JDK itself count only when no known frame is on
the stack (then by what they do: socket I/O, other). Prints the share of each component and
the top self frames."""
import collections
import json
import subprocess
import sys

COMPONENTS = [
    ("io.github.mcpgateway.audit.", "audit (gateway)"),
    ("ch.qos.logback.", "logging (Logback)"),
    ("org.slf4j.", "logging (Logback)"),
    ("io.github.mcpgateway.jsonrpc.", "JSON-RPC parsing (gateway)"),
    ("io.github.mcpgateway.idempotency.", "idempotency (gateway)"),
    ("io.github.mcpgateway.identity.", "identity (gateway)"),
    ("io.github.mcpgateway.", "other gateway filters"),
    ("com.nimbusds.", "JWT (Nimbus)"),
    ("org.springframework.security.oauth2.jwt.", "JWT (Nimbus)"),
    ("org.springframework.security.", "Spring Security"),
    ("org.springframework.cloud.gateway.", "Spring Cloud Gateway MVC"),
    ("org.springframework.web.servlet.", "Spring MVC (DispatcherServlet, routing)"),
    ("org.springframework.web.", "Spring Web (filters, HTTP abstractions)"),
    ("org.springframework.http.", "Spring Web (filters, HTTP abstractions)"),
    ("io.micrometer.", "Micrometer"),
    ("org.springframework.boot.actuate.", "Micrometer"),
    ("tools.jackson.", "Jackson"),
    ("com.fasterxml.jackson.", "Jackson"),
    ("org.apache.hc.", "Apache HttpClient (upstream)"),
    ("org.apache.catalina.", "Tomcat"),
    ("org.apache.coyote.", "Tomcat"),
    ("org.apache.tomcat.", "Tomcat"),
    ("io.lettuce.", "Redis (Lettuce, Netty)"),
    ("io.netty.", "Redis (Lettuce, Netty)"),
    ("redis.clients.", "Redis (Jedis)"),
    ("org.springframework.data.redis.connection.jedis.", "Redis (Jedis)"),
    ("org.springframework.data.redis.", "Redis (Spring Data Redis)"),
    ("io.github.resilience4j.", "Resilience4j"),
    ("com.github.benmanes.caffeine.", "Caffeine"),
    ("org.springframework.", "Spring (other)"),
]


def component(frames):
    for frame in frames:
        name = frame["method"]["type"]["name"].replace("/", ".")
        for prefix, label in COMPONENTS:
            if name.startswith(prefix):
                return label
    for frame in frames:
        name = frame["method"]["type"]["name"].replace("/", ".")
        if "Socket" in name or name.startswith("sun.nio.ch."):
            return "JDK socket I/O"
    return "JDK (other: GC barriers, threads, ...)"


def main(path):
    out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ExecutionSample", "--stack-depth", "64", path],
                         check=True, capture_output=True, text=True).stdout
    events = json.loads(out)["recording"]["events"]
    buckets = collections.Counter()
    leaves = collections.Counter()
    for event in events:
        frames = event["values"]["stackTrace"]["frames"] if event["values"].get("stackTrace") else []
        if not frames:
            continue
        buckets[component(frames)] += 1
        top = frames[0]["method"]
        leaves[top["type"]["name"].replace("/", ".") + "." + top["name"]] += 1
    total = sum(buckets.values()) or 1
    print("%d samples" % total)
    for label, count in buckets.most_common():
        print("%5.1f %%  %s" % (100.0 * count / total, label))
    print("\ntop self frames:")
    for name, count in leaves.most_common(15):
        print("%5.1f %%  %s" % (100.0 * count / total, name))


if __name__ == "__main__":
    main(sys.argv[1])
