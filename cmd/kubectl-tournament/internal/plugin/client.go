package plugin

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	authenticationv1client "k8s.io/client-go/kubernetes/typed/authentication/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/rest"
)

// The resources of the API group, by their plural names.
const (
	resTournaments  = "tournaments"
	resTables       = "tables"
	resSanctions    = "sanctions"
	resEntryBatches = "entrybatches"
	resFloorActions = "flooractions"
)

// client is a typed REST client for poker.pokerfloor.dev plus the core clientset for events and
// for asking the API server who the user is.
type client struct {
	rest      rest.Interface
	core      corev1client.CoreV1Interface
	authn     authenticationv1client.AuthenticationV1Interface
	host      string // the API server's address
	namespace string // the namespace of -n, or the kubeconfig context's, or "default"
}

func (o *options) client() (*client, error) {
	cfg, err := o.config.ToRESTConfig()
	if err != nil {
		return nil, fmt.Errorf("reading the kubeconfig: %w", err)
	}
	// -n, else the context's namespace, else "default", as kubectl.
	ns, _, err := o.config.ToRawKubeConfigLoader().Namespace()
	if err != nil {
		return nil, fmt.Errorf("reading the namespace from the kubeconfig: %w", err)
	}
	gv := pokerv1.GroupVersion
	rc := rest.CopyConfig(cfg)
	rc.GroupVersion = &gv
	rc.APIPath = "/apis"
	rc.NegotiatedSerializer = serializer.NewCodecFactory(o.scheme).WithoutConversion()
	if rc.UserAgent == "" {
		rc.UserAgent = "kubectl-tournament"
	}
	r, err := rest.RESTClientFor(rc)
	if err != nil {
		return nil, fmt.Errorf("a client for %s: %w", cfg.Host, err)
	}
	core, err := corev1client.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("a client for %s: %w", cfg.Host, err)
	}
	authn, err := authenticationv1client.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("a client for %s: %w", cfg.Host, err)
	}
	return &client{rest: r, core: core, authn: authn, host: cfg.Host, namespace: ns}, nil
}

func (c *client) get(ctx context.Context, resource, name string, into runtime.Object) error {
	return c.rest.Get().Namespace(c.namespace).Resource(resource).Name(name).Do(ctx).Into(into)
}

// list lists resource in the client's namespace, or in every namespace when all is true.
func (c *client) list(ctx context.Context, resource string, all bool, into runtime.Object) error {
	ns := c.namespace
	if all {
		ns = metav1.NamespaceAll
	}
	return c.rest.Get().Namespace(ns).Resource(resource).Do(ctx).Into(into)
}

func (c *client) create(ctx context.Context, resource string, obj, into runtime.Object) error {
	return c.rest.Post().Namespace(c.namespace).Resource(resource).Body(obj).Do(ctx).Into(into)
}

func (c *client) mergePatch(ctx context.Context, resource, name string, patch []byte, into runtime.Object) error {
	return c.rest.Patch(types.MergePatchType).Namespace(c.namespace).Resource(resource).Name(name).
		Body(patch).Do(ctx).Into(into)
}

