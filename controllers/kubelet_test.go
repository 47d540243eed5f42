package controllers

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// localKubelet plays the kubelet's part for the table Pods of an envtest API server, which has no
// kubelet: it runs each Pod's container as a local process, from the Pod's own command, args and
// env (resolving the downward API's status.podIP, Secret references and $(VAR) as the kubelet
// does), gives each Pod an address of its own on the loopback network (127.88.x.y), reports the
// Pod Running and, from its readiness probe's endpoint, Ready; it SIGKILLs the process of a Pod that
// is deleted (a node lost: the hand in progress is void), and deletes a Pod whose owner is gone (the
// garbage collector's part, which envtest does not run either).
type localKubelet struct {
	t      *testing.T
	c      client.Client
	ns     string
	binDir string // where a bare command name (pokerfloor) is found

	mu   sync.Mutex
	pods map[types.UID]*localPod
	logs string
}

// podAddresses numbers the Pod addresses of every local kubelet of the test process, so that two
// tests' kubelets running at once (t.Parallel) never give two Pods one address.
var podAddresses atomic.Int64

type localPod struct {
	name string
	ip   string
	cmd  *exec.Cmd
	exit chan struct{}
}

func newLocalKubelet(t *testing.T, c client.Client, ns, binDir string) *localKubelet {
	k := &localKubelet{t: t, c: c, ns: ns, binDir: binDir, pods: map[types.UID]*localPod{}, logs: t.TempDir()}
	return k
}

// run syncs every 100 ms until ctx ends, then kills every process.
func (k *localKubelet) run(ctx context.Context) {
	defer k.stopAll()
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		if err := k.sync(ctx); err != nil && ctx.Err() == nil {
			k.t.Logf("local kubelet: %v", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (k *localKubelet) sync(ctx context.Context) error {
	var pods corev1.PodList
	if err := k.c.List(ctx, &pods, client.InNamespace(k.ns)); err != nil {
		return err
	}
	seen := map[types.UID]bool{}
	for i := range pods.Items {
		pod := &pods.Items[i]
		seen[pod.UID] = true
		if gone, err := k.ownerGone(ctx, pod); err != nil {
			return err
		} else if gone {
			_ = k.c.Delete(ctx, pod)
			continue
		}
		k.mu.Lock()
		lp := k.pods[pod.UID]
		k.mu.Unlock()
		if lp == nil {
			var err error
			if lp, err = k.start(ctx, pod); err != nil {
				return fmt.Errorf("pod %s: %w", pod.Name, err)
			}
		}
		if err := k.report(ctx, pod, lp); err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return err
		}
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for uid, lp := range k.pods {
		if !seen[uid] {
			_ = lp.cmd.Process.Signal(syscall.SIGKILL)
			<-lp.exit
			delete(k.pods, uid)
		}
	}
	return nil
}

func (k *localKubelet) ownerGone(ctx context.Context, pod *corev1.Pod) (bool, error) {
	owner := metav1.GetControllerOf(pod)
	if owner == nil || owner.Kind != "Table" {
		return false, nil
	}
	var table pokerv1.Table
	err := k.c.Get(ctx, client.ObjectKey{Namespace: pod.Namespace, Name: owner.Name}, &table)
	if apierrors.IsNotFound(err) {
		return true, nil
	}
	return err == nil && table.UID != owner.UID, err
}

var envRef = regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)

// start runs the Pod's only container as the kubelet would.
func (k *localKubelet) start(ctx context.Context, pod *corev1.Pod) (*localPod, error) {
	if len(pod.Spec.Containers) != 1 {
		return nil, fmt.Errorf("%d containers; a table Pod has one", len(pod.Spec.Containers))
	}
	c := pod.Spec.Containers[0]
	n := podAddresses.Add(1)
	ip := fmt.Sprintf("127.88.%d.%d", n/250, 1+n%250)
	env := map[string]string{}
	var list []string
	for _, e := range c.Env {
		v := e.Value
		switch {
		case e.ValueFrom == nil:
			v = envRef.ReplaceAllStringFunc(v, func(ref string) string {
				if x, ok := env[ref[2:len(ref)-1]]; ok {
					return x
				}
				return ref
			})
		case e.ValueFrom.FieldRef != nil && e.ValueFrom.FieldRef.FieldPath == "status.podIP":
			v = ip
		case e.ValueFrom.SecretKeyRef != nil:
			var s corev1.Secret
			if err := k.c.Get(ctx, client.ObjectKey{Namespace: pod.Namespace, Name: e.ValueFrom.SecretKeyRef.Name}, &s); err != nil {
				return nil, fmt.Errorf("env %s: %w", e.Name, err)
			}
			v = string(s.Data[e.ValueFrom.SecretKeyRef.Key])
		default:
			return nil, fmt.Errorf("env %s: a reference the local kubelet cannot resolve", e.Name)
		}
		env[e.Name] = v
		list = append(list, e.Name+"="+v)
	}
	if len(c.Command) == 0 {
		return nil, fmt.Errorf("no command: the image's entrypoint is not known here")
	}
	path := c.Command[0]
	if filepath.Base(path) == path {
		path = filepath.Join(k.binDir, path)
	}
	cmd := exec.Command(path, append(c.Command[1:], c.Args...)...)
	// The Pod's env only, as in a container, plus what a process needs to find its temp and home.
	cmd.Env = append(list, "HOME="+os.TempDir(), "TMPDIR="+os.TempDir())
	out, err := os.Create(filepath.Join(k.logs, pod.Name+"-"+string(pod.UID)+".log"))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "local kubelet: %v, env %v\n", cmd.Args, list)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		out.Close()
		return nil, err
	}
	lp := &localPod{name: pod.Name, ip: ip, cmd: cmd, exit: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		out.Close()
		close(lp.exit)
	}()
	k.mu.Lock()
	k.pods[pod.UID] = lp
	k.mu.Unlock()
	return lp, nil
}

