package io.github.mcpgateway.proxy;

import java.io.IOException;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.web.util.WebUtils;

import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * Relays the upstream reply to the client, noticing when the client goes away.
 *
 * <p>
 * In MCP Streamable HTTP (up to 2025-11-25) a client disconnect is not a cancellation:
 * clients cancel with {@code notifications/cancelled}. So for a POST the gateway keeps
 * reading the upstream reply to its end after the client left ({@code drain} mode):
 * writes to the dead connection are dropped instead of aborting the copy, and the
 * upstream call completes normally (a {@link TappedResponse} above this one still sees
 * the whole reply, which is what lets a keyed retry be answered with a replay). For a GET
 * stream, and in MCP 2026-07-28 where closing the stream is the cancellation, the failure
 * propagates and the upstream connection is dropped.
 */
final class ClientAwareResponse extends HttpServletResponseWrapper {

	private static final String STATELESS_REVISION = "2026-07-28";

	private final boolean drain;

	private volatile boolean clientGone;

	private @Nullable ServletOutputStream stream;

	private ClientAwareResponse(HttpServletResponse response, boolean drain) {
		super(response);
		this.drain = drain;
	}

	/**
	 * The wrapper already around {@code response}, found through any wrappers above it,
	 * or a new one.
	 */
	static ClientAwareResponse of(HttpServletRequest request, HttpServletResponse response) {
		ClientAwareResponse existing = WebUtils.getNativeResponse(response, ClientAwareResponse.class);
		return (existing != null) ? existing : new ClientAwareResponse(response, drainsOnDisconnect(request));
	}

	/**
	 * A POST reply is read to its end after the client left, except where closing means
	 * cancel.
	 */
	static boolean drainsOnDisconnect(HttpServletRequest request) {
		if (!"POST".equals(request.getMethod())) {
			return false;
		}
		String version = request.getHeader(McpHeaders.PROTOCOL_VERSION);
		return version == null || version.compareTo(STATELESS_REVISION) < 0;
	}

	boolean clientGone() {
		return this.clientGone;
	}

	/** Whether the client left and the reply was therefore not read to its end. */
	boolean replyCutShort() {
		return this.clientGone && !this.drain;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.stream == null) {
			this.stream = new Guarded(super.getOutputStream());
		}
		return this.stream;
	}

	@Override
	public void flushBuffer() throws IOException {
		if (this.clientGone) {
			return;
		}
		try {
			super.flushBuffer();
		}
		catch (IOException ex) {
			lost(ex);
		}
	}

	private void lost(IOException ex) throws IOException {
		this.clientGone = true;
		if (!this.drain) {
			throw ex;
		}
	}

	private final class Guarded extends SynchronousOutputStream {

		private final ServletOutputStream delegate;

		Guarded(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			if (ClientAwareResponse.this.clientGone && ClientAwareResponse.this.drain) {
				return;
			}
			try {
				this.delegate.write(buffer, offset, length);
			}
			catch (IOException ex) {
				lost(ex);
			}
		}

		@Override
		public void flush() throws IOException {
			if (ClientAwareResponse.this.clientGone && ClientAwareResponse.this.drain) {
				return;
			}
			try {
				this.delegate.flush();
			}
			catch (IOException ex) {
				lost(ex);
			}
		}

		@Override
		public void close() throws IOException {
			if (ClientAwareResponse.this.clientGone) {
				return;
			}
			try {
				this.delegate.close();
			}
			catch (IOException ex) {
				lost(ex);
			}
		}

	}

}
