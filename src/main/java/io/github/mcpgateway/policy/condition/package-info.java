/**
 * Grant conditions ({@code when}): CEL expressions over the request, compiled and
 * type-checked when the policy is read, evaluated in process within a step and time
 * budget. See ADR 0018 and docs/configuration.md, "Conditions".
 */
@NullMarked
package io.github.mcpgateway.policy.condition;

import org.jspecify.annotations.NullMarked;
