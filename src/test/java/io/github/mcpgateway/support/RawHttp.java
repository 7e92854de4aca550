package io.github.mcpgateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a plain socket, for what a well-behaved client library will not send (raw
 * header bytes) or do (hang up in the middle of a call).
 */
public final class RawHttp {

	private RawHttp() {
	}

	/** The request head for a JSON POST; {@code headers} are complete header lines. */
	public static byte[] post(String path, String body, String... headers) {
		StringBuilder head = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
		head.append("Content-Type: application/json\r\nConnection: close\r\n");
		for (String header : headers) {
			head.append(header).append("\r\n");
		}
		byte[] bodyBytes = body.getBytes(StandardCharsets.UTF_8);
		head.append("Content-Length: ").append(bodyBytes.length).append("\r\n\r\n");
		byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
		byte[] request = new byte[headBytes.length + bodyBytes.length];
		System.arraycopy(headBytes, 0, request, 0, headBytes.length);
		System.arraycopy(bodyBytes, 0, request, headBytes.length, bodyBytes.length);
		return request;
	}

	/** Sends {@code request} and reads the whole response. */
	public static String exchange(int port, byte[] request) {
		try (Socket socket = new Socket("127.0.0.1", port)) {
			socket.setSoTimeout(20_000);
			socket.getOutputStream().write(request);
			socket.getOutputStream().flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/** Sends {@code request} and leaves the socket open for the caller to close. */
	public static Socket open(int port, byte[] request) {
		try {
			Socket socket = new Socket("127.0.0.1", port);
			socket.getOutputStream().write(request);
			socket.getOutputStream().flush();
			return socket;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
