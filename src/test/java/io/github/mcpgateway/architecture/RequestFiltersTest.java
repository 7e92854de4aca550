package io.github.mcpgateway.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.Filter;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletContextInitializer;
import org.springframework.boot.web.servlet.ServletContextInitializerBeans;
import org.springframework.security.web.FilterChainProxy;

import io.github.mcpgateway.support.GatewayIntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every filter an MCP request passes, in order, as the application registers them: the
 * servlet filters (Spring Boot's, the gateway's two, Spring Security's proxy) and Spring
 * Security's chain for MCP paths. docs/architecture.md draws the same filters in the same
 * order ("Every filter on an MCP request").
 */
public class RequestFiltersTest extends GatewayIntegrationTest {

	static final List<String> SERVLET_FILTERS = List.of("ServerHttpObservationFilter", "ClientAddressLimitFilter",
			"ServerResolutionFilter", "OrderedRequestContextFilter", "springSecurityFilterChain",
			"PrincipalLimitFilter", "VirtualServerFilter", "McpPipelineFilter");

	static final List<String> MCP_SECURITY_FILTERS = List.of("SecurityContextHolderFilter",
			"AdapterCertificateAuthenticationFilter", "BearerTokenAuthenticationFilter",
			"AnonymousAuthenticationFilter", "ExceptionTranslationFilter", "AuthorizationFilter");

	@Autowired
	private ListableBeanFactory beans;

	@Autowired
	private FilterChainProxy security;

	@Test
	void mcpRequestPassesTheseServletFiltersInThisOrder() {
		assertThat(servletFilters(this.beans)).containsExactlyElementsOf(SERVLET_FILTERS);
	}

	/** The servlet filters {@code beans} registers, in the order they run. */
	public static List<String> servletFilters(ListableBeanFactory beans) {
		List<String> filters = new ArrayList<>();
		for (ServletContextInitializer initializer : new ServletContextInitializerBeans(beans)) {
			if (initializer instanceof FilterRegistrationBean<?> registration) {
				Filter filter = registration.getFilter();
				filters.add(filter.getClass().getSimpleName());
			}
			else if (initializer instanceof DelegatingFilterProxyRegistrationBean proxy) {
				filters.add(proxy.getFilterName());
			}
		}
		return filters;
	}

	@Test
	void springSecurityRunsOnlyTheFiltersThatDecideOnMcpPaths() {
		List<String> filters = this.security.getFilters("/mcp/test/guarded")
			.stream()
			.map((filter) -> filter.getClass().getSimpleName())
			.toList();

		assertThat(filters).containsExactlyElementsOf(MCP_SECURITY_FILTERS);
	}

	@Test
	void architectureDocumentDrawsTheseFiltersInTheirOrder() throws IOException {
		String document = Files.readString(Path.of("docs/architecture.md"));
		String diagram = document.substring(document.indexOf("## Every filter on an MCP request"));
		diagram = diagram.substring(0, diagram.indexOf("```", diagram.indexOf("```") + 3));
		List<String> expected = new ArrayList<>(SERVLET_FILTERS);
		expected.addAll(expected.indexOf("springSecurityFilterChain") + 1, MCP_SECURITY_FILTERS);

		int at = 0;
		for (String filter : expected) {
			int found = diagram.indexOf(filter, at);
			assertThat(found).as("%s drawn after the filters before it", filter).isGreaterThanOrEqualTo(0);
			at = found + filter.length();
		}
	}

}