// tournament gets a Tournament by name. When there is none of that name, the error lists the
// ones there are in the namespace, so that a typo is one step from its fix.
func (c *client) tournament(ctx context.Context, name string) (*pokerv1.Tournament, error) {
	var t pokerv1.Tournament
	err := c.get(ctx, resTournaments, name, &t)
	if err == nil {
		return &t, nil
	}
	if !apierrors.IsNotFound(err) {
		return nil, c.explain(ctx, err, "get", resTournaments)
	}
	var list pokerv1.TournamentList
	if lerr := c.list(ctx, resTournaments, false, &list); lerr != nil {
		return nil, fmt.Errorf("tournament %q not found in namespace %q", name, c.namespace)
	}
	if len(list.Items) == 0 {
		return nil, fmt.Errorf("tournament %q not found in namespace %q, which has no tournaments: "+
			"give the namespace with -n (`kubectl tournament list -A` lists every namespace's)", name, c.namespace)
	}
	names := make([]string, 0, len(list.Items))
	for _, item := range list.Items {
		names = append(names, item.Name)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("tournament %q not found in namespace %q; the tournaments there are: %s",
		name, c.namespace, strings.Join(names, ", "))
}

// tournamentLabel is the label the manager puts on a tournament's Tables (controllers'
// TournamentLabel), written here again because the plugin imports only the API and client-go.
const tournamentLabel = "poker.pokerfloor.dev/tournament"

// tables lists at most limit Tables of the tournament, by number, and whether there are more: a
// large event has thousands, which a page of a terminal does not hold.
func (c *client) tables(ctx context.Context, tournament string, limit int) ([]pokerv1.Table, bool, error) {
	var list pokerv1.TableList
	err := c.rest.Get().Namespace(c.namespace).Resource(resTables).
		Param("labelSelector", tournamentLabel+"="+tournament).Param("limit", strconv.Itoa(limit)).
		Do(ctx).Into(&list)
	if err != nil {
		return nil, false, c.explain(ctx, err, "list", resTables)
	}
	var out []pokerv1.Table
	for _, t := range list.Items {
		if t.Spec.Tournament == tournament {
			out = append(out, t)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Spec.Number < out[j].Spec.Number })
	return out, list.Continue != "", nil
}

// events lists the events about the object, oldest first, as kubectl describe does.
func (c *client) events(ctx context.Context, obj metav1.Object, kind string) ([]corev1.Event, error) {
	sel := fields.Set{
		"involvedObject.kind": kind,
		"involvedObject.name": obj.GetName(),
		"involvedObject.uid":  string(obj.GetUID()),
	}.AsSelector().String()
	list, err := c.core.Events(obj.GetNamespace()).List(ctx, metav1.ListOptions{FieldSelector: sel})
	if err != nil {
		return nil, err
	}
	sort.Slice(list.Items, func(i, j int) bool { return eventTime(list.Items[i]).Time.Before(eventTime(list.Items[j]).Time) })
	return list.Items, nil
}

func eventTime(e corev1.Event) metav1.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp
	case !e.EventTime.IsZero():
		return metav1.NewTime(e.EventTime.Time)
	}
	return e.CreationTimestamp
}

// whoAmI asks the API server who the user is (what `kubectl auth whoami` does); "" when it cannot.
func (c *client) whoAmI(ctx context.Context) string {
	r, err := c.authn.SelfSubjectReviews().Create(ctx, &authenticationv1.SelfSubjectReview{}, metav1.CreateOptions{})
	if err != nil {
		return ""
	}
	return r.Status.UserInfo.Username
}

// rbacDenied matches the message of RBAC's Forbidden: `User "ann" cannot create resource "sanctions"`.
var rbacDenied = regexp.MustCompile(`cannot [a-z]+ resource "`)

// roleFor names the role of config/rbac that grants verb on resource.
func roleFor(verb, resource string) string {
	switch {
	case verb == "get" || verb == "list" || verb == "watch":
		return "the pokerfloor-viewer role (or pokerfloor-director)"
	case resource == resEntryBatches:
		return "the pokerfloor-registrar role (or pokerfloor-director)"
	}
	return "the pokerfloor director role (pokerfloor-director)"
}

// explain turns an API error into what the user can do about it: RBAC's Forbidden names the user
// and the role to ask for; other errors pass through.
func (c *client) explain(ctx context.Context, err error, verb, resource string) error {
	if err == nil {
		return nil
	}
	var status apierrors.APIStatus
	var urlErr *url.Error
	if !errors.As(err, &status) && errors.As(err, &urlErr) {
		return fmt.Errorf("cannot reach the Kubernetes API server at %s: %v; check the kubeconfig and its context "+
			"(--kubeconfig, --context; `kubectl cluster-info` shows the one in use)", c.host, urlErr.Err)
	}
	if !apierrors.IsForbidden(err) || !errors.As(err, &status) || !rbacDenied.MatchString(status.Status().Message) {
		// Another Forbidden comes from an admission policy, whose message says why.
		return err
	}
	user := c.whoAmI(ctx)
	if user == "" {
		user = "unknown: the API server did not say"
	}
	if strings.Contains(status.Status().Message, "at the cluster scope") {
		return fmt.Errorf("you (user %s) may not %s %s in every namespace (-A): ask for %s bound by a ClusterRoleBinding "+
			"(config/rbac), or leave out -A to %s those of namespace %s", user, verb, resource, roleFor(verb, resource), verb, c.namespace)
	}
	return fmt.Errorf("you (user %s) may not %s %s in namespace %s: ask for %s, bound in this namespace (config/rbac)",
		user, verb, resource, c.namespace, roleFor(verb, resource))
}
