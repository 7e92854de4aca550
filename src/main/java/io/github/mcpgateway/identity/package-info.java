/**
 * Who is calling: Spring Security's chains (public documents, Actuator, MCP paths, the
 * last cut to the filters that decide there), OAuth2 JWT verification with the resource
 * audience, adapter certificates, the mapping of claims to an MCP principal, and the
 * 401/403/503 answers.
 */
@NullMarked
package io.github.mcpgateway.identity;

import org.jspecify.annotations.NullMarked;
