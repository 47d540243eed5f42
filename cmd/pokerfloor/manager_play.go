package main

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"github.com/pokerfloor/pokerfloor/cmd/pokerfloor/internal/lobby"
	"github.com/pokerfloor/pokerfloor/controllers"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
	"github.com/pokerfloor/pokerfloor/engine/tableserver"
	"github.com/pokerfloor/pokerfloor/workflows"
	temporal "go.temporal.io/sdk/client"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// tableTokenTTL is how long the token the gateway signs for a player's table lives: it is used
// at once, to join (a table checks a token when it is joined only).
const tableTokenTTL = 10 * time.Minute

// playGateway is the tournament's one address for its players, /NAMESPACE/NAME/play on the lobby:
// a player's WebSocket joins there with his entry token (controllers.EntryTokens, which the
// EntryBatch reconciler hands out) and is relayed to the Pod of the table his tournament's
// workflow seats him at, then to the next one when he is moved or his table breaks.
func (s tableSpectators) playGateway(t *pokerv1.Tournament, tc temporal.Client, log *slog.Logger) http.Handler {
	namespace, name, workflowID := t.Namespace, t.Name, t.Status.WorkflowID
	return lobby.NewGateway(lobby.GatewayConfig{
		Tournament: namespace + "/" + name,
		Logger:     log,
		Seats:      workflows.GetTournament(tc, workflowID),
		Verify: func(ctx context.Context, token string) (string, *protocol.Error) {
			key, err := s.key(ctx, namespace)
			if err != nil {
				return "", &protocol.Error{Code: protocol.CodeInternal, Fatal: true, Message: err.Error()}
			}
			return controllers.VerifyEntryToken(key, workflowID, token)
		},
		Table: func(ctx context.Context, seat workflows.Seat) (string, string, error) {
			table, addr, _, err := s.tableAddress(ctx, namespace, name, int(seat.Table))
			if err != nil {
				return "", "", err
			}
			if id := table.Annotations[controllers.TableIDAnnotation]; id != seat.TableID {
				return "", "", fmt.Errorf("table %d of %s/%s is %q, the player's seat is at %q: try again in a moment", seat.Table, namespace, name, id, seat.TableID)
			}
			tokens, err := s.tableTokens(ctx, table)
			if err != nil {
				return "", "", err
			}
			tok, err := tokens.Issue(seat.Player, protocol.RolePlayer, tableTokenTTL)
			if err != nil {
				return "", "", err
			}
			return "ws://" + addr + "/ws", tok, nil
		},
	})
}

// key reads the token key of namespace's Secret.
func (s tableSpectators) key(ctx context.Context, namespace string) ([]byte, error) {
	var secret corev1.Secret
	if err := s.keys.Get(ctx, client.ObjectKey{Namespace: namespace, Name: s.keySecret}, &secret); err != nil {
		return nil, fmt.Errorf("the key Secret %s/%s: %w", namespace, s.keySecret, err)
	}
	return secret.Data["key"], nil
}

// tableTokens are the tokens of table, bound as the table process binds them: to the table's ID
// and the tournament that ID starts with (TOURNAMENT/table-NNN).
func (s tableSpectators) tableTokens(ctx context.Context, table *pokerv1.Table) (*tableserver.Tokens, error) {
	id := table.Annotations[controllers.TableIDAnnotation]
	i := strings.LastIndex(id, "/table-")
	if i <= 0 {
		return nil, fmt.Errorf("the Table %s has no table ID (annotation %s %q): the tournament's workflow has not set it up", table.Name, controllers.TableIDAnnotation, id)
	}
	key, err := s.key(ctx, table.Namespace)
	if err != nil {
		return nil, err
	}
	tokens, err := tableserver.NewTokens(key, id[:i], id, nil)
	if err != nil {
		return nil, fmt.Errorf("the key Secret %s/%s's key \"key\": %w", table.Namespace, s.keySecret, err)
	}
	return tokens, nil
}
