package controllers

import (
	"testing"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestTablePodIsScraped: a table Pod says where its /metrics is (the players' port), and a
// Tournament's pod template adds its own annotations and may override those.
func TestTablePodIsScraped(t *testing.T) {
	cfg := Config{TablePort: 9123}.WithDefaults()
	table := &pokerv1.Table{ObjectMeta: metav1.ObjectMeta{Name: "t-1", Namespace: "ns",
		Annotations: map[string]string{TableIDAnnotation: "ns/main/uid/table-1"}}}
	pod := tablePod(cfg, table, nil)
	for k, want := range map[string]string{"prometheus.io/scrape": "true", "prometheus.io/port": "9123", "prometheus.io/path": "/metrics"} {
		if got := pod.Annotations[k]; got != want {
			t.Errorf("annotation %s = %q, want %q", k, got, want)
		}
	}
	tour := &pokerv1.Tournament{Spec: pokerv1.TournamentSpec{TablePods: &pokerv1.TablePodOverrides{
		Template: &pokerv1.TablePodTemplate{Annotations: map[string]string{"prometheus.io/scrape": "false", "team": "floor"}}}}}
	pod = tablePod(cfg, table, tour)
	if pod.Annotations["prometheus.io/scrape"] != "false" || pod.Annotations["team"] != "floor" || pod.Annotations["prometheus.io/port"] != "9123" {
		t.Errorf("with the tournament's template: annotations %v, want its scrape=false and team=floor over the port 9123", pod.Annotations)
	}
}
