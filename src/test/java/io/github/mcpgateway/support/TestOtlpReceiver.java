package io.github.mcpgateway.support;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.zip.GZIPInputStream;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;

import static org.awaitility.Awaitility.await;

/**
 * An OTLP/HTTP trace receiver on a free loopback port: it decodes what the gateway's
 * exporter sends ({@code POST /v1/traces}, {@code application/x-protobuf}, gzip or not)
 * with the official OpenTelemetry protobuf definitions and keeps every span.
 */
public final class TestOtlpReceiver {

	private final HttpServer server;

	private final List<ExportedSpan> spans = new CopyOnWriteArrayList<>();

	private TestOtlpReceiver() {
		this.server = TestUpstream.serve("test-otlp", this::handle);
	}

	public static TestOtlpReceiver start() {
		return new TestOtlpReceiver();
	}

	/** The endpoint for {@code management.opentelemetry.tracing.export.otlp.endpoint}. */
	public String endpoint() {
		return "http://127.0.0.1:" + this.server.getAddress().getPort() + "/v1/traces";
	}

	public List<ExportedSpan> spans() {
		return List.copyOf(this.spans);
	}

	public List<ExportedSpan> spansOf(String traceId) {
		return this.spans.stream().filter((span) -> span.traceId().equals(traceId)).toList();
	}

	/**
	 * The first span of {@code kind} in {@code traceId}, once it has arrived (15 s at
	 * most).
	 */
	public ExportedSpan awaitSpan(String traceId, String kind) {
		await().atMost(Duration.ofSeconds(15))
			.until(() -> spansOf(traceId).stream().anyMatch((span) -> span.kind().equals(kind)));
		return spansOf(traceId).stream().filter((span) -> span.kind().equals(kind)).findFirst().orElseThrow();
	}

	/**
	 * The gateway's stage spans ({@code gateway.*}) of {@code traceId} whose parent is
	 * {@code parent}, by name, once a span named {@code awaited} has arrived.
	 */
	public Map<String, ExportedSpan> stageSpans(String traceId, ExportedSpan parent, String awaited) {
		await().atMost(Duration.ofSeconds(15))
			.until(() -> spansOf(traceId).stream().anyMatch((span) -> span.name().equals(awaited)));
		return spansOf(traceId).stream()
			.filter((span) -> span.name().startsWith("gateway.") && span.parentSpanId().equals(parent.spanId()))
			.collect(Collectors.toMap(ExportedSpan::name, (span) -> span, (a, b) -> a));
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			if (!"POST".equals(exchange.getRequestMethod())
					|| !"/v1/traces".equals(exchange.getRequestURI().getPath())) {
				exchange.sendResponseHeaders(404, -1);
				return;
			}
			InputStream body = exchange.getRequestBody();
			if ("gzip".equalsIgnoreCase(exchange.getRequestHeaders().getFirst("Content-Encoding"))) {
				body = new GZIPInputStream(body);
			}
			ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body.readAllBytes());
			for (ResourceSpans resourceSpans : request.getResourceSpansList()) {
				Map<String, String> resource = attributes(resourceSpans.getResource());
				for (ScopeSpans scopeSpans : resourceSpans.getScopeSpansList()) {
					for (io.opentelemetry.proto.trace.v1.Span span : scopeSpans.getSpansList()) {
						this.spans.add(ExportedSpan.of(span, resource));
					}
				}
			}
			byte[] reply = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
			exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
			exchange.sendResponseHeaders(200, reply.length);
			exchange.getResponseBody().write(reply);
		}
	}

	private static Map<String, String> attributes(Resource resource) {
		return attributes(resource.getAttributesList());
	}

	static Map<String, String> attributes(List<KeyValue> attributes) {
		return attributes.stream()
			.collect(Collectors.toMap(KeyValue::getKey, (attribute) -> text(attribute.getValue()), (a, b) -> b));
	}

	private static String text(AnyValue value) {
		return switch (value.getValueCase()) {
			case STRING_VALUE -> value.getStringValue();
			case BOOL_VALUE -> Boolean.toString(value.getBoolValue());
			case INT_VALUE -> Long.toString(value.getIntValue());
			case DOUBLE_VALUE -> Double.toString(value.getDoubleValue());
			default -> value.toString();
		};
	}

	/**
	 * One exported span, ids in lower-case hex as W3C trace context writes them; the
	 * parent id is empty for a root span.
	 */
	public record ExportedSpan(String traceId, String spanId, String parentSpanId, String name, String kind,
			Map<String, String> attributes, String statusCode, String statusMessage, long durationNanos,
			List<String> eventNames, Map<String, String> resource) {

		static ExportedSpan of(io.opentelemetry.proto.trace.v1.Span span, Map<String, String> resource) {
			HexFormat hex = HexFormat.of();
			List<String> events = new ArrayList<>();
			span.getEventsList().forEach((event) -> events.add(event.getName()));
			return new ExportedSpan(hex.formatHex(span.getTraceId().toByteArray()),
					hex.formatHex(span.getSpanId().toByteArray()), hex.formatHex(span.getParentSpanId().toByteArray()),
					span.getName(), span.getKind().name(), TestOtlpReceiver.attributes(span.getAttributesList()),
					span.getStatus().getCode().name(), span.getStatus().getMessage(),
					span.getEndTimeUnixNano() - span.getStartTimeUnixNano(), List.copyOf(events), resource);
		}

		/** Whether the span's status is {@code ERROR}. */
		public boolean failed() {
			return "STATUS_CODE_ERROR".equals(this.statusCode);
		}

		/** Every value this span carries, to check that nothing secret is among them. */
		public String everything() {
			return this.name + " " + this.attributes + " " + this.statusMessage + " " + this.eventNames;
		}

	}

}
