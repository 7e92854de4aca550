package io.github.mcpgateway.proxy;

import java.io.IOException;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.util.MultiValueMap;
import org.springframework.web.servlet.ModelAndView;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * A proxied streaming reply whose status and headers reach the client as soon as the
 * upstream's have arrived, before any body byte.
 *
 * <p>
 * Spring Cloud Gateway's proxy sets the status and headers, then copies the body read by
 * read, flushing after each: nothing leaves the response buffer until the first read
 * returns. An upstream that opens an event stream and stays quiet (a GET stream waiting
 * for server notifications, a tool that thinks before its first progress event) would
 * leave the client without even a status line; SDK clients time out or never learn the
 * stream is open. So the response is committed the moment the proxy asks for the output
 * stream, which it does after the upstream's headers are in and before its first read.
 * Every wrapper below sees an ordinary {@code flushBuffer()}; one that holds a reply back
 * (a keyed JSON reply, a JSON {@code tools/list}) is never streaming and never wrapped.
 */
final class HeadersFirstResponse implements ServerResponse {

	private final ServerResponse proxied;

	HeadersFirstResponse(ServerResponse proxied) {
		this.proxied = proxied;
	}

	@Override
	public HttpStatusCode statusCode() {
		return this.proxied.statusCode();
	}

	@Override
	public HttpHeaders headers() {
		return this.proxied.headers();
	}

	@Override
	public MultiValueMap<String, Cookie> cookies() {
		return this.proxied.cookies();
	}

	@Override
	public @Nullable ModelAndView writeTo(HttpServletRequest request, HttpServletResponse response, Context context)
			throws ServletException, IOException {
		return this.proxied.writeTo(request, new CommitOnFirstUse(response), context);
	}

	private static final class CommitOnFirstUse extends HttpServletResponseWrapper {

		private boolean committed;

		CommitOnFirstUse(HttpServletResponse response) {
			super(response);
		}

		@Override
		public ServletOutputStream getOutputStream() throws IOException {
			ServletOutputStream stream = super.getOutputStream();
			if (!this.committed) {
				this.committed = true;
				flushBuffer();
			}
			return stream;
		}

	}

}
