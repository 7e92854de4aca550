/**
 * The bare Spring Cloud Gateway Server MVC route of {@code bench/run.sh}: the stack's
 * floor.
 */
@NullMarked
package io.github.mcpgateway.bench.bare;

import org.jspecify.annotations.NullMarked;
