package io.github.mcpgateway.proxy;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.RequestHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.HttpHeadersFilter.ResponseHttpHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveContentLengthRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveForwardedRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveHopByHopRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveHopByHopResponseHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveHttp2StatusResponseHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.RemoveXForwardedRequestHeadersFilter;
import org.springframework.cloud.gateway.server.mvc.filter.TransferEncodingNormalizationRequestHeadersFilter;
import org.springframework.http.HttpHeaders;
import org.springframework.web.servlet.function.ServerRequest;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.mcpgateway.request.McpRequestContext;
import io.github.mcpgateway.request.UpstreamHeaderRule;

/**
 * The headers of a proxied request and of its relayed reply, each made in one pass: what
 * Spring Cloud Gateway's header filters and the gateway's rules would leave, without a
 * copy of the whole header map per filter.
 *
 * <p>
 * Spring Cloud Gateway's removal-only filters among the registered ones are folded into
 * the pass, by their own rules: {@code Forwarded} and {@code X-Forwarded-*} (the filters
 * registered when no trusted proxies are set), {@code Content-Length} (always on a
 * request), {@code Content-Length} beside a first {@code Transfer-Encoding} of
 * {@code chunked}, the hop-by-hop names of {@link RemoveHopByHopRequestHeadersFilter}
 * (its own set), {@code :status} on a reply. Every other registered filter (the
 * {@code Forwarded} and {@code X-Forwarded-*} writers of trusted proxies, any other) runs
 * afterwards, in its order, on the pass's result: none of the folded rules removes a
 * header those filters read or write. Then the request gets its own credential
 * ({@link CredentialHeaders}) and loses {@code Host} (the upstream's is set by the
 * client). {@code UpstreamHeadersTest} holds the result equal to Spring Cloud Gateway's
 * own filters applied one by one.
 */
final class UpstreamHeaders {

	private static final String FORWARDED = "forwarded";

	private static final String X_FORWARDED = "x-forwarded-";

	private static final String CONTENT_LENGTH = "content-length";

	private static final String STATUS = ":status";

	private final List<UpstreamHeaderRule> rules;

	private final CredentialHeaders credentials;

	private final boolean removeForwarded;

	private final boolean removeXForwarded;

	private final boolean removeContentLength;

	private final boolean normalizeTransferEncoding;

	private final Set<String> hopByHop;

	private final List<RequestHttpHeadersFilter> requestFilters;

	private final Set<String> responseHopByHop;

	private final boolean removeStatus;

	private final List<ResponseHttpHeadersFilter> responseFilters;

	/**
	 * @param requestFilters every registered request header filter, in order
	 * @param responseFilters every registered response header filter, in order
	 * @param rules the capabilities' rules ({@code Idempotency-Key}, a stateless
	 * request's session id, ...)
	 */
	UpstreamHeaders(List<RequestHttpHeadersFilter> requestFilters, List<ResponseHttpHeadersFilter> responseFilters,
			List<UpstreamHeaderRule> rules, CredentialHeaders credentials) {
		this.rules = List.copyOf(rules);
		this.credentials = credentials;
		this.removeForwarded = present(requestFilters, RemoveForwardedRequestHeadersFilter.class);
		this.removeXForwarded = present(requestFilters, RemoveXForwardedRequestHeadersFilter.class);
		this.removeContentLength = present(requestFilters, RemoveContentLengthRequestHeadersFilter.class);
		this.normalizeTransferEncoding = present(requestFilters,
				TransferEncodingNormalizationRequestHeadersFilter.class);
		this.hopByHop = present(requestFilters, RemoveHopByHopRequestHeadersFilter.class)
				? RemoveHopByHopRequestHeadersFilter.HEADERS_REMOVED_ON_REQUEST : Set.of();
		this.requestFilters = others(requestFilters, Set.of(RemoveForwardedRequestHeadersFilter.class,
				RemoveXForwardedRequestHeadersFilter.class, RemoveContentLengthRequestHeadersFilter.class,
				TransferEncodingNormalizationRequestHeadersFilter.class, RemoveHopByHopRequestHeadersFilter.class));
		this.responseHopByHop = present(responseFilters, RemoveHopByHopResponseHeadersFilter.class)
				? RemoveHopByHopRequestHeadersFilter.HEADERS_REMOVED_ON_REQUEST : Set.of();
		this.removeStatus = present(responseFilters, RemoveHttp2StatusResponseHeadersFilter.class);
		this.responseFilters = others(responseFilters,
				Set.of(RemoveHopByHopResponseHeadersFilter.class, RemoveHttp2StatusResponseHeadersFilter.class));
	}

	/** The headers the upstream of {@code request} gets. */
	HttpHeaders request(ServerRequest request, McpRequestContext context) {
		HttpHeaders incoming = request.headers().asHttpHeaders();
		boolean chunked = this.normalizeTransferEncoding && isChunked(incoming);
		HttpHeaders headers = new HttpHeaders();
		for (Map.Entry<String, List<String>> header : incoming.headerSet()) {
			String name = header.getKey().toLowerCase(Locale.ROOT);
			if (!withheld(name, chunked, context)) {
				headers.addAll(header.getKey(), header.getValue());
			}
		}
		headers = apply(this.requestFilters, headers, request);
		this.credentials.addTo(headers, context);
		headers.remove(HttpHeaders.HOST);
		return headers;
	}

	/** The upstream reply's headers the client of {@code relayed} gets. */
	HttpHeaders response(HttpHeaders upstream, ServerResponse relayed) {
		HttpHeaders headers = new HttpHeaders();
		for (Map.Entry<String, List<String>> header : upstream.headerSet()) {
			String name = header.getKey().toLowerCase(Locale.ROOT);
			if (!this.responseHopByHop.contains(name) && !(this.removeStatus && STATUS.equals(name))) {
				headers.addAll(header.getKey(), header.getValue());
			}
		}
		return apply(this.responseFilters, headers, relayed);
	}

	private boolean withheld(String name, boolean chunked, McpRequestContext context) {
		if (this.hopByHop.contains(name) || (this.removeForwarded && FORWARDED.equals(name))
				|| (this.removeXForwarded && name.startsWith(X_FORWARDED))
				|| ((this.removeContentLength || chunked) && CONTENT_LENGTH.equals(name))
				|| this.credentials.withholds(name, context)) {
			return true;
		}
		for (UpstreamHeaderRule rule : this.rules) {
			if (rule.withholds(name, context)) {
				return true;
			}
		}
		return false;
	}

	/** {@code TransferEncodingNormalizationRequestHeadersFilter}'s own test. */
	private static boolean isChunked(HttpHeaders headers) {
		String transferEncoding = headers.getFirst(HttpHeaders.TRANSFER_ENCODING);
		return transferEncoding != null && "chunked".equalsIgnoreCase(transferEncoding.trim());
	}

	private static <T> HttpHeaders apply(List<? extends HttpHeadersFilter<T>> filters, HttpHeaders headers,
			T requestOrResponse) {
		HttpHeaders filtered = headers;
		for (HttpHeadersFilter<T> filter : filters) {
			filtered = filter.apply(filtered, requestOrResponse);
		}
		return filtered;
	}

	private static boolean present(List<?> filters, Class<?> type) {
		return filters.stream().anyMatch((filter) -> filter.getClass() == type);
	}

	private static <F> List<F> others(List<F> filters, Set<Class<?>> folded) {
		List<F> others = new ArrayList<>();
		for (F filter : filters) {
			if (!folded.contains(filter.getClass())) {
				others.add(filter);
			}
		}
		return List.copyOf(others);
	}

}
