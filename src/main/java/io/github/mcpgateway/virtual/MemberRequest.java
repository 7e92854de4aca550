package io.github.mcpgateway.virtual;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

import io.github.mcpgateway.request.CachedBodyRequest;

/**
 * A request the gateway makes to a virtual server's member on the client's behalf (a
 * POST, or the GET of the member's stream): the client's request (its connection, its
 * verified caller) with the member's path, a body ({@link CachedBodyRequest#replacing})
 * and the headers this member must see in place of the client's ones.
 *
 * <p>
 * Its attributes are its own, not the client request's: the member's pipeline pins the
 * member's server, opens its own context and marks its own filters as run on it, and none
 * of that may leak into the client's request or into another member's.
 */
final class MemberRequest extends HttpServletRequestWrapper {

	private final HttpServletRequest client;

	private final String method;

	private final String path;

	/** Lower-case header name to its value; {@code null}: the header is removed. */
	private final Map<String, @Nullable String> headers;

	private final Map<String, Object> attributes = new ConcurrentHashMap<>();

	private MemberRequest(HttpServletRequest client, String method, String path, byte[] body,
			Map<String, @Nullable String> headers) {
		super(CachedBodyRequest.replacing(client, body));
		this.client = client;
		this.method = method;
		this.path = path;
		this.headers = headers;
	}

	/**
	 * A POST of {@code body} to {@code path}, with {@code headers} (names in any case, a
	 * {@code null} value removes the client's) in place of the client's.
	 */
	static MemberRequest post(HttpServletRequest client, String path, byte[] body,
			Map<String, @Nullable String> headers) {
		Map<String, @Nullable String> lower = lowerCase(headers);
		lower.put(HttpHeaders.CONTENT_LENGTH.toLowerCase(Locale.ROOT), Integer.toString(body.length));
		// A member's reply is read whole by the gateway or relayed as it comes: never a
		// resumed stream of the client's.
		lower.putIfAbsent("last-event-id", null);
		return new MemberRequest(client, "POST", path, body, lower);
	}

	/**
	 * A GET of {@code path} (the member's stream), with {@code headers} in place of the
	 * client's, {@code Last-Event-ID} among them: the member's own or none.
	 */
	static MemberRequest get(HttpServletRequest client, String path, Map<String, @Nullable String> headers) {
		Map<String, @Nullable String> lower = lowerCase(headers);
		lower.put(HttpHeaders.CONTENT_LENGTH.toLowerCase(Locale.ROOT), null);
		lower.put(HttpHeaders.CONTENT_TYPE.toLowerCase(Locale.ROOT), null);
		lower.putIfAbsent("last-event-id", null);
		return new MemberRequest(client, "GET", path, new byte[0], lower);
	}

	/** The client's request this one is made for (its attributes are not this one's). */
	HttpServletRequest client() {
		return this.client;
	}

	private static Map<String, @Nullable String> lowerCase(Map<String, @Nullable String> headers) {
		Map<String, @Nullable String> lower = new LinkedHashMap<>();
		headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value));
		return lower;
	}

	@Override
	public String getMethod() {
		return this.method;
	}

	@Override
	public String getRequestURI() {
		return getContextPath() + this.path;
	}

	@Override
	public StringBuffer getRequestURL() {
		StringBuffer url = new StringBuffer();
		url.append(getScheme()).append("://").append(getServerName()).append(':').append(getServerPort());
		return url.append(getRequestURI());
	}

	@Override
	public String getServletPath() {
		return this.path;
	}

	@Override
	public @Nullable String getPathInfo() {
		return null;
	}

	@Override
	public @Nullable String getQueryString() {
		return null;
	}

	@Override
	public DispatcherType getDispatcherType() {
		return DispatcherType.REQUEST;
	}

	@Override
	public @Nullable String getHeader(String name) {
		String key = name.toLowerCase(Locale.ROOT);
		return this.headers.containsKey(key) ? this.headers.get(key) : super.getHeader(name);
	}

	@Override
	public Enumeration<String> getHeaders(String name) {
		String key = name.toLowerCase(Locale.ROOT);
		if (!this.headers.containsKey(key)) {
			return super.getHeaders(name);
		}
		String value = this.headers.get(key);
		return Collections.enumeration((value != null) ? List.of(value) : List.of());
	}

	@Override
	public Enumeration<String> getHeaderNames() {
		List<String> names = new ArrayList<>();
		for (String name : Collections.list(super.getHeaderNames())) {
			if (!this.headers.containsKey(name.toLowerCase(Locale.ROOT))) {
				names.add(name);
			}
		}
		this.headers.forEach((name, value) -> {
			if (value != null) {
				names.add(name);
			}
		});
		return Collections.enumeration(names);
	}

	@Override
	public long getDateHeader(String name) {
		String key = name.toLowerCase(Locale.ROOT);
		return this.headers.containsKey(key) ? -1 : super.getDateHeader(name);
	}

	@Override
	public int getIntHeader(String name) {
		String value = getHeader(name);
		return (value != null) ? Integer.parseInt(value) : -1;
	}

	@Override
	public @Nullable String getContentType() {
		return getHeader(HttpHeaders.CONTENT_TYPE);
	}

	@Override
	public @Nullable Object getAttribute(String name) {
		return this.attributes.get(name);
	}

	@Override
	public Enumeration<String> getAttributeNames() {
		return Collections.enumeration(new ArrayList<>(this.attributes.keySet()));
	}

	@Override
	public void setAttribute(String name, @Nullable Object value) {
		if (value == null) {
			this.attributes.remove(name);
		}
		else {
			this.attributes.put(name, value);
		}
	}

	@Override
	public void removeAttribute(String name) {
		this.attributes.remove(name);
	}

}
