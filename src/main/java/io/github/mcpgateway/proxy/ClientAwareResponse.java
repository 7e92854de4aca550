package io.github.mcpgateway.proxy;

import java.io.IOException;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

/**
 * Notices when the client goes away while the proxy writes the upstream reply.
 *
 * <p>
 * In MCP Streamable HTTP (up to 2025-11-25) a client disconnect is not a cancellation:
 * clients cancel with {@code notifications/cancelled}. So for a POST the gateway keeps
 * reading the upstream reply to its end after the client left ({@code drain} mode):
 * writes to the dead connection are dropped instead of aborting the copy, and the
 * upstream call completes normally. For a GET stream, and in MCP 2026-07-28 where closing
 * the stream is the cancellation, the failure propagates and the upstream connection is
 * closed.
 */
final class ClientAwareResponse extends HttpServletResponseWrapper {

	private final boolean drain;

	private volatile boolean clientGone;

	private @Nullable ServletOutputStream stream;

	ClientAwareResponse(HttpServletResponse response, boolean drain) {
		super(response);
		this.drain = drain;
	}

	boolean clientGone() {
		return this.clientGone;
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

	private final class Guarded extends ServletOutputStream {

		private final ServletOutputStream delegate;

		Guarded(ServletOutputStream delegate) {
			this.delegate = delegate;
		}

		@Override
		public void write(int b) throws IOException {
			write(new byte[] { (byte) b }, 0, 1);
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

		@Override
		public boolean isReady() {
			return this.delegate.isReady();
		}

		@Override
		public void setWriteListener(WriteListener listener) {
			this.delegate.setWriteListener(listener);
		}

	}

}
