{{- define "mcp-gateway.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "mcp-gateway.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
{{- end -}}

{{- define "mcp-gateway.selectorLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/*
The gateway container in another chart's workload (sidecar mode). That chart declares this
one as a dependency with mode: sidecar, and writes in its pod template
  containers:
    - name: my-mcp-server        # listening on 127.0.0.1 only
      ...
    {{- include "mcp-gateway.sidecarContainer" (index .Subcharts "mcp-gateway") | nindent 8 }}
  volumes:
    {{- include "mcp-gateway.volumes" (index .Subcharts "mcp-gateway") | nindent 8 }}
(the dependency's alias in place of "mcp-gateway" if it has one), with the policy's upstream
at http://127.0.0.1:<port>. The argument must be this chart's context, as .Subcharts gives it:
its .Values, .Release and .Chart name the ConfigMaps and Secret this chart renders. The
including chart's own "." has neither these values nor these names, so it is refused.
docs/operations.md, "Sidecar mode"; helm/examples/sidecar-workload is a chart that does it.
*/}}
{{- define "mcp-gateway.sidecarContainer" -}}
{{- include "mcp-gateway.requireOwnContext" (list . "mcp-gateway.sidecarContainer") -}}
{{- if ne .Values.mode "sidecar" -}}
{{- fail (printf "mcp-gateway.sidecarContainer: set mode: sidecar in the values of the %s dependency (standalone renders a Deployment and Service of its own)" .Chart.Name) -}}
{{- end -}}
{{- include "mcp-gateway.container" . -}}
{{- end -}}

{{/*
Fails unless the first of the list is this chart's context (its values have mode, gateway and
policy). The second names the template, for the message.
*/}}
{{- define "mcp-gateway.requireOwnContext" -}}
{{- $context := index . 0 -}}
{{- $template := index . 1 -}}
{{- if not $context -}}
{{- fail (printf "%s: no such subchart; declare mcp-gateway as a dependency in Chart.yaml, run helm dependency update, and pass (index .Subcharts \"mcp-gateway\") (or its alias)" $template) -}}
{{- end -}}
{{- if not (and (hasKey $context.Values "mode") (hasKey $context.Values "gateway") (hasKey $context.Values "policy")) -}}
{{- fail (printf "%s: pass the mcp-gateway subchart's context, (index .Subcharts \"mcp-gateway\") (or its alias), not your chart's \".\": the container and its volumes read that chart's values and name the ConfigMaps it renders" $template) -}}
{{- end -}}
{{- end -}}

{{/* The gateway container of both modes; the standalone Deployment includes it with ".". */}}
{{- define "mcp-gateway.container" -}}
- name: mcp-gateway
  image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
  imagePullPolicy: {{ .Values.image.pullPolicy }}
  ports:
    - name: mcp
      containerPort: 8080
    - name: management
      containerPort: 9090
  env:
    - name: SPRING_CONFIG_ADDITIONAL_LOCATION
      value: "optional:/etc/mcp-gateway/config/application.yaml,optional:/etc/mcp-gateway/config/extra.yaml"
    - name: GATEWAY_POLICY_LOCATION
      value: /etc/mcp-gateway/policy/policy.yaml
    {{- if or .Values.redis.existingSecret .Values.redis.password }}
    - name: SPRING_DATA_REDIS_PASSWORD
      valueFrom:
        secretKeyRef:
          name: {{ default (printf "%s-secrets" (include "mcp-gateway.fullname" .)) .Values.redis.existingSecret }}
          key: {{ .Values.redis.existingSecretKey }}
    {{- end }}
    {{- if .Values.tracing.enabled }}
    - name: GATEWAY_TRACING_ENABLED
      value: "true"
    - name: MANAGEMENT_TRACING_SAMPLING_PROBABILITY
      value: {{ .Values.tracing.samplingProbability | quote }}
    {{- with .Values.tracing.otlpEndpoint }}
    - name: MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_ENDPOINT
      value: {{ . | quote }}
    - name: MANAGEMENT_OPENTELEMETRY_TRACING_EXPORT_OTLP_TRANSPORT
      value: {{ $.Values.tracing.otlpTransport | quote }}
    {{- end }}
    {{- with .Values.tracing.resourceAttributes }}
    - name: OTEL_RESOURCE_ATTRIBUTES
      value: {{ include "mcp-gateway.resourceAttributes" . | quote }}
    {{- end }}
    {{- end }}
    {{- with .Values.extraEnv }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
    {{- if .Values.tls.enabled }}
    - name: SERVER_SSL_KEY_STORE_PASSWORD
      valueFrom:
        secretKeyRef:
          name: {{ printf "%s-secrets" (include "mcp-gateway.fullname" .) }}
          key: keyStorePassword
    - name: SERVER_SSL_TRUST_STORE_PASSWORD
      valueFrom:
        secretKeyRef:
          name: {{ printf "%s-secrets" (include "mcp-gateway.fullname" .) }}
          key: trustStorePassword
    {{- end }}
  readinessProbe:
    httpGet:
      path: /actuator/health/readiness
      port: management
    periodSeconds: 5
  livenessProbe:
    httpGet:
      path: /actuator/health/liveness
      port: management
    periodSeconds: 10
    failureThreshold: 6
  # The image is ready in about 3 s (docs/performance.md): 30 s, ten times that, before the
  # kubelet gives up on a start (a node starting many pods at once is slower).
  startupProbe:
    httpGet:
      path: /actuator/health/liveness
      port: management
    periodSeconds: 1
    failureThreshold: 30
  {{- if gt (int .Values.shutdown.preStopSleepSeconds) 0 }}
  lifecycle:
    # Lets the pod's removal from the Service's endpoints reach every node and ingress before
    # SIGTERM. exec sleep (the image has coreutils): the sleep action needs Kubernetes 1.30+.
    preStop:
      exec:
        command: ["sleep", "{{ int .Values.shutdown.preStopSleepSeconds }}"]
  {{- end }}
  resources:
    {{- toYaml .Values.resources | nindent 4 }}
  securityContext:
    runAsNonRoot: true
    runAsUser: 10001
    allowPrivilegeEscalation: false
    readOnlyRootFilesystem: true
    capabilities:
      drop: ["ALL"]
  volumeMounts:
    - name: config
      mountPath: /etc/mcp-gateway/config
      readOnly: true
    - name: policy
      mountPath: /etc/mcp-gateway/policy
      readOnly: true
    - name: tmp
      mountPath: /tmp
    {{- if .Values.tls.enabled }}
    - name: tls
      mountPath: /etc/mcp-gateway/tls
      readOnly: true
    {{- end }}
    {{- with .Values.extraVolumeMounts }}
    {{- toYaml . | nindent 4 }}
    {{- end }}
{{- end -}}

{{/*
The pod's terminationGracePeriodSeconds: the preStop sleep, then shutdown.drainTimeout for the
calls in flight (spring.lifecycle.timeout-per-shutdown-phase), plus 10 s for the rest of the
JVM's shutdown. Kubernetes counts the preStop sleep against the grace period, so a shorter one
would SIGKILL calls still draining. In sidecar mode, give your pod at least this much:
  terminationGracePeriodSeconds: {{ include "mcp-gateway.terminationGracePeriodSeconds" (index .Subcharts "mcp-gateway") }}
*/}}
{{- define "mcp-gateway.terminationGracePeriodSeconds" -}}
{{- $drain := .Values.shutdown.drainTimeout | toString -}}
{{- $drainSeconds := 0 -}}
{{- if hasSuffix "m" $drain -}}
{{- $drainSeconds = mul (trimSuffix "m" $drain | int) 60 -}}
{{- else if hasSuffix "s" $drain -}}
{{- $drainSeconds = trimSuffix "s" $drain | int -}}
{{- else -}}
{{- fail (printf "shutdown.drainTimeout %q: use seconds or minutes, such as 30s or 2m" $drain) -}}
{{- end -}}
{{- add (int .Values.shutdown.preStopSleepSeconds) $drainSeconds 10 -}}
{{- end -}}

{{/*
The volumes the container mounts: the config and policy ConfigMaps this chart renders, a
scratch /tmp, the TLS keystore Secret (tls.existingSecret, yours) and extraVolumes. In sidecar
mode add them to the workload's pod with the subchart's context, as for
mcp-gateway.sidecarContainer.
*/}}
{{- define "mcp-gateway.volumes" -}}
{{- include "mcp-gateway.requireOwnContext" (list . "mcp-gateway.volumes") -}}
- name: config
  configMap:
    name: {{ include "mcp-gateway.fullname" . }}-config
- name: policy
  configMap:
    name: {{ include "mcp-gateway.fullname" . }}-policy
- name: tmp
  emptyDir: {}
{{- if .Values.tls.enabled }}
- name: tls
  secret:
    secretName: {{ .Values.tls.existingSecret }}
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* OTEL_RESOURCE_ATTRIBUTES from a map: key=value pairs joined by commas, sorted by key. */}}
{{- define "mcp-gateway.resourceAttributes" -}}
{{- $pairs := list -}}
{{- range $key, $value := . -}}
{{- $pairs = append $pairs (printf "%s=%s" $key $value) -}}
{{- end -}}
{{- join "," $pairs -}}
{{- end -}}
