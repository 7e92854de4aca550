/**
 * Bounded resources per caller: how many requests one client address may have in flight
 * before its identity is known ({@code ClientAddressLimitFilter}, ahead of routing and
 * Spring Security), and how many requests and listen streams one human may have in flight
 * after it ({@code PrincipalLimitFilter}, between Spring Security and the MCP pipeline).
 * Each cap is an {@code InFlightLimiter}; a refusal is 429 in the gateway's one error
 * shape, counted in {@code AdmissionMeters}. Both filters run before the pipeline reads
 * the body, so a refused request costs no body read (with tracing on, a POST without a
 * {@code traceparent} header has its body read ahead by {@code MetaTraceContextFilter}).
 * Sessions per human are bounded by the session stores
 * ({@code gateway.session.max-per-principal}), where the bindings live.
 */
@NullMarked
package io.github.mcpgateway.admission;

import org.jspecify.annotations.NullMarked;
