package controllers

import (
	"time"

	corev1 "k8s.io/api/core/v1"
)

// Config is the manager's and the worker's configuration of what they create: where the table
// Pods report, what they run, and how often the manager looks at them. cmd's `manager` and
// `worker` fill it from flags, POKERFLOOR_* and the config file.
type Config struct {
	// TemporalAddress and TemporalNamespace are the Temporal frontend and namespace the tournament
	// workflows run in, as the table Pods reach them.
	TemporalAddress   string
	TemporalNamespace string
	// TaskQueue is the workflows' task queue (workflows.TaskQueue when empty).
	TaskQueue string
	// TableImage runs `pokerfloor table`; a Tournament's spec.tablePods.image overrides it.
	TableImage string
	// TableCommand is the table container's command, before the args `table`.
	TableCommand []string
	// TablePort is the table process's port: players, /readyz, /inhand.
	TablePort int32
	// TableResources are the table container's requests and limits unless the Tournament says.
	TableResources corev1.ResourceRequirements
	// KeySecret names the Secret, in the Tournament's namespace, whose key "key" signs the
	// players' tokens (at least 32 bytes).
	KeySecret string
	// TableGracePeriod is how long a stopping table Pod has to finish its hand (SIGTERM drains).
	TableGracePeriod time.Duration
	// PollInterval is how often the manager asks a running table whether it is in a hand, and a
	// running tournament's workflow for its progress.
	PollInterval time.Duration
	// TableWorkers is how many Tables the manager reconciles at once: a 10,000-entry field opens
	// 1,112 tables in seconds, and one at a time would queue each behind the others' API calls.
	TableWorkers int
}

// Defaults of Config.
const (
	DefaultTablePort    = 8080
	DefaultKeySecret    = "pokerfloor-table-key"
	DefaultPollInterval = 5 * time.Second
	DefaultGracePeriod  = 2 * time.Minute
	DefaultTableWorkers = 16
)

// WithDefaults fills what c leaves empty.
func (c Config) WithDefaults() Config {
	if c.TemporalNamespace == "" {
		c.TemporalNamespace = "default"
	}
	if c.TableImage == "" {
		c.TableImage = "ghcr.io/pokerfloor/pokerfloor:latest"
	}
	if len(c.TableCommand) == 0 {
		c.TableCommand = []string{"pokerfloor"}
	}
	if c.TablePort == 0 {
		c.TablePort = DefaultTablePort
	}
	if c.KeySecret == "" {
		c.KeySecret = DefaultKeySecret
	}
	if c.TableGracePeriod == 0 {
		c.TableGracePeriod = DefaultGracePeriod
	}
	if c.PollInterval == 0 {
		c.PollInterval = DefaultPollInterval
	}
	if c.TableWorkers == 0 {
		c.TableWorkers = DefaultTableWorkers
	}
	return c
}
