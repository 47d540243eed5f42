{{/* The release's name, the prefix of every object's name (63 characters at most, less room for suffixes). */}}
{{- define "pokerfloor.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* Labels on every object; "component" is added by each. */}}
{{- define "pokerfloor.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* The selector of one component's Pods: (dict "ctx" $ "component" "manager"). */}}
{{- define "pokerfloor.selector" -}}
app.kubernetes.io/name: {{ .ctx.Chart.Name }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "pokerfloor.image" -}}
{{- printf "%s:%s" .Values.image.repository (.Values.image.tag | default .Chart.AppVersion) -}}
{{- end -}}

{{/* Where the tournaments run: their Tables, table Pods and the token-signing Secret. */}}
{{- define "pokerfloor.tournamentNamespace" -}}
{{- .Values.tournamentNamespace | default .Release.Namespace -}}
{{- end -}}

{{/* The Temporal frontend the manager, the worker and the table Pods dial. */}}
{{- define "pokerfloor.temporalAddress" -}}
{{- if .Values.temporal.embedded.enabled -}}
{{- printf "%s-temporal.%s.svc:%d" (include "pokerfloor.fullname" .) .Release.Namespace (int .Values.temporal.embedded.port) -}}
{{- else -}}
{{- required "temporal.address: the host:port of your Temporal frontend, or temporal.embedded.enabled=true for the embedded one" .Values.temporal.address -}}
{{- end -}}
{{- end -}}

{{/* OpenTelemetry's standard variables, for the manager and the worker. */}}
{{- define "pokerfloor.otelEnv" -}}
{{- $ctx := .ctx -}}
{{- with $ctx.Values.otel.endpoint }}
- {name: OTEL_EXPORTER_OTLP_ENDPOINT, value: {{ . | quote }}}
- {name: OTEL_EXPORTER_OTLP_PROTOCOL, value: {{ $ctx.Values.otel.protocol | quote }}}
{{- end }}
- {name: OTEL_SERVICE_NAME, value: {{ printf "pokerfloor-%s" .component | quote }}}
- name: OTEL_RESOURCE_ATTRIBUTES
  value: {{ printf "service.namespace=%s,service.instance.id=$(POD_NAME)%s" $ctx.Release.Name (ternary "" (printf ",%s" $ctx.Values.otel.resourceAttributes) (empty $ctx.Values.otel.resourceAttributes)) | quote }}
{{- if not $ctx.Values.otel.endpoint }}
- {name: OTEL_SDK_DISABLED, value: "true"}
{{- end }}
{{- end -}}

{{/* The Pod-level scheduling settings of one component's values. */}}
{{- define "pokerfloor.scheduling" -}}
{{- with .nodeSelector }}
nodeSelector: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity: {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .priorityClassName }}
priorityClassName: {{ . }}
{{- end }}
{{- end -}}
