package io.github.mcpgateway.proxy;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.http.converter.ByteArrayHttpMessageConverter;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.StringHttpMessageConverter;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

/**
 * The proxy for a request the gateway makes itself (a virtual server's member request):
 * the same handler the route runs ({@link UpstreamHandler}), called directly once the
 * member's pipeline allowed the request, so that the member request need not pass the
 * servlet's dispatch again. While it runs, the request is the thread's current request
 * (the upstream call's observer finds its context there), and the client's is put back
 * after.
 */
public final class UpstreamDispatch {

	private static final List<HttpMessageConverter<?>> CONVERTERS = List.of(new ByteArrayHttpMessageConverter(),
			new StringHttpMessageConverter());

	private final UpstreamHandler handler;

	UpstreamDispatch(UpstreamHandler handler) {
		this.handler = handler;
	}

	/** Sends {@code request} upstream and writes the reply to {@code response}. */
	public void forward(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
		RequestAttributes client = RequestContextHolder.getRequestAttributes();
		RequestContextHolder.setRequestAttributes(new ServletRequestAttributes(request, response));
		try {
			ServerResponse reply = this.handler.handle(ServerRequest.create(request, CONVERTERS));
			reply.writeTo(request, response, () -> CONVERTERS);
		}
		catch (IOException | ServletException | RuntimeException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new ServletException(ex);
		}
		finally {
			RequestContextHolder.setRequestAttributes(client);
		}
	}

}
