package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import io.github.mcpgateway.transport.McpHeaders;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * The client's response to a routed member request, without the member's
 * {@code Mcp-Session-Id}, and except that a 404 (the member, or the member's pipeline, no
 * longer knows the gateway's session with it) is caught and not relayed: the member did
 * not run the request, so the gateway opens a new member session and sends it again
 * ({@link VirtualMethods}). Every other reply goes to the client as it comes, streams
 * unbuffered.
 */
final class NotFoundCatcher extends HttpServletResponseWrapper {

	private static final ServletOutputStream DISCARD = new SynchronousOutputStream() {

		@Override
		public void write(byte[] buffer, int offset, int length) {
		}

	};

	private boolean caught;

	NotFoundCatcher(HttpServletResponse client) {
		super(client);
	}

	/** Whether the member answered 404, which the client did not see. */
	boolean caught() {
		return this.caught;
	}

	@Override
	public void setStatus(int status) {
		if (status == SC_NOT_FOUND && !isCommitted()) {
			this.caught = true;
			return;
		}
		if (!this.caught) {
			super.setStatus(status);
		}
	}

	@Override
	public void sendError(int status) throws IOException {
		if (status == SC_NOT_FOUND && !isCommitted()) {
			this.caught = true;
			return;
		}
		super.sendError(status);
	}

	@Override
	public void sendError(int status, String message) throws IOException {
		sendError(status);
	}

	@Override
	public void setHeader(String name, String value) {
		if (relayed(name)) {
			super.setHeader(name, value);
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (relayed(name)) {
			super.addHeader(name, value);
		}
	}

	/**
	 * Whether a header of the member's reply reaches the client: none after a caught 404,
	 * and never the member's {@code Mcp-Session-Id}, which names the gateway's session
	 * with the member, not the client's (a client that takes the id of every reply would
	 * lose its own).
	 */
	private boolean relayed(String name) {
		return !this.caught && !McpHeaders.SESSION_ID.equalsIgnoreCase(name);
	}

	@Override
	public void setContentType(String type) {
		if (!this.caught) {
			super.setContentType(type);
		}
	}

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		return this.caught ? DISCARD : super.getOutputStream();
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		return this.caught ? new PrintWriter(OutputStream.nullOutputStream()) : super.getWriter();
	}

	@Override
	public void flushBuffer() throws IOException {
		if (!this.caught) {
			super.flushBuffer();
		}
	}

}