// report writes the Pod's status: Running at its IP, Ready as its readiness probe answers.
func (k *localKubelet) report(ctx context.Context, pod *corev1.Pod, lp *localPod) error {
	if !pod.DeletionTimestamp.IsZero() {
		return nil
	}
	ready := false
	exited := false
	select {
	case <-lp.exit:
		exited = true
	default:
		ready = probe(pod, lp.ip, pod.Spec.Containers[0].ReadinessProbe)
	}
	// A container that ended is not started again (the kubelet would, with a back-off): it is
	// reported waiting in CrashLoopBackOff, with its exit, for the reconciler to report.
	status := map[bool]corev1.ConditionStatus{true: corev1.ConditionTrue, false: corev1.ConditionFalse}[ready]
	cs := corev1.ContainerStatus{Name: pod.Spec.Containers[0].Name, Ready: ready, Image: pod.Spec.Containers[0].Image,
		State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
	if exited {
		cs.RestartCount = 1
		cs.State = corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}}
		cs.LastTerminationState = corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
			ExitCode: int32(lp.cmd.ProcessState.ExitCode()), Reason: "Error"}}
	}
	if pod.Status.Phase == corev1.PodRunning && pod.Status.PodIP == lp.ip && isPodReady(pod) == ready &&
		len(pod.Status.ContainerStatuses) == 1 && pod.Status.ContainerStatuses[0].RestartCount == cs.RestartCount {
		return nil
	}
	pod.Status = corev1.PodStatus{Phase: corev1.PodRunning, PodIP: lp.ip, PodIPs: []corev1.PodIP{{IP: lp.ip}},
		Conditions:        []corev1.PodCondition{{Type: corev1.PodReady, Status: status, LastTransitionTime: metav1.Now()}},
		ContainerStatuses: []corev1.ContainerStatus{cs}}
	return k.c.Status().Update(ctx, pod)
}

// probe runs an HTTP GET probe against the Pod's address, by the container port's name.
func probe(pod *corev1.Pod, ip string, p *corev1.Probe) bool {
	if p == nil || p.HTTPGet == nil {
		return true
	}
	port := p.HTTPGet.Port.IntValue()
	for _, cp := range pod.Spec.Containers[0].Ports {
		if cp.Name == p.HTTPGet.Port.String() {
			port = int(cp.ContainerPort)
		}
	}
	hc := http.Client{Timeout: 2 * time.Second}
	resp, err := hc.Get("http://" + net.JoinHostPort(ip, strconv.Itoa(port)) + p.HTTPGet.Path)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode >= 200 && resp.StatusCode < 400
}

// kill ends the process of a Pod with SIGKILL, as a lost node would, and waits for it.
func (k *localKubelet) kill(uid types.UID) {
	k.mu.Lock()
	lp := k.pods[uid]
	k.mu.Unlock()
	if lp != nil {
		_ = lp.cmd.Process.Signal(syscall.SIGKILL)
		<-lp.exit
	}
}

func (k *localKubelet) stopAll() {
	k.mu.Lock()
	defer k.mu.Unlock()
	for _, lp := range k.pods {
		_ = lp.cmd.Process.Signal(syscall.SIGKILL)
		<-lp.exit
	}
	k.pods = map[types.UID]*localPod{}
}

// logOf is what the process of a Pod wrote.
func (k *localKubelet) logOf(pod *corev1.Pod) string {
	b, _ := os.ReadFile(filepath.Join(k.logs, pod.Name+"-"+string(pod.UID)+".log"))
	return string(b)
}

// dumpLogs logs the end of every process's output: what a failed test needs to say why.
func (k *localKubelet) dumpLogs() {
	files, _ := filepath.Glob(filepath.Join(k.logs, "*.log"))
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if len(b) > 3000 {
			b = b[len(b)-3000:]
		}
		k.t.Logf("%s:\n%s", filepath.Base(f), b)
	}
}
