package io.github.mcpgateway.virtual;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;

import io.github.mcpgateway.jsonrpc.JsonRpcMessage;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.request.RequestBodyReader;

/**
 * Reads a virtual server's request once, by the rules a server's request is read with
 * (size cap, read timeout, JSON media type, strict UTF-8 JSON, one JSON-RPC message): a
 * request that breaks one is refused with the same error it would get on a server's path
 * ({@code GatewayErrorException}).
 */
record VirtualRequestReader(RequestBodyReader bodies, JsonRpcMessageParser parser) {

	/** The body read and the message parsed from it. */
	Read read(HttpServletRequest request) throws IOException {
		byte[] body = this.bodies.read(request);
		return new Read(body, this.parser.parse(body));
	}

	record Read(byte[] body, JsonRpcMessage message) {
	}

}
