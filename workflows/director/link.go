package director

import "slices"

// Numbered is one message on a Link, with its sequence number.
type Numbered[T any] struct {
	Seq int `json:"seq"`
	Msg T   `json:"msg"`
}

// Link is ordered, resent delivery from one workflow to one other, the sending side: it numbers
// the messages from 1, keeps each until the receiver acknowledges it, and hands out again what
// was never acknowledged when a run that continued this one asks (Resend): the receiver (an
// Inbox) takes each once and in order, whatever the repeats and the order of arrival.
type Link[T any] struct {
	Sent  int `json:"sent"`
	Acked int `json:"acked"`
	// Unacked are the messages sent and not yet acknowledged, in order; the last Queued of them
	// have not been handed out (Take) yet.
	Unacked []Numbered[T] `json:"unacked,omitempty"`
	Queued  int           `json:"queued,omitempty"`
}

// Send numbers m and queues it; it returns its sequence number.
func (l *Link[T]) Send(m T) int {
	l.Sent++
	l.Unacked = append(l.Unacked, Numbered[T]{Seq: l.Sent, Msg: m})
	l.Queued++
	return l.Sent
}

// Take returns the messages queued since the last Take, for the caller to signal.
func (l *Link[T]) Take() []Numbered[T] {
	if l.Queued == 0 {
		return nil
	}
	out := slices.Clone(l.Unacked[len(l.Unacked)-l.Queued:])
	l.Queued = 0
	return out
}

// Ack notes that the receiver has applied every message up to seq.
func (l *Link[T]) Ack(seq int) {
	if seq <= l.Acked {
		return
	}
	l.Acked = min(seq, l.Sent)
	k := 0
	for k < len(l.Unacked) && l.Unacked[k].Seq <= l.Acked {
		k++
	}
	l.Unacked = slices.Delete(l.Unacked, 0, k)
	l.Queued = min(l.Queued, len(l.Unacked))
	if len(l.Unacked) == 0 {
		l.Unacked = nil
	}
}

// Resend queues again every message not acknowledged: a run that continued as new does not know
// whether they arrived.
func (l *Link[T]) Resend() { l.Queued = len(l.Unacked) }

// LastQueued is the last message sent and not yet taken, to add to (nil when none is queued).
func (l *Link[T]) LastQueued() *T {
	if l.Queued == 0 || len(l.Unacked) == 0 {
		return nil
	}
	return &l.Unacked[len(l.Unacked)-1].Msg
}

// Pending reports whether a message is not yet acknowledged.
func (l *Link[T]) Pending() bool { return l.Acked < l.Sent }

// Inbox is the receiving side of a Link: it takes messages in whatever order they arrive, drops
// repeats, and gives them out once each, in sequence.
type Inbox[T any] struct {
	// Last is the sequence number of the last message given out; Early holds those that came
	// before their turn.
	Last  int           `json:"last"`
	Early []Numbered[T] `json:"early,omitempty"`
}

// Add takes msgs in and returns, in order, the messages that are now next in sequence.
func (in *Inbox[T]) Add(msgs ...Numbered[T]) []T {
	for _, m := range msgs {
		if m.Seq <= in.Last || slices.ContainsFunc(in.Early, func(e Numbered[T]) bool { return e.Seq == m.Seq }) {
			continue
		}
		in.Early = append(in.Early, m)
	}
	slices.SortFunc(in.Early, func(a, b Numbered[T]) int { return a.Seq - b.Seq })
	var out []T
	k := 0
	for k < len(in.Early) && in.Early[k].Seq == in.Last+1 {
		out = append(out, in.Early[k].Msg)
		in.Last++
		k++
	}
	in.Early = slices.Delete(in.Early, 0, k)
	if len(in.Early) == 0 {
		in.Early = nil
	}
	return out
}
