package io.github.mcpgateway.audit;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import io.github.mcpgateway.request.McpAuditEvent;
import tools.jackson.databind.json.JsonMapper;

/** Subscribes the audit log and the request meters to {@link McpAuditEvent}s. */
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

}
