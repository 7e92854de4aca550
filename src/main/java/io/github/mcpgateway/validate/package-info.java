/**
 * The offline {@code validate} command ({@code java -jar mcp-gateway.jar validate}):
 * checks a policy file, a revocation document and an application configuration with the
 * parsers and binders the running gateway uses, without starting it.
 */
@NullMarked
package io.github.mcpgateway.validate;

import org.jspecify.annotations.NullMarked;
