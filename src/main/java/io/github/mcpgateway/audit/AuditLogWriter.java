package io.github.mcpgateway.audit;

import java.util.LinkedHashMap;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.event.EventListener;
import org.springframework.util.Assert;

import io.github.mcpgateway.session.SessionEvent;

import tools.jackson.databind.json.JsonMapper;

/**
 * Writes each {@link McpAuditEvent} as one JSON object on the dedicated {@code mcp.audit}
 * logger, so operators can route audit lines to their own appender and retention.
 */
public class AuditLogWriter {

	/** The logger name operators route audit lines by. */
	public static final String LOGGER_NAME = "mcp.audit";

	private static final Log auditLog = LogFactory.getLog(LOGGER_NAME);

	private final JsonMapper jsonMapper;

	public AuditLogWriter(JsonMapper jsonMapper) {
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		this.jsonMapper = jsonMapper;
	}

	@EventListener
	public void onAuditEvent(McpAuditEvent event) {
		if (auditLog.isInfoEnabled()) {
			auditLog.info(this.jsonMapper.writeValueAsString(fields(event)));
		}
	}

	@EventListener
	public void onSessionEvent(SessionEvent event) {
		if (auditLog.isInfoEnabled()) {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("time", event.time().toString());
			fields.put("session_event", event.type().name().toLowerCase(java.util.Locale.ROOT));
			fields.put("session_id", event.sessionId());
			fields.put("server", event.serverKey());
			fields.put("human", event.human());
			auditLog.info(this.jsonMapper.writeValueAsString(fields));
		}
	}

	@EventListener
	public void onOperatorAction(OperatorActionEvent event) {
		if (auditLog.isInfoEnabled()) {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("time", event.time().toString());
			fields.put("operator_action", event.action());
			fields.put("operator", event.operator());
			fields.put("idempotency_key_hash", event.idempotencyKeyHash());
			fields.put("succeeded", event.succeeded());
			auditLog.info(this.jsonMapper.writeValueAsString(fields));
		}
	}

	static Map<String, Object> fields(McpAuditEvent event) {
		Map<String, Object> fields = new LinkedHashMap<>();
		fields.put("time", event.time().toString());
		fields.put("human", event.human());
		fields.put("agent", event.agent());
		fields.put("team", event.team());
		fields.put("session_id", event.sessionId());
		fields.put("namespace", event.namespace());
		fields.put("server", event.server());
		fields.put("server_uid", event.serverUid());
		fields.put("method", event.method());
		fields.put("tool", event.tool());
		fields.put("decision", event.decision());
		fields.put("error_code", event.errorCode());
		fields.put("status", event.status());
		fields.put("duration_ms", event.duration().toMillis());
		fields.put("dispatched", event.dispatched());
		if (event.idempotency() != null) {
			fields.put("idempotency", event.idempotency());
			fields.put("idempotency_key_hash", event.idempotencyKeyHash());
		}
		return fields;
	}

}
