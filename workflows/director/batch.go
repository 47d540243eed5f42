package director

import (
	"fmt"
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
		key := e.Key
		if key == "" && r.Key != "" {
			key = r.Key + "/" + strconv.Itoa(i)
		}
		out[i] = RegisterRequest{Player: e.Player, ReEntryOf: e.ReEntryOf, Key: key, Section: e.Section}
	}
	return out
}

// VerifyBatch says why the batch as a whole is refused (its size; two entries with one key), or
// returns nil: an entry the rules refuse is answered in its BatchResult, the others are taken.
func VerifyBatch(r RegisterBatchRequest) error {
	if len(r.Entries) == 0 || len(r.Entries) > MaxBatchEntries {
		return fmt.Errorf("a batch of %d entries: expected 1 to %d", len(r.Entries), MaxBatchEntries)
	}
	seen := map[string]int{}
	for i, q := range r.Requests() {
		if q.Key == "" {
			continue
		}
		if j, ok := seen[q.Key]; ok {
			return fmt.Errorf("entries %d and %d of the batch have the same key %q: each entry needs its own", j+1, i+1, q.Key)
		}
		seen[q.Key] = i
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
