{{- define "docsvc-server.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "docsvc-server.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The Secret the pods read: the user's existing one, else the chart's. */}}
{{- define "docsvc-server.secretName" -}}
{{- .Values.secrets.existingSecret | default (include "docsvc-server.fullname" .) -}}
{{- end -}}

{{/* Whether any Secret is there to read (an existing one, or the chart's with a value in it). */}}
{{- define "docsvc-server.hasSecret" -}}
{{- if or .Values.secrets.existingSecret .Values.secrets.databaseUrl .Values.secrets.smtpUrl -}}true{{- end -}}
{{- end -}}

{{/*
Settings that cannot work together stop the install with one line (rendered by every template that
depends on them, so `helm template` fails as `helm install` does).
*/}}
{{- define "docsvc-server.validate" -}}
{{- $replicas := int .Values.replicaCount -}}
{{- if and (gt $replicas 1) (ne .Values.database.kind "postgresql") -}}
{{- fail (printf "replicaCount=%d needs database.kind=postgresql: a SQLite file serves one process, and the replicas share jobs through the database" $replicas) -}}
{{- end -}}
{{- if and (gt $replicas 1) (not (and .Values.persistence.enabled (eq .Values.persistence.accessMode "ReadWriteMany"))) -}}
{{- fail (printf "replicaCount=%d needs persistence.enabled=true and persistence.accessMode=ReadWriteMany: every replica reads and writes the same data directory" $replicas) -}}
{{- end -}}
{{- $workers := int .Values.worker.replicaCount -}}
{{- if and (gt $workers 0) (ne .Values.database.kind "postgresql") -}}
{{- fail (printf "worker.replicaCount=%d needs database.kind=postgresql: the worker pods share jobs with the API through the database" $workers) -}}
{{- end -}}
{{- if and (gt $workers 0) (not (and .Values.persistence.enabled (eq .Values.persistence.accessMode "ReadWriteMany"))) -}}
{{- fail (printf "worker.replicaCount=%d needs persistence.enabled=true and persistence.accessMode=ReadWriteMany: the workers and the API read and write the same data directory" $workers) -}}
{{- end -}}
{{- if and (eq .Values.database.kind "postgresql") (not .Values.secrets.existingSecret) (not .Values.secrets.databaseUrl) -}}
{{- fail "database.kind=postgresql needs its URL: secrets.databaseUrl, or secrets.existingSecret with a database-url key" -}}
{{- end -}}
{{- if and (eq .Values.database.kind "sqlite") .Values.secrets.databaseUrl -}}
{{- fail "secrets.databaseUrl is set but database.kind=sqlite: set database.kind=postgresql to use it" -}}
{{- end -}}
{{- $names := list -}}
{{- range (include "docsvc-server.ownEnv" . | fromYamlArray) }}{{ $names = append $names .name }}{{ end -}}
{{- range .Values.extraEnv -}}
{{- if has .name $names -}}
{{- fail (printf "extraEnv sets %s, which the chart sets already (from its own values, e.g. settings.*): set it there, once" .name) -}}
{{- end -}}
{{- $names = append $names .name -}}
{{- end -}}
{{- end -}}

{{/* The worker pods' labels: a name of their own, so neither the API's Deployment nor its Service selects them. */}}
{{- define "docsvc-server.workerLabels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}-worker
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{/* The environment the chart sets itself: settings as values, secrets by reference. */}}
{{- define "docsvc-server.ownEnv" -}}
- {name: HOME, value: /tmp}
- {name: DOCSVC_SERVER_DATA_DIR, value: /data}
{{- if eq .Values.database.kind "postgresql" }}
- name: DOCSVC_SERVER_DATABASE_URL
  valueFrom: {secretKeyRef: {name: {{ include "docsvc-server.secretName" . }}, key: database-url}}
{{- else }}
- {name: DOCSVC_SERVER_DATABASE_URL, value: "sqlite:////data/docsvc.db"}
{{- end }}
{{- if include "docsvc-server.hasSecret" . }}
- name: DOCSVC_SERVER_SMTP_URL
  valueFrom: {secretKeyRef: {name: {{ include "docsvc-server.secretName" . }}, key: smtp-url, optional: true}}
{{- end }}
- {name: DOCSVC_SERVER_JOB_WORKERS, value: {{ .Values.settings.jobWorkers | quote }}}
- {name: DOCSVC_SERVER_MAX_BODY_MB, value: {{ .Values.settings.maxBodyMb | quote }}}
- {name: DOCSVC_SERVER_KEEP_IN_SYNC_SECONDS, value: {{ .Values.settings.keepInSyncSeconds | quote }}}
- {name: DOCSVC_SERVER_WEBHOOK_RETENTION_DAYS, value: {{ .Values.settings.webhookRetentionDays | quote }}}
{{- /* Always set (empty: the service's own default), so extraEnv cannot set them a second time. */}}
- {name: DOCSVC_SERVER_PUBLIC_URL, value: {{ .Values.settings.publicUrl | quote }}}
- {name: DOCSVC_SERVER_EGRESS_ALLOW, value: {{ .Values.settings.egressAllow | quote }}}
- {name: DOCSVC_SERVER_ALLOW_LOCAL_REPOS, value: {{ ternary "1" "0" .Values.settings.allowLocalRepos | quote }}}
{{- end -}}

{{/* The environment of the service, its workers and the migration Job: the chart's own, then extraEnv. */}}
{{- define "docsvc-server.env" -}}
{{ include "docsvc-server.ownEnv" . }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* Pod-level security: a fixed non-root user, the runtime's default seccomp profile, no API token. */}}
{{- define "docsvc-server.podSecurity" -}}
automountServiceAccountToken: false
securityContext:
  runAsNonRoot: true
  runAsUser: 10001
  runAsGroup: 10001
  fsGroup: 10001
  seccompProfile: {type: RuntimeDefault}
{{- end -}}

{{/* Container-level security: read-only root filesystem, no privilege escalation, no capabilities. */}}
{{- define "docsvc-server.containerSecurity" -}}
securityContext:
  allowPrivilegeEscalation: false
  readOnlyRootFilesystem: true
  capabilities: {drop: [ALL]}
{{- end -}}
