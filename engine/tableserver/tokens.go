package tableserver

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/pokerfloor/pokerfloor/engine/protocol"
)

// Claims are a table token's claims: signed (HS256), expiring, bound to a tournament, a table and a
// player. A spectator token has no player and role spectator: it reads and never acts.
type Claims struct {
	Tournament string        `json:"tid"`
	Table      string        `json:"tbl"`
	Role       protocol.Role `json:"role"`
	jwt.RegisteredClaims
}

// MinKeySize is the shortest signing key accepted, in bytes (HS256 wants at least the hash's size).
const MinKeySize = 32

// Tokens issues and verifies the tokens of one table.
type Tokens struct {
	key        []byte
	tournament string
	table      string
	now        func() time.Time
}

// NewTokens returns the tokens of table in tournament, signed with key. now is the clock tokens
// expire by (nil: the wall clock).
func NewTokens(key []byte, tournament, table string, now func() time.Time) (*Tokens, error) {
	if len(key) < MinKeySize {
		return nil, fmt.Errorf("a token signing key has at least %d bytes, this one %d", MinKeySize, len(key))
	}
	if tournament == "" || table == "" {
		return nil, errors.New("tokens are bound to a tournament and a table: both names are needed")
	}
	if now == nil {
		now = time.Now
	}
	return &Tokens{key: append([]byte(nil), key...), tournament: tournament, table: table, now: now}, nil
}

// ReadKeyFile reads a signing key from a file, such as a mounted Kubernetes Secret: the file's bytes,
// with a trailing newline trimmed.
func ReadKeyFile(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("token key: %w", err)
	}
	key := []byte(strings.TrimRight(string(b), "\r\n"))
	if len(key) < MinKeySize {
		return nil, fmt.Errorf("token key %s: %d bytes, at least %d expected", path, len(key), MinKeySize)
	}
	return key, nil
}

// Issue returns a token for player (empty with RoleSpectator) valid for ttl.
func (k *Tokens) Issue(player string, role protocol.Role, ttl time.Duration) (string, error) {
	switch {
	case role == protocol.RolePlayer && player == "":
		return "", errors.New("a player token names its player")
	case role == protocol.RoleSpectator && player != "":
		return "", errors.New("a spectator token names no player")
	case role != protocol.RolePlayer && role != protocol.RoleSpectator:
		return "", fmt.Errorf("role %q: expected player or spectator", role)
	case ttl <= 0:
		return "", errors.New("a token expires: give it a positive lifetime")
	}
	var id [12]byte
	if _, err := rand.Read(id[:]); err != nil {
		return "", err
	}
	now := k.now()
	c := Claims{Tournament: k.tournament, Table: k.table, Role: role, RegisteredClaims: jwt.RegisteredClaims{
		Subject: player, ID: hex.EncodeToString(id[:]), IssuedAt: jwt.NewNumericDate(now),
		ExpiresAt: jwt.NewNumericDate(now.Add(ttl))}}
	return jwt.NewWithClaims(jwt.SigningMethodHS256, c).SignedString(k.key)
}

// Verify checks a token's signature, expiry and binding to this table, and returns its claims, or
// the protocol error to send (bad_token, token_expired).
func (k *Tokens) Verify(token string) (*Claims, *protocol.Error) {
	c := &Claims{}
	_, err := jwt.ParseWithClaims(token, c, func(*jwt.Token) (any, error) { return k.key, nil },
		jwt.WithValidMethods([]string{jwt.SigningMethodHS256.Alg()}), jwt.WithExpirationRequired(),
		jwt.WithTimeFunc(k.now))
	switch {
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, &protocol.Error{Code: protocol.CodeTokenExpired, Fatal: true,
			Message: fmt.Sprintf("the token expired at %s: ask for a new one", c.ExpiresAt.UTC().Format(time.RFC3339))}
	case errors.Is(err, jwt.ErrTokenSignatureInvalid):
		return nil, &protocol.Error{Code: protocol.CodeBadToken, Fatal: true, Message: "the token's signature is not this table's: it was not issued here"}
	case err != nil:
		return nil, &protocol.Error{Code: protocol.CodeBadToken, Fatal: true, Message: "the token is not valid: " + err.Error()}
	case c.Tournament != k.tournament || c.Table != k.table:
		return nil, &protocol.Error{Code: protocol.CodeBadToken, Fatal: true,
			Message: fmt.Sprintf("the token is for table %q of tournament %q, this is table %q of %q", c.Table, c.Tournament, k.table, k.tournament)}
	case c.ID == "":
		return nil, &protocol.Error{Code: protocol.CodeBadToken, Fatal: true, Message: "the token has no ID (jti)"}
	case c.Role == protocol.RolePlayer && c.Subject == "", c.Role == protocol.RoleSpectator && c.Subject != "",
		c.Role != protocol.RolePlayer && c.Role != protocol.RoleSpectator:
		return nil, &protocol.Error{Code: protocol.CodeBadToken, Fatal: true,
			Message: fmt.Sprintf("role %q with player %q: a player token names its player, a spectator token none", c.Role, c.Subject)}
	}
	return c, nil
}
