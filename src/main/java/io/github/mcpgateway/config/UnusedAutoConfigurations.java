package io.github.mcpgateway.config;

import java.util.Set;

import org.springframework.core.env.Environment;

/**
 * Auto-configurations that libraries on the class path bring and the gateway never uses,
 * kept out of every context: Spring Data's web support and repository metrics (Spring
 * Data is here for its Redis template only), transactions and persistence exception
 * translation (no database), and Spring Cloud's refresh scope, configuration rebinding
 * and service registration (the gateway reloads its policy itself and registers nowhere).
 * Each would be parsed, its conditions evaluated and its beans made on every start
 * (docs/performance.md, "Start-up and memory"). A filter rather than
 * {@code spring.autoconfigure.exclude}, so that an operator's own exclusions do not
 * replace these.
 */
public final class UnusedAutoConfigurations extends AutoConfigurationGate {

	/** Never imported. */
	static final Set<String> UNUSED = Set.of("org.springframework.boot.data.autoconfigure.web.DataWebAutoConfiguration",
			"org.springframework.boot.data.autoconfigure.metrics.DataRepositoryMetricsAutoConfiguration",
			"org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
			"org.springframework.boot.transaction.autoconfigure.TransactionManagerCustomizationAutoConfiguration",
			"org.springframework.boot.persistence.autoconfigure.PersistenceExceptionTranslationAutoConfiguration",
			"org.springframework.cloud.autoconfigure.RefreshAutoConfiguration",
			"org.springframework.cloud.autoconfigure.RefreshEndpointAutoConfiguration",
			"org.springframework.cloud.autoconfigure.ConfigurationPropertiesRebinderAutoConfiguration",
			"org.springframework.cloud.client.serviceregistry.AutoServiceRegistrationAutoConfiguration");

	public UnusedAutoConfigurations() {
		super(UNUSED);
	}

	@Override
	protected boolean isOpen(Environment environment) {
		return false;
	}

}
