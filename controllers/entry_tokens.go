package controllers

import (
	"context"
	"fmt"
	"strings"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

// A registered entry's token: the table server's JWT (tableserver.Claims, HS256, signed with the
// key of the Secret KeySecret in the tournament's namespace), bound to the tournament's workflow
// ID and the entry, its table claim EntryTokenTable. No table takes it itself (a table's tokens
// name the table); the manager's gateway (`pokerfloor manager --lobby-address`,
// /NAMESPACE/NAME/play) checks it, finds the entry's table, and joins it for him with a token of
// that table's.
//
// The EntryBatch reconciler writes the tokens of a batch's accepted entries into a Secret the
// batch owns (EntryTokensSecret), never into its status, and a Role and RoleBinding, owned by the
// batch too, that let the user who created the batch (its issued-by annotation) read that one
// Secret: the registrar hands each player his token.
//
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get;create
// +kubebuilder:rbac:groups=rbac.authorization.k8s.io,resources=roles;rolebindings,verbs=get;create

// EntryTokenTable is the table claim of an entry's token.
const EntryTokenTable = "entry"

// EntryTokenTTL is how long an entry's token is valid from its registration.
const EntryTokenTTL = 7 * 24 * time.Hour

// EntryTokens issues and checks the entry tokens of the tournament whose workflow is workflowID.
func EntryTokens(key []byte, workflowID string) (*tableserver.Tokens, error) {
	return tableserver.NewTokens(key, workflowID, EntryTokenTable, nil)
}

// EntryTokensSecret names the Secret that holds batch's tokens.
func EntryTokensSecret(batch string) string { return batch + "-tokens" }

// EntryTokenKey is the Secret's key of an entry's token: its ID, with a re-entry's '#' as '_'
// (p02#2 is p02_2), since a Secret's keys are letters, digits, '-', '.' and '_' and a player's ID
// never holds '_'.
func EntryTokenKey(entry string) string { return strings.ReplaceAll(entry, "#", "_") }

// VerifyEntryToken checks an entry's token for the tournament of workflowID and returns the entry
// it names, or the protocol error a table would send (bad_token, token_expired).
func VerifyEntryToken(key []byte, workflowID, token string) (string, *protocol.Error) {
	tokens, err := EntryTokens(key, workflowID)
	if err != nil {
		return "", &protocol.Error{Code: protocol.CodeInternal, Fatal: true, Message: "the tournament's token key: " + err.Error()}
	}
	c, perr := tokens.Verify(token)
	if perr != nil {
		return "", perr
	}
	if c.Role != protocol.RolePlayer {
		return "", &protocol.Error{Code: protocol.CodeBadToken, Fatal: true, Message: "a spectator's token plays no seat: the gateway takes an entry's token"}
	}
	return c.Subject, nil
}

// writeEntryTokens writes the tokens of entries (their IDs) into the batch's Secret, with the Role
// and RoleBinding that let the batch's issuer read it; a Secret written before is kept as it is
// (a batch reconciled again hands out the same tokens).
func (r *EntryBatchReconciler) writeEntryTokens(ctx context.Context, b *pokerv1.EntryBatch, workflowID string, entries []string) error {
	keys := r.Keys
	if keys == nil {
		keys = r.Client
	}
	var keySecret corev1.Secret
	if err := keys.Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: r.Config.KeySecret}, &keySecret); err != nil {
		return fmt.Errorf("the token key Secret %s/%s: %w", b.Namespace, r.Config.KeySecret, err)
	}
	tokens, err := EntryTokens(keySecret.Data["key"], workflowID)
	if err != nil {
		return fmt.Errorf("the token key Secret %s/%s's key \"key\": %w", b.Namespace, r.Config.KeySecret, err)
	}
	name := EntryTokensSecret(b.Name)
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: b.Namespace,
		Labels: map[string]string{TournamentLabel: b.Spec.Tournament}}, Type: corev1.SecretTypeOpaque, Data: map[string][]byte{}}
	for _, e := range entries {
		tok, err := tokens.Issue(e, protocol.RolePlayer, EntryTokenTTL)
		if err != nil {
			return fmt.Errorf("the token of %s: %w", e, err)
		}
		secret.Data[EntryTokenKey(e)] = []byte(tok)
	}
	role := &rbacv1.Role{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: b.Namespace},
		Rules: []rbacv1.PolicyRule{{APIGroups: []string{""}, Resources: []string{"secrets"}, ResourceNames: []string{name}, Verbs: []string{"get"}}}}
	binding := &rbacv1.RoleBinding{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: b.Namespace},
		RoleRef:  rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: name},
		Subjects: []rbacv1.Subject{subjectOf(issuer(b))}}
	for _, o := range []client.Object{secret, role, binding} {
		if err := controllerutil.SetControllerReference(b, o, r.Scheme()); err != nil {
			return err
		}
		if err := r.Create(ctx, o); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("the batch's tokens (%T %s): %w", o, name, err)
		}
	}
	return nil
}

// subjectOf is the RBAC subject of an authenticated user's name: a ServiceAccount's
// (system:serviceaccount:NAMESPACE:NAME) or a user's.
func subjectOf(user string) rbacv1.Subject {
	if rest, ok := strings.CutPrefix(user, "system:serviceaccount:"); ok {
		if ns, name, ok := strings.Cut(rest, ":"); ok {
			return rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Namespace: ns, Name: name}
		}
	}
	return rbacv1.Subject{APIGroup: rbacv1.GroupName, Kind: rbacv1.UserKind, Name: user}
}
