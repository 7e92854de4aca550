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
The gateway container. Used by the standalone Deployment, and by users of sidecar mode:
  containers:
    - name: my-mcp-server
      ...
    {{- include "mcp-gateway.sidecarContainer" . | nindent 4 }}
with the upstream at http://127.0.0.1:<port> in the policy.
*/}}
{{- define "mcp-gateway.sidecarContainer" -}}
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
  startupProbe:
    httpGet:
      path: /actuator/health/liveness
      port: management
    periodSeconds: 2
    failureThreshold: 60
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
{{- end -}}

{{/* The volumes the container needs; add them to the pod in sidecar mode too. */}}
{{- define "mcp-gateway.volumes" -}}
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
{{- end -}}
