package io.github.mcpgateway.transport;

import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Hides the client's {@code Accept-Encoding}, so that the upstream answers a request
 * whose reply the gateway must rewrite without content coding (RFC 9110 section 12.5.3:
 * no header means any coding is acceptable in theory, identity in practice; a coded reply
 * is still withheld).
 */
public final class IdentityEncodingRequest extends HttpServletRequestWrapper {

	public IdentityEncodingRequest(HttpServletRequest request) {
		super(request);
	}

	@Override
	public @Nullable String getHeader(String name) {
		return isAcceptEncoding(name) ? null : super.getHeader(name);
	}

	@Override
	public Enumeration<String> getHeaders(String name) {
		return isAcceptEncoding(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
	}

	@Override
	public Enumeration<String> getHeaderNames() {
		List<String> names = Collections.list(super.getHeaderNames());
		names.removeIf(IdentityEncodingRequest::isAcceptEncoding);
		return Collections.enumeration(names);
	}

	private static boolean isAcceptEncoding(String name) {
		return HttpHeaders.ACCEPT_ENCODING.equalsIgnoreCase(name);
	}

}
