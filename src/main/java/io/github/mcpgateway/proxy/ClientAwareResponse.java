package io.github.mcpgateway.proxy;

import java.io.IOException;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Relays the upstream reply to the client, noticing when the client goes away, and shows
 * every byte to an optional {@link BodyTap} whether or not the client is still there.
 *
 * <p>
 * In MCP Streamable HTTP (up to 2025-11-25) a client disconnect is not a cancellation:
 * clients cancel with {@code notifications/cancelled}. So for a POST the gateway keeps
 * reading the upstream reply to its end after the client left ({@code drain} mode):
 * writes to the dead connection are dropped instead of aborting the copy, the upstream
 * call completes normally, and the tap still sees the whole reply (this is what lets a
 * keyed retry be answered with a replay). For a GET stream, and in MCP 2026-07-28 where
 * closing the stream is the cancellation, the failure propagates and the upstream
 * connection is closed.
 */
public final class ClientAwareResponse extends HttpServletResponseWrapper {

	private static final String STATELESS_REVISION = "2026-07-28";

	private final boolean drain;

	private final @Nullable BodyTap tap;

	private volatile boolean clientGone;

	private @Nullable ServletOutputStream stream;

	private ClientAwareResponse(HttpServletResponse response, boolean drain, @Nullable BodyTap tap) {
		super(response);
		this.drain = drain;
		this.tap = tap;
	}

	/**
	 * Wraps {@code response} for relaying the reply to {@code request}, with a tap that
	 * sees the whole body.
	 */
	public static ClientAwareResponse tapped(HttpServletRequest request, HttpServletResponse response, BodyTap tap) {
		return new ClientAwareResponse(response, drainsOnDisconnect(request), tap);
	}

	/**
	 * {@code response} itself when it already is one, else a new wrapper without a tap.
	 */
	static ClientAwareResponse of(HttpServletRequest request, HttpServletResponse response) {
		return (response instanceof ClientAwareResponse existing) ? existing
				: new ClientAwareResponse(response, drainsOnDisconnect(request), null);
	}

	/**
	 * A POST reply is read to its end after the client left, except where closing means
	 * cancel.
	 */
	static boolean drainsOnDisconnect(HttpServletRequest request) {
		if (!"POST".equals(request.getMethod())) {
			return false;
		}
		String version = request.getHeader("MCP-Protocol-Version");
		return version == null || version.compareTo(STATELESS_REVISION) < 0;
	}

	boolean clientGone() {
		return this.clientGone;
	}

	/** Whether the client left and the reply was therefore not read to its end. */
	public boolean replyCutShort() {
		return this.clientGone && !this.drain;
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.stream == null) {
			this.stream = new Guarded(super.getOutputStream());
		}
		return this.stream;
	}

	/**
	 * A tapped reply's length is not declared to the container: a servlet response whose
	 * declared length has been written is closed and flushed at once (Servlet
	 * specification, closure of the response), which would let the client see the reply
	 * before its outcome is recorded. The container declares the length itself when the
	 * request ends with the body still in its buffer, and chunks a body too large for it.
	 */
	@Override
	public void setContentLength(int length) {
		if (this.tap == null) {
			super.setContentLength(length);
		}
	}

	@Override
	public void setContentLengthLong(long length) {
		if (this.tap == null) {
			super.setContentLengthLong(length);
		}
	}

	@Override
	public void setHeader(String name, String value) {
		if (!withheld(name)) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (!withheld(name)) {
			super.addHeader(name, value);
		}
	}

	@Override
	public void setIntHeader(String name, int value) {
		if (!withheld(name)) {
			super.setIntHeader(name, value);
		}
	}

	@Override
	public void addIntHeader(String name, int value) {
		if (!withheld(name)) {
			super.addIntHeader(name, value);
		}
	}

	private boolean withheld(String header) {
		return this.tap != null && HttpHeaders.CONTENT_LENGTH.equalsIgnoreCase(header);
	}

	@Override
	public void resetBuffer() {
		if (this.tap != null) {
			this.tap.reset();
		}
		super.resetBuffer();
	}

	@Override
	public void flushBuffer() throws IOException {
		if (this.clientGone || holdsBack()) {
			return;
		}
		try {
			super.flushBuffer();
		}
		catch (IOException ex) {
			lost(ex);
		}
	}

	/**
	 * A reply the tap holds back is not flushed early (the proxy's copy ends with a
	 * flush): it stays in the response buffer, sized by the tap's owner, until the
	 * request completes, so that whoever tapped it records the outcome before the client
	 * can see the reply and retry.
	 */
	private boolean holdsBack() {
		return this.tap != null && this.tap.holdsBack(getContentType());
	}

	private void lost(IOException ex) throws IOException {
		this.clientGone = true;
		if (!this.drain) {
			throw ex;
		}
	}

	/** Sees the reply body as the proxy writes it. */
	public interface BodyTap {

		void write(byte[] buffer, int offset, int length);

		/** The response buffer was reset: forget what was seen. */
		void reset();

		/**
		 * Whether a reply of this {@code Content-Type} stays in the response buffer (no
		 * flush reaches the client) until the request completes.
		 */
		boolean holdsBack(@Nullable String contentType);

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
			if (ClientAwareResponse.this.tap != null) {
				ClientAwareResponse.this.tap.write(buffer, offset, length);
			}
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
			if ((ClientAwareResponse.this.clientGone && ClientAwareResponse.this.drain) || holdsBack()) {
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
			// Closing flushes: a held-back reply is closed by the container when the
			// request ends.
			if (ClientAwareResponse.this.clientGone || holdsBack()) {
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
