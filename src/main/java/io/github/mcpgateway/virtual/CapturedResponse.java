package io.github.mcpgateway.virtual;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.transport.CappedBuffer;
import io.github.mcpgateway.transport.HeldReply;
import io.github.mcpgateway.transport.SynchronousOutputStream;

/**
 * The reply to a member request the gateway reads itself (an {@code initialize}, a list
 * it merges), held in memory: nothing of it reaches the client's response, which this
 * wraps only so that code asking for the servlet response's type finds one.
 *
 * <p>
 * Bounded: a body past {@code maxBytes} is not kept and {@link #overflowed()} says so;
 * the caller treats such a reply as the member's failure.
 */
class CapturedResponse extends HttpServletResponseWrapper implements HeldReply {

	private final Map<String, List<String>> headers = new LinkedHashMap<>();

	private final CappedBuffer body;

	private final ServletOutputStream out;

	private int status = SC_OK;

	private @Nullable PrintWriter writer;

	private boolean committed;

	CapturedResponse(HttpServletResponse client, int maxBytes) {
		super(client);
		this.body = new CappedBuffer(maxBytes);
		this.out = new SynchronousOutputStream() {

			@Override
			public void write(byte[] buffer, int offset, int length) {
				CapturedResponse.this.committed = true;
				CapturedResponse.this.body.write(buffer, offset, length);
			}

		};
	}

	/** The body written so far. */
	byte[] body() {
		if (this.writer != null) {
			this.writer.flush();
		}
		return this.body.toByteArray();
	}

	boolean overflowed() {
		return this.body.overflowed();
	}

	@Override
	public int getStatus() {
		return this.status;
	}

	@Override
	public void setStatus(int status) {
		this.status = status;
	}

	@Override
	public void sendError(int status) {
		this.status = status;
		this.committed = true;
	}

	@Override
	public void sendError(int status, String message) {
		sendError(status);
	}

	@Override
	public void sendRedirect(String location) {
		sendError(SC_FOUND);
	}

	@Override
	public void setHeader(String name, @Nullable String value) {
		if (value == null) {
			this.headers.remove(key(name));
			return;
		}
		List<String> values = new ArrayList<>();
		values.add(value);
		this.headers.put(key(name), values);
	}

	@Override
	public void addHeader(String name, String value) {
		this.headers.computeIfAbsent(key(name), (key) -> new ArrayList<>()).add(value);
	}

	@Override
	public void setIntHeader(String name, int value) {
		setHeader(name, Integer.toString(value));
	}

	@Override
	public void addIntHeader(String name, int value) {
		addHeader(name, Integer.toString(value));
	}

	@Override
	public void setDateHeader(String name, long date) {
		setHeader(name, Long.toString(date));
	}

	@Override
	public void addDateHeader(String name, long date) {
		addHeader(name, Long.toString(date));
	}

	@Override
	public boolean containsHeader(String name) {
		return this.headers.containsKey(key(name));
	}

	@Override
	public @Nullable String getHeader(String name) {
		List<String> values = this.headers.get(key(name));
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	@Override
	public Collection<String> getHeaders(String name) {
		return List.copyOf(this.headers.getOrDefault(key(name), List.of()));
	}

	@Override
	public Collection<String> getHeaderNames() {
		return List.copyOf(this.headers.keySet());
	}

	@Override
	public void setContentType(@Nullable String type) {
		setHeader(HttpHeaders.CONTENT_TYPE, type);
	}

	@Override
	public @Nullable String getContentType() {
		return getHeader(HttpHeaders.CONTENT_TYPE);
	}

	@Override
	public void setContentLength(int length) {
	}

	@Override
	public void setContentLengthLong(long length) {
	}

	@Override
	public void setCharacterEncoding(String charset) {
	}

	@Override
	public String getCharacterEncoding() {
		return StandardCharsets.UTF_8.name();
	}

	@Override
	public ServletOutputStream getOutputStream() {
		return this.out;
	}

	@Override
	public PrintWriter getWriter() {
		if (this.writer == null) {
			this.writer = new PrintWriter(new OutputStreamWriter(this.out, StandardCharsets.UTF_8));
		}
		return this.writer;
	}

	@Override
	public void flushBuffer() {
		this.committed = true;
	}

	@Override
	public boolean isCommitted() {
		return this.committed;
	}

	@Override
	public void resetBuffer() {
		this.body.reset();
	}

	@Override
	public void reset() {
		this.body.reset();
		this.headers.clear();
		this.status = SC_OK;
	}

	@Override
	public void setBufferSize(int size) {
	}

	private static String key(String name) {
		return name.toLowerCase(Locale.ROOT);
	}

}
