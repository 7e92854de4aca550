{{/*
The gateway's configuration ConfigMap (application.yaml from gateway.*, extra.yaml from
gateway.extraConfig), rendered by configmap-config.yaml. Defined here so that its checksum can
be taken from this chart's context alone: mcp-gateway.configChecksum, which a workload in
sidecar mode puts in a pod annotation so that a change of these values rolls its pods (the
gateway reads application.yaml once, at start; the policy is reloaded without a restart).
*/}}
{{- define "mcp-gateway.configMap" -}}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "mcp-gateway.fullname" . }}-config
  labels:
    {{- include "mcp-gateway.labels" . | nindent 4 }}
data:
  application.yaml: |
    gateway:
      identity:
        oauth:
          issuer: {{ .Values.gateway.identity.oauth.issuer | quote }}
          jwk-set-uri: {{ .Values.gateway.identity.oauth.jwkSetUri | quote }}
          {{- with .Values.gateway.identity.oauth.audiences }}
          audiences:
            {{- toYaml . | nindent 12 }}
          {{- end }}
        {{- with .Values.gateway.identity.resourceBaseUrl }}
        resource-base-url: {{ . | quote }}
        {{- end }}
        operators:
          {{- toYaml .Values.gateway.identity.operators | nindent 10 }}
      policy:
        reload-interval: {{ .Values.gateway.policy.reloadInterval }}
      {{- if .Values.gateway.revocation.source }}
      revocation:
        source: {{ .Values.gateway.revocation.source | quote }}
        poll-interval: {{ .Values.gateway.revocation.pollInterval }}
      {{- end }}
      idempotency:
        store: {{ .Values.gateway.idempotency.store }}
      session:
        store: {{ .Values.gateway.session.store }}
        idle-timeout: {{ .Values.gateway.session.idleTimeout }}
      proxy:
        connect-timeout: {{ .Values.gateway.proxy.connectTimeout }}
        first-byte-timeout: {{ .Values.gateway.proxy.firstByteTimeout }}
        idle-timeout: {{ .Values.gateway.proxy.idleTimeout }}
    spring:
      lifecycle:
        timeout-per-shutdown-phase: {{ .Values.shutdown.drainTimeout }}
    {{- if or (eq .Values.gateway.idempotency.store "redis") (eq .Values.gateway.session.store "redis") }}
      {{- /* One Redis connection for both stores. */}}
      data:
        redis:
          host: {{ .Values.redis.host | quote }}
          port: {{ .Values.redis.port }}
          ssl:
            enabled: {{ .Values.redis.ssl }}
    {{- end }}
    {{- if .Values.tls.enabled }}
    server:
      ssl:
        enabled: true
        key-store: /etc/mcp-gateway/tls/keystore.p12
        key-store-type: PKCS12
        trust-store: /etc/mcp-gateway/tls/truststore.p12
        trust-store-type: PKCS12
        client-auth: {{ .Values.tls.clientAuth }}
    {{- end }}
  {{- with .Values.gateway.extraConfig }}
  extra.yaml: |
    {{- toYaml . | nindent 4 }}
  {{- end }}
{{- end -}}

{{/* sha256 of the configuration ConfigMap; give it this chart's context as for mcp-gateway.sidecarContainer. */}}
{{- define "mcp-gateway.configChecksum" -}}
{{- include "mcp-gateway.requireOwnContext" (list . "mcp-gateway.configChecksum") -}}
{{- include "mcp-gateway.configMap" . | sha256sum -}}
{{- end -}}
