/**
 * What every Redis store of the gateway shares:
 * {@link io.github.mcpgateway.redis.RedisOutage} (writes kept while Redis is unreachable,
 * the recovery window after a failure, the error counters) and
 * {@link io.github.mcpgateway.redis.RedisScripts} (Lua scripts read from resource files).
 * A ground package: it knows Redis, Micrometer and the gateway clock, and no capability.
 * Which clock each store reads, and why, is written in docs/architecture.md ("Clocks and
 * Redis").
 */
@NullMarked
package io.github.mcpgateway.redis;

import org.jspecify.annotations.NullMarked;
