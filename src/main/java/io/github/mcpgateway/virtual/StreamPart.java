package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.transport.StreamingMediaTypes;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * One member's part of a {@link MergedStream}: the response the member's pipeline and the
 * proxy write the member's GET reply to. Its status and headers stay here (the client's
 * are the merged stream's); its body reaches the merged stream only when the member
 * answered {@code 200} with an event stream. Anything else (a member that offers no
 * stream answers {@code 405}, a refusal of the member's pipeline) is dropped: that member
 * just adds nothing to the client's stream.
 */
final class StreamPart extends HttpServletResponseWrapper {

	private final MergedStream merged;

	private final ServletOutputStream out = new SynchronousOutputStream() {

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			if (streaming()) {
				StreamPart.this.merged.write(buffer, offset, length);
			}
		}

	};

	private int status = SC_OK;

	private @Nullable String contentType;

	StreamPart(HttpServletResponse client, MergedStream merged) {
		super(client);
		this.merged = merged;
	}

	/** Whether the member answered with a stream that reaches the client. */
	boolean streaming() {
		return this.status == SC_OK && StreamingMediaTypes.isEventStream(this.contentType);
	}

	@Override
	public int getStatus() {
		return this.status;
	}

	@Override
	public void setStatus(int status) {
		this.status = status;
		openIfStreaming();
	}

	/** The client's stream opens as soon as this member's has. */
	private void openIfStreaming() {
		if (streaming()) {
			this.merged.open();
		}
	}

	@Override
	public void sendError(int status) {
		this.status = status;
	}

	@Override
	public void sendError(int status, String message) {
		this.status = status;
	}

	@Override
	public void setContentType(@Nullable String type) {
		this.contentType = type;
		openIfStreaming();
	}

	@Override
	public @Nullable String getContentType() {
		return this.contentType;
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
			setContentType(value);
		}
	}

	@Override
	public void addHeader(String name, @Nullable String value) {
		setHeader(name, value);
	}

	@Override
	public void setIntHeader(String name, int value) {
	}

	@Override
	public void addIntHeader(String name, int value) {
	}

	@Override
	public void setDateHeader(String name, long date) {
	}

	@Override
	public void addDateHeader(String name, long date) {
	}

	@Override
	public void setContentLength(int length) {
	}

	@Override
	public void setContentLengthLong(long length) {
	}

	@Override
	public boolean isCommitted() {
		return false;
	}

	@Override
	public void flushBuffer() {
	}

	@Override
	public void resetBuffer() {
	}

	@Override
	public void reset() {
		this.status = SC_OK;
		this.contentType = null;
	}

	@Override
	public ServletOutputStream getOutputStream() {
		return this.out;
	}

	@Override
	public PrintWriter getWriter() {
		throw new IllegalStateException("The proxy writes bytes; a writer is not supported");
	}

}
