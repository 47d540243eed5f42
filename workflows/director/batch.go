package director

import (
	"fmt"
	"slices"
	"strconv"
	"time"
)

// MaxBatchEntries is the most entries one RegisterBatch Update takes: about 100 bytes an entry
// in and out, so a batch's payload stays far below Temporal's 2 MB (warned at 512 KB).
const MaxBatchEntries = 1000

// RegisterBatchRequest registers many entries in one Update (a large event's registration, in
// batches through the manager): each entry is taken or refused on its own, and each has its own
// idempotency key, so a retried batch applies every entry once.
type RegisterBatchRequest struct {
	Entries []BatchEntry `json:"entries"`
	// Key is the batch's idempotency key, the Update ID that carried it; an entry with no Key of
	// its own is keyed by it and its index ("KEY/3").
	Key string `json:"key,omitempty"`
}

// BatchEntry is one entry of a batch: a new player, or a re-entry of one who busted (R1).
type BatchEntry struct {
	Player    string `json:"player,omitempty"`
	ReEntryOf string `json:"reEntryOf,omitempty"`
	Key       string `json:"key,omitempty"`
	// Section, for a re-entry at several sections, holds his busted entry (RegisterRequest's).
	Section int `json:"section,omitempty"`
}

// BatchResult is the answer for one entry of a batch, in the batch's order: the entry's ID when
// it was taken (also when a retry found it taken already), or why it was refused.
type BatchResult struct {
	Key     string `json:"key"`
	Player  string `json:"player,omitempty"`
	Entry   string `json:"entry,omitempty"`
	Refused string `json:"refused,omitempty"`
}

// Requests are the batch's entries as RegisterRequests, each with its own key.
func (r RegisterBatchRequest) Requests() []RegisterRequest {
	out := make([]RegisterRequest, len(r.Entries))
	for i, e := range r.Entries {
		out[i] = RegisterRequest{Player: e.Player, ReEntryOf: e.ReEntryOf, Key: itemKey(e.Key, r.Key, i), Section: e.Section}
	}
	return out
}

// VerifyBatch says why the batch as a whole is refused (its size; two entries with one key), or
// returns nil: an entry the rules refuse is answered in its BatchResult, the others are taken.
func VerifyBatch(r RegisterBatchRequest) error {
	return verifyBatchKeys("entries", "entry", keysOf(r.Requests(), func(q RegisterRequest) string { return q.Key }))
}

// keysOf is the key of each of a batch's requests.
func keysOf[R any](rs []R, key func(R) string) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = key(r)
	}
	return out
}

// verifyBatchKeys says why a batch of items (their name, plural and singular) with keys is
// refused: its size, or two items with one key (an empty key is the workflow's to give).
func verifyBatchKeys(items, item string, keys []string) error {
	if n := len(keys); n == 0 || n > MaxBatchEntries {
		return fmt.Errorf("a batch of %d %s: expected 1 to %d", len(keys), items, MaxBatchEntries)
	}
	seen := map[string]int{}
	for i, k := range keys {
		if k == "" {
			continue
		}
		if j, ok := seen[k]; ok {
			return fmt.Errorf("%s %d and %d of the batch have the same key %q: each %s needs its own", items, j+1, i+1, k, item)
		}
		seen[k] = i
	}
	return nil
}

// RegisterBatch takes each entry of the batch that VerifyRegister lets in (R1, R6), in order,
// and answers each: its ID, or the reason it was refused. An entry whose key was taken before
// (a retried batch) is answered with the ID it was given then.
func (s *TournamentState) RegisterBatch(r RegisterBatchRequest, now time.Time) []BatchResult {
	out := make([]BatchResult, 0, len(r.Entries))
	for _, q := range r.Requests() {
		res := BatchResult{Key: q.Key, Player: orElse(q.Player, q.ReEntryOf)}
		if err := s.VerifyRegister(q, now); err != nil {
			res.Refused = err.Error()
		} else {
			res.Entry = s.Register(q)
		}
		out = append(out, res)
	}
	return out
}

// RebuyBatchRequest buys chips for many players in one Update (a cashier's batch through the
// manager): each rebuy is taken or refused on its own, with its own idempotency key, so that a
// retried batch applies every rebuy once. One player may rebuy twice in a batch, each counted
// against his limit in the batch's order.
type RebuyBatchRequest struct {
	Rebuys []RebuyRequest `json:"rebuys"`
	// Key is the batch's idempotency key, the Update ID that carried it; a rebuy with no Key of
	// its own is keyed by it and its index ("KEY/3").
	Key string `json:"key,omitempty"`
}

// Requests are the batch's rebuys, each with its own key.
func (r RebuyBatchRequest) Requests() []RebuyRequest {
	out := make([]RebuyRequest, len(r.Rebuys))
	for i, q := range r.Rebuys {
		q.Key = itemKey(q.Key, r.Key, i)
		out[i] = q
	}
	return out
}

// itemKey is the key of a batch's ith item: its own, or else the batch's and its index
// ("KEY/3"), or none when the batch has none either.
func itemKey(own, batch string, i int) string {
	if own == "" && batch != "" {
		return batch + "/" + strconv.Itoa(i)
	}
	return own
}

// VerifyRebuyBatch says why the batch as a whole is refused (its size; two rebuys with one key),
// or returns nil: a rebuy the rules refuse is answered in its BatchResult, the others are taken.
func VerifyRebuyBatch(r RebuyBatchRequest) error {
	return verifyBatchKeys("rebuys", "rebuy", keysOf(r.Requests(), func(q RebuyRequest) string { return q.Key }))
}

// RebuyBatch takes each rebuy of the batch that VerifyRebuy lets in (R1, R6), in order, and
// returns each one's answer so far (refused, or taken with Entry empty) and the RebuyLog index
// of each taken (-1 for one refused): a taken rebuy is Done once its table has checked the
// player's stack (RebuyBatchResults).
func (s *TournamentState) RebuyBatch(r RebuyBatchRequest, now time.Time) ([]BatchResult, []int) {
	out := make([]BatchResult, 0, len(r.Rebuys))
	refs := make([]int, 0, len(r.Rebuys))
	for _, q := range r.Requests() {
		res, ref := BatchResult{Key: q.Key, Player: q.Player}, -1
		if err := s.VerifyRebuy(q, now); err != nil {
			res.Refused = err.Error()
		} else {
			ref = s.Rebuy(q)
		}
		out = append(out, res)
		refs = append(refs, ref)
	}
	return out, refs
}

// RebuysDone says every rebuy of refs (RebuyBatch's) has its table's answer.
func (s *TournamentState) RebuysDone(refs []int) bool {
	for _, ref := range refs {
		if ref >= 0 && !s.RebuyLog[ref].Done {
			return false
		}
	}
	return true
}

// RebuyBatchResults are res (RebuyBatch's) with the tables' answers so far: a rebuy its table
// refused (the stack above the starting stack) is refused with the table's reason.
func (s *TournamentState) RebuyBatchResults(res []BatchResult, refs []int) []BatchResult {
	out := slices.Clone(res)
	for i, ref := range refs {
		if ref >= 0 && s.RebuyLog[ref].Refused != "" {
			out[i].Refused = s.RebuyLog[ref].Refused
		}
	}
	return out
}
