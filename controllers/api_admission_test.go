package controllers

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
)

// The admission tests install config/admission and config/rbac as they ship and act as real,
// authenticated users of the API server: who issued a Sanction or an EntryBatch is the user the
// API server authenticated, whatever the request says, and the roles decide who may do what.

// policyWait bounds how long the API server may take to load a newly created admission policy
// (about a second here). It only stops a hung test, so it is generous: a machine 5x slower holds.
const policyWait = 3 * time.Minute

// userClient is a client authenticated as name, with no groups: only RBAC bindings give it rights.
func userClient(t *testing.T, s *apiServer, name string) client.Client {
	t.Helper()
	u, err := s.env.AddUser(envtest.User{Name: name}, nil)
	if err != nil {
		t.Fatalf("adding user %s: %v", name, err)
	}
	c, err := client.New(u.Config(), client.Options{Scheme: s.scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func bindRole(t *testing.T, ctx context.Context, s *apiServer, user, clusterRole string) {
	t.Helper()
	rb := &rbacv1.RoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: user + "-" + clusterRole, Namespace: testNamespace},
		RoleRef:    rbacv1.RoleRef{APIGroup: "rbac.authorization.k8s.io", Kind: "ClusterRole", Name: clusterRole},
		Subjects:   []rbacv1.Subject{{APIGroup: "rbac.authorization.k8s.io", Kind: "User", Name: user}},
	}
	if err := s.client.Create(ctx, rb); err != nil {
		t.Fatalf("binding %s to %s: %v", user, clusterRole, err)
	}
}

func installManifests(t *testing.T, ctx context.Context, s *apiServer, pattern string) []*unstructured.Unstructured {
	t.Helper()
	objs := readManifests(t, pattern)
	for _, u := range objs {
		if err := s.client.Create(ctx, u); err != nil {
			t.Fatalf("installing %s %s from %s: %v", u.GetKind(), u.GetName(), pattern, err)
		}
	}
	return objs
}

// eventually retries try until it returns nil or policyWait has passed, and returns the last error.
func eventually(try func() error) error {
	deadline := time.Now().Add(policyWait)
	for {
		err := try()
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func issuedBy(o metav1.Object) string { return o.GetAnnotations()[pokerv1.IssuedByAnnotation] }

func TestAdmissionIssuedBy(t *testing.T) {
	t.Parallel()
	s := startAPIServer(t)
	ctx := testContext(t)
	installManifests(t, ctx, s, filepath.Join("..", "config", "rbac", "*.yaml"))
	policies := installManifests(t, ctx, s, filepath.Join("..", "config", "admission", "*.yaml"))
	bindRole(t, ctx, s, "floor-ann", "pokerfloor-director")
	bindRole(t, ctx, s, "cashier-bob", "pokerfloor-registrar")
	ann := userClient(t, s, "floor-ann")
	bob := userClient(t, s, "cashier-bob")
	// RBAC's authorizer learns of new bindings from a watch: retry until it has.
	if err := eventually(func() error { return ann.Create(ctx, validTournament("valid-base")) }); err != nil {
		t.Fatalf("the director could not create a Tournament: %v", err)
	}

	// Rule P6: the ruling records who made it. Ann types another name; the API server records hers.
	n := 0
	var given *pokerv1.Sanction
	err := eventually(func() error {
		n++
		given = validSanction(fmt.Sprintf("typed-issuer-%d", n))
		given.Annotations = map[string]string{pokerv1.IssuedByAnnotation: "someone-else"}
		if err := ann.Create(ctx, given); err != nil {
			return err
		}
		if got := issuedBy(given); got != "floor-ann" {
			return fmt.Errorf("the Sanction was stored as issued by %q, want the authenticated user floor-ann", got)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("rule P6: %v", err)
	}

	t.Run("RuleP6IssuerWithoutAnnotation", func(t *testing.T) {
		sc := validSanction("untyped-issuer")
		if err := ann.Create(ctx, sc); err != nil {
			t.Fatal(err)
		}
		if got := issuedBy(sc); got != "floor-ann" {
			t.Errorf("issued by %q, want floor-ann", got)
		}
	})
	t.Run("RuleP6IssuerCannotChange", func(t *testing.T) {
		var got pokerv1.Sanction
		if err := s.client.Get(ctx, client.ObjectKeyFromObject(given), &got); err != nil {
			t.Fatal(err)
		}
		got.Annotations[pokerv1.IssuedByAnnotation] = "someone-else"
		err := s.client.Update(ctx, &got)
		if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), "the poker.pokerfloor.dev/issued-by annotation cannot change") {
			t.Errorf("changing the issuer: got %v, want Forbidden saying the annotation cannot change", err)
		}
	})
	t.Run("RegistrarRecordedOnEntryBatch", func(t *testing.T) {
		b := validEntryBatch("bob-batch", "u1", "u2")
		b.Annotations = map[string]string{pokerv1.IssuedByAnnotation: "floor-ann"}
		if err := bob.Create(ctx, b); err != nil {
			t.Fatalf("the registrar could not create an EntryBatch: %v", err)
		}
		if got := issuedBy(b); got != "cashier-bob" {
			t.Errorf("the batch was stored as registered by %q, want cashier-bob", got)
		}
	})
	t.Run("RuleP6DirectorRecordedOnFloorAction", func(t *testing.T) {
		a := validFloorAction("ann-adds-time")
		a.Annotations = map[string]string{pokerv1.IssuedByAnnotation: "cashier-bob"}
		if err := ann.Create(ctx, a); err != nil {
			t.Fatalf("the director could not create a FloorAction: %v", err)
		}
		if got := issuedBy(a); got != "floor-ann" {
			t.Errorf("the FloorAction was stored as issued by %q, want floor-ann", got)
		}
		var got pokerv1.FloorAction
		if err := s.client.Get(ctx, client.ObjectKeyFromObject(a), &got); err != nil {
			t.Fatal(err)
		}
		got.Annotations[pokerv1.IssuedByAnnotation] = "someone-else"
		if err := s.client.Update(ctx, &got); !apierrors.IsForbidden(err) ||
			!strings.Contains(err.Error(), "the poker.pokerfloor.dev/issued-by annotation cannot change") {
			t.Errorf("changing a FloorAction's issuer: got %v, want Forbidden saying the annotation cannot change", err)
		}
	})
	t.Run("RBACRegistrarCannotTakeFloorActions", func(t *testing.T) {
		err := bob.Create(ctx, validFloorAction("by-bob"))
		if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), `User "cashier-bob" cannot create resource "flooractions"`) {
			t.Errorf("the registrar creating a FloorAction: got %v, want RBAC's Forbidden", err)
		}
	})
	t.Run("RBACRegistrarCannotSanction", func(t *testing.T) {
		err := bob.Create(ctx, validSanction("by-bob"))
		if !apierrors.IsForbidden(err) || !strings.Contains(err.Error(), `User "cashier-bob" cannot create resource "sanctions"`) {
			t.Errorf("the registrar creating a Sanction: got %v, want RBAC's Forbidden", err)
		}
	})
	t.Run("RBACRegistrarCannotEditTournament", func(t *testing.T) {
		var tm pokerv1.Tournament
		if err := bob.Get(ctx, client.ObjectKey{Namespace: testNamespace, Name: "valid-base"}, &tm); err != nil {
			t.Fatalf("the registrar could not read the Tournament: %v", err)
		}
		tm.Spec.Paused = true
		if err := bob.Update(ctx, &tm); !apierrors.IsForbidden(err) {
			t.Errorf("the registrar pausing the Tournament: got %v, want RBAC's Forbidden", err)
		}
	})
	t.Run("RBACNobodyRewritesASanction", func(t *testing.T) {
		var got pokerv1.Sanction
		if err := ann.Get(ctx, client.ObjectKeyFromObject(given), &got); err != nil {
			t.Fatal(err)
		}
		got.Labels = map[string]string{"x": "y"}
		if err := ann.Update(ctx, &got); !apierrors.IsForbidden(err) {
			t.Errorf("the director updating a Sanction: got %v, want RBAC's Forbidden (a Sanction is a record)", err)
		}
	})

	// Without the mutating policy (a cluster that installed only part of config/admission), the
	// validating one refuses a typed issuer instead of recording it.
	t.Run("RuleP6BackstopWithoutMutatingPolicy", func(t *testing.T) {
		for _, u := range policies {
			if u.GetKind() == "MutatingAdmissionPolicyBinding" {
				if err := s.client.Delete(ctx, u); err != nil {
					t.Fatal(err)
				}
			}
		}
		n := 0
		err := eventually(func() error {
			n++
			sc := validSanction(fmt.Sprintf("unmutated-%d", n))
			sc.Annotations = map[string]string{pokerv1.IssuedByAnnotation: "someone-else"}
			err := ann.Create(ctx, sc)
			if err == nil {
				return fmt.Errorf("created as issued by %q", issuedBy(sc))
			}
			if apierrors.IsForbidden(err) && strings.Contains(err.Error(), "the poker.pokerfloor.dev/issued-by annotation must be the requesting user floor-ann") {
				return nil
			}
			return fmt.Errorf("unexpected error: %w", err)
		})
		if err != nil {
			t.Errorf("a typed issuer without the mutating policy: %v; want the validating policy's Forbidden", err)
		}
	})
}

func validFloorAction(name string) *pokerv1.FloorAction {
	return &pokerv1.FloorAction{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNamespace},
		Spec: pokerv1.FloorActionSpec{Tournament: "valid-base", Action: pokerv1.FloorAddTime, Reason: "a dispute at table 3",
			AddTime: &pokerv1.AddTimeAction{Seconds: 120}},
	}
}
