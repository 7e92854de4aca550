package io.github.mcpgateway.virtual;

import java.io.IOException;
import java.io.PrintWriter;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.transport.StreamingMediaTypes;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * One member's part of a {@link MergedStream}: the response the member's pipeline and the
 * proxy write the member's GET (or listen) reply to. Its status and headers stay here, as
 * a {@link CapturedResponse}'s (the client's are the merged stream's); its body reaches
 * the merged stream only when the member answered {@code 200} with an event stream, which
 * also opens the client's stream. Anything else (a member that offers no stream answers
 * {@code 405}, a refusal of the member's pipeline) is dropped: that member just adds
 * nothing to the client's stream.
 */
final class StreamPart extends CapturedResponse {

	private final MergedStream merged;

	private final ServletOutputStream out = new SynchronousOutputStream() {

		@Override
		public void write(byte[] buffer, int offset, int length) throws IOException {
			if (streaming()) {
				StreamPart.this.merged.write(buffer, offset, length);
			}
		}

	};

	StreamPart(HttpServletResponse client, MergedStream merged) {
		super(client, 0);
		this.merged = merged;
	}

	/** Whether the member answered with a stream that reaches the client. */
	boolean streaming() {
		return getStatus() == SC_OK && StreamingMediaTypes.isEventStream(getContentType());
	}

	@Override
	public void setStatus(int status) {
		super.setStatus(status);
		openIfStreaming();
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		super.setHeader(name, value);
		if (HttpHeaders.CONTENT_TYPE.equalsIgnoreCase(name)) {
			openIfStreaming();
		}
	}

	@Override
	public ServletOutputStream getOutputStream() {
		return this.out;
	}

	@Override
	public PrintWriter getWriter() {
		throw new IllegalStateException("The proxy writes bytes; a writer is not supported");
	}

	/** The client's stream opens as soon as this member's has. */
	private void openIfStreaming() {
		if (streaming()) {
			this.merged.open();
		}
	}

}
