package io.github.mcpgateway.audit;

import io.micrometer.core.instrument.MeterRegistry;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.request.McpAuditListener;

/**
 * The audit log and the request meters, the {@link McpAuditListener}s of every governed
 * request and the {@code VirtualAuditListener}s of every request a virtual server
 * answered.
 */
@Configuration(proxyBeanMethods = false)
class AuditConfiguration {

	@Bean
	AuditLogWriter auditLogWriter(JsonMapper jsonMapper) {
		return new AuditLogWriter(jsonMapper);
	}

	@Bean
	RequestMetricsRecorder requestMetricsRecorder(MeterRegistry meterRegistry) {
		return new RequestMetricsRecorder(meterRegistry);
	}

	@Bean
	VirtualMetricsRecorder virtualMetricsRecorder(MeterRegistry meterRegistry) {
		return new VirtualMetricsRecorder(meterRegistry);
	}

}
