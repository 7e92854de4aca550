package io.github.mcpgateway.support;

import io.github.mcpgateway.jsonrpc.JsonReadLimits;
import io.github.mcpgateway.jsonrpc.JsonRpcMessageParser;
import io.github.mcpgateway.jsonrpc.StrictJsonReader;

/** The request parser as the gateway builds it on its default limits (1 MB bodies). */
public final class TestJsonRpc {

	public static final long MAX_BODY = 1024 * 1024;

	private TestJsonRpc() {
	}

	public static StrictJsonReader reader() {
		return new StrictJsonReader(JsonReadLimits.DEFAULTS, MAX_BODY);
	}

	public static JsonRpcMessageParser parser() {
		return new JsonRpcMessageParser(reader());
	}

}
