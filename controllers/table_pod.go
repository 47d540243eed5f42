package controllers

import (
	"maps"
	"strconv"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// tablePod is the Pod that runs table's process: `pokerfloor table`, reporting to the table's
// workflow, configured by its environment only (POKERFLOOR_TABLE_*), so that what a Pod runs can be
// read off its spec. tournament may be nil (gone): the manager's defaults apply.
//
// The container listens on the Pod's IP, not on every address: in a cluster that is the same
// thing, and a test that runs many Pods' processes on one machine gives each its own address.
func tablePod(cfg Config, table *pokerv1.Table, tournament *pokerv1.Tournament) *corev1.Pod {
	port := strconv.Itoa(int(cfg.TablePort))
	env := []corev1.EnvVar{
		{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "status.podIP"}}},
		{Name: "POKERFLOOR_TABLE_LISTEN", Value: "$(POD_IP):" + port},
		{Name: "POKERFLOOR_TABLE_TABLE", Value: table.Annotations[TableIDAnnotation]},
		{Name: "POKERFLOOR_TABLE_TEMPORAL_ADDRESS", Value: cfg.TemporalAddress},
		{Name: "POKERFLOOR_TABLE_NAMESPACE", Value: cfg.TemporalNamespace},
		// The key in the environment, not a mounted file: the process reads it once at the start,
		// and a Secret's env is what a test standing in for the kubelet can resolve too.
		{Name: "POKERFLOOR_TABLE_KEY", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: cfg.KeySecret}, Key: "key"}}},
		{Name: "POKERFLOOR_TABLE_LOG_LEVEL", Value: "info"},
	}
	if table.Annotations[SimulationAnnotation] == "true" {
		env = append(env, corev1.EnvVar{Name: "POKERFLOOR_TABLE_BOTS", Value: "all"})
	}
	probe := func(path string) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: path, Port: intstr.FromString("http")}},
			PeriodSeconds: 5, FailureThreshold: 3}
	}
	c := corev1.Container{
		Name:            "table",
		Image:           cfg.TableImage,
		Command:         cfg.TableCommand,
		Args:            []string{"table"},
		Env:             env,
		Ports:           []corev1.ContainerPort{{Name: "http", ContainerPort: cfg.TablePort, Protocol: corev1.ProtocolTCP}},
		ReadinessProbe:  probe("/readyz"),
		LivenessProbe:   probe("/healthz"),
		Resources:       cfg.TableResources,
		SecurityContext: &corev1.SecurityContext{AllowPrivilegeEscalation: new(false), RunAsNonRoot: new(true), ReadOnlyRootFilesystem: new(true)},
	}
	grace := int64(cfg.TableGracePeriod.Seconds())
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: table.Name, Namespace: table.Namespace, Labels: tableLabels(table),
			Annotations: scrapeAnnotations(cfg.TablePort)},
		Spec: corev1.PodSpec{
			Containers:                    []corev1.Container{c},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: &grace,
			AutomountServiceAccountToken:  new(false),
			EnableServiceLinks:            new(false),
		},
	}
	if tournament == nil || tournament.Spec.TablePods == nil {
		return pod
	}
	o := tournament.Spec.TablePods
	if o.Image != "" {
		pod.Spec.Containers[0].Image = o.Image
	}
	pod.Spec.Containers[0].ImagePullPolicy = o.ImagePullPolicy
	if o.Resources != nil {
		pod.Spec.Containers[0].Resources = *o.Resources
	}
	if t := o.Template; t != nil {
		// The tournament's labels never replace the manager's: the Service selects on those.
		pod.Labels = mergeLabels(t.Labels, pod.Labels)
		pod.Annotations = mergeLabels(pod.Annotations, t.Annotations)
		pod.Spec.NodeSelector, pod.Spec.Tolerations, pod.Spec.Affinity = t.NodeSelector, t.Tolerations, t.Affinity
		pod.Spec.PriorityClassName = t.PriorityClassName
		for _, e := range t.Env {
			pod.Spec.Containers[0].Env = append(pod.Spec.Containers[0].Env, corev1.EnvVar{Name: e.Name, Value: e.Value})
		}
	}
	return pod
}

// scrapeAnnotations tell a Prometheus that discovers Pods by the prometheus.io annotations
// (kubernetes_sd_configs with the usual relabelling) where a table's /metrics is: its hands,
// action latency, reports and WebSocket connections, on the players' port.
func scrapeAnnotations(port int32) map[string]string {
	return map[string]string{
		"prometheus.io/scrape": "true",
		"prometheus.io/port":   strconv.Itoa(int(port)),
		"prometheus.io/path":   "/metrics",
	}
}

// tableService is the table's Service: players and the manager reach the table process by it.
func tableService(cfg Config, table *pokerv1.Table) *corev1.Service {
	return &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: table.Name, Namespace: table.Namespace, Labels: tableLabels(table)},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{TableLabel: table.Name},
			Ports: []corev1.ServicePort{{Name: "http", Port: cfg.TablePort, TargetPort: intstr.FromString("http"),
				Protocol: corev1.ProtocolTCP}},
			// A player's connection stays with the one process there is; while a Pod is replaced
			// there is none, and players join again (the bots and the web client do by themselves).
			PublishNotReadyAddresses: false,
		},
	}
}

func tableLabels(table *pokerv1.Table) map[string]string {
	return map[string]string{TournamentLabel: table.Spec.Tournament, TableLabel: table.Name}
}

// mergeLabels returns base with over on top.
func mergeLabels(base, over map[string]string) map[string]string {
	out := maps.Clone(base)
	if out == nil {
		out = map[string]string{}
	}
	maps.Copy(out, over)
	return out
}
