package io.github.mcpgateway.audit;

import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiConsumer;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.context.event.EventListener;
import org.springframework.util.Assert;

import io.github.mcpgateway.idempotency.OperatorActionEvent;
import io.github.mcpgateway.redact.ShownText;
import io.github.mcpgateway.request.AuditContribution;
import io.github.mcpgateway.request.McpAuditEvent;
import io.github.mcpgateway.request.McpAuditListener;
import io.github.mcpgateway.session.SessionEvent;
import io.github.mcpgateway.stdio.StdioProcessEvent;
import io.github.mcpgateway.virtual.VirtualAuditEvent;
import io.github.mcpgateway.virtual.VirtualAuditListener;

/**
 * Writes each {@link McpAuditEvent} as one JSON object on the dedicated {@code mcp.audit}
 * logger, so operators can route audit lines to their own appender and retention. A
 * request's event comes with its caller's strings bounded; a session event's are bounded
 * here ({@link ShownText#bounded}). A virtual server's own line
 * ({@link VirtualAuditEvent}) has the request line's core fields, then its own.
 */
public class AuditLogWriter implements McpAuditListener, VirtualAuditListener {

	/** The logger name operators route audit lines by. */
	public static final String LOGGER_NAME = "mcp.audit";

	private static final Log auditLog = LogFactory.getLog(LOGGER_NAME);

	private final JsonMapper jsonMapper;

	public AuditLogWriter(JsonMapper jsonMapper) {
		Assert.notNull(jsonMapper, "jsonMapper must not be null");
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void onRequest(McpAuditEvent event) {
		if (auditLog.isInfoEnabled()) {
			auditLog.info(json(event));
		}
	}

	@Override
	public void onVirtualRequest(VirtualAuditEvent event) {
		if (auditLog.isInfoEnabled()) {
			auditLog.info(json(event));
		}
	}

	@EventListener
	public void onSessionEvent(SessionEvent event) {
		if (auditLog.isInfoEnabled()) {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("time", event.time().toString());
			fields.put("session_event", event.type().name().toLowerCase(java.util.Locale.ROOT));
			fields.put("session_id", ShownText.bounded(event.sessionId()));
			fields.put("server", event.serverKey());
			fields.put("human", ShownText.bounded(event.human()));
			auditLog.info(this.jsonMapper.writeValueAsString(fields));
		}
	}

	/**
	 * A stdio server's process started or ended: the session, the human, and for an end
	 * its cause and exit status; never the command, its environment or a message.
	 */
	@EventListener
	public void onStdioProcessEvent(StdioProcessEvent event) {
		if (auditLog.isInfoEnabled()) {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("time", event.time().toString());
			fields.put("stdio_process", event.type().name().toLowerCase(java.util.Locale.ROOT));
			fields.put("server", event.serverKey());
			fields.put("session_id", ShownText.bounded(event.sessionId()));
			fields.put("human", ShownText.bounded(event.human()));
			fields.put("pid", event.pid());
			if (event.type() == StdioProcessEvent.Type.ENDED) {
				fields.put("cause", event.cause());
				fields.put("exit_code", event.exitCode());
			}
			auditLog.info(this.jsonMapper.writeValueAsString(fields));
		}
	}

	@EventListener
	public void onOperatorAction(OperatorActionEvent event) {
		if (auditLog.isInfoEnabled()) {
			Map<String, Object> fields = new LinkedHashMap<>();
			fields.put("time", event.time().toString());
			fields.put("operator_action", event.action());
			fields.put("operator", ShownText.bounded(event.operator()));
			fields.put("idempotency_key_hash", event.idempotencyKeyHash());
			fields.put("succeeded", event.succeeded());
			auditLog.info(this.jsonMapper.writeValueAsString(fields));
		}
	}

	/**
	 * The event as one JSON object, written field by field: this runs on every request,
	 * so without building a map to serialize. Absent values are {@code null}; then come
	 * the fields of each capability that handled the request
	 * ({@link McpAuditEvent#contributions()}: the idempotency fields only for keyed
	 * requests, the upstream credential fields only for servers with an
	 * {@code upstream-auth} mode, the task fields only for requests the task stage
	 * handled), and the trace fields only when the gateway traces.
	 */
	String json(McpAuditEvent event) {
		StringWriter out = new StringWriter(512);
		try (JsonGenerator json = this.jsonMapper.createGenerator(out)) {
			json.writeStartObject();
			writeCore(json, event);
			if (!event.contributions().isEmpty()) {
				BiConsumer<String, @Nullable String> field = json::writeStringProperty;
				for (AuditContribution contribution : event.contributions()) {
					contribution.writeFields(field);
				}
			}
			if (event.trace() != null) {
				json.writeStringProperty("trace_id", event.trace().traceId());
				json.writeStringProperty("span_id", event.trace().spanId());
			}
			json.writeEndObject();
		}
		return out.toString();
	}

	/**
	 * A virtual server's line: the request line's core fields, the virtual server as its
	 * server, then {@code virtual_server} (its {@code namespace/name}, as on the lines of
	 * its member requests), the routed member's prefix and server, and the members that
	 * failed as {@code prefix:reason} separated by commas ({@code null} when none).
	 */
	String json(VirtualAuditEvent event) {
		return json(event.asLine());
	}

	private static void writeCore(JsonGenerator json, McpAuditEvent event) {
		json.writeStringProperty("time", event.time().toString());
		json.writeStringProperty("human", event.human());
		json.writeStringProperty("agent", event.agent());
		json.writeStringProperty("team", event.team());
		json.writeStringProperty("session_id", event.sessionId());
		json.writeStringProperty("namespace", event.namespace());
		json.writeStringProperty("server", event.server());
		json.writeStringProperty("server_uid", event.serverUid());
		json.writeStringProperty("method", event.method());
		json.writeStringProperty("tool", event.tool());
		json.writeStringProperty("decision", event.decision().tag());
		json.writeStringProperty("error_code", event.errorCode());
		json.writeStringProperty("reason", (event.reason() != null) ? event.reason().auditText() : null);
		json.writeNumberProperty("status", event.status());
		json.writeNumberProperty("duration_ms", event.duration().toMillis());
		json.writeBooleanProperty("dispatched", event.dispatched());
	}

}
