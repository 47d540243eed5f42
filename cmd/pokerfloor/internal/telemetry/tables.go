package telemetry

import (
	"context"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/pokerfloor/pokerfloor/engine"
	"github.com/pokerfloor/pokerfloor/engine/report"
)

// TableObserver traces one table's hands and times its actions: give its Observe to the table's
// runtime (host.Options.Observe, tableserver.Config.Observe). It is driven by the table's one
// goroutine.
type TableObserver struct {
	t          *Telemetry
	tournament string
	table      string

	span   trace.Span // the hand in progress, nil between hands
	hand   int64
	logged int       // events of the hand's log already added to span
	last   time.Time // when the table last changed: the turn in progress started then
	now    func() time.Time
}

// Table returns the observer of a table of tournament.
func (t *Telemetry) Table(tournament, table string) *TableObserver {
	return &TableObserver{t: t, tournament: tournament, table: table, now: time.Now}
}

// Observe sees the table once a hand is dealt and after every action (engine/host's contract):
// it opens the hand's span at the deal, adds each new event of the hand's log to it, records the
// time the action took, and ends the span when the hand is over.
func (o *TableObserver) Observe(tb *engine.Table) {
	now := o.now()
	hd := tb.Header()
	phase := tb.Phase()
	if o.span != nil && hd.Number != o.hand {
		// The last hand never finished here (the context ended mid-hand: void, D4).
		o.span.SetAttributes(attribute.Bool("poker.hand.interrupted", true))
		o.span.SetStatus(codes.Error, "interrupted: void (D4)")
		o.span.End(trace.WithTimestamp(o.last))
		o.span = nil
	}
	if o.span == nil {
		if phase != engine.Betting {
			return // between hands
		}
		ctx := context.Background()
		_, o.span = o.t.tracer.Start(ctx, "poker.hand", trace.WithTimestamp(now), trace.WithAttributes(
			AttrTournament.String(o.tournament), AttrTable.String(o.table), AttrHand.Int64(hd.Number),
			attribute.Int64("poker.level.small_blind", hd.Level.SmallBlind), attribute.Int64("poker.level.big_blind", hd.Level.BigBlind),
			attribute.Int64("poker.level.ante", hd.Level.Ante), attribute.Int("poker.button", hd.Button+1)))
		o.hand, o.logged = hd.Number, 0
	} else {
		o.t.actionTime.Record(context.Background(), now.Sub(o.last).Seconds())
	}
	o.last = now
	if o.span.IsRecording() {
		log := tb.Log()
		for _, e := range log[min(o.logged, len(log)):] {
			if name, attrs, ok := eventAttributes(e); ok {
				o.span.AddEvent(name, trace.WithTimestamp(now), trace.WithAttributes(attrs...))
			}
		}
		o.logged = len(log)
	}
	if phase == engine.Betting {
		return
	}
	if phase == engine.Voided {
		o.span.SetStatus(codes.Error, "void (D4)")
	}
	o.span.SetAttributes(attribute.String("poker.hand.phase", phaseName(phase)))
	o.span.End(trace.WithTimestamp(now))
	o.span = nil
}

func phaseName(p engine.Phase) string {
	switch p {
	case engine.Complete:
		return "complete"
	case engine.Voided:
		return "void"
	}
	return "betting"
}

// eventAttributes describes one event of a hand's log for a span. Hole cards are never given
// (a span may be read before the hand is over, by people who must not see them); the board and
// the hands shown are public.
func eventAttributes(e engine.Event) (string, []attribute.KeyValue, bool) {
	if e.Kind == engine.EvHole || e.Kind == engine.EvLive {
		return "", nil, false
	}
	attrs := []attribute.KeyValue{attribute.String("poker.round", strings.ToLower(e.Round.String()))}
	switch e.Kind {
	case engine.EvHandStart, engine.EvBoard, engine.EvHandEnd, engine.EvVoid:
	default:
		attrs = append(attrs, attribute.Int("poker.seat", int(e.Seat)+1))
	}
	if e.Amount != 0 && e.Kind != engine.EvHandStart {
		attrs = append(attrs, attribute.Int64("poker.amount", e.Amount))
	}
	if e.To != 0 {
		attrs = append(attrs, attribute.Int64("poker.to", e.To))
	}
	if e.AllIn {
		attrs = append(attrs, attribute.Bool("poker.all_in", true))
	}
	if e.Kind == engine.EvBoard || e.Kind == engine.EvShow {
		cards := make([]string, 0, e.N)
		for _, c := range e.CardList() {
			cards = append(cards, c.String())
		}
		attrs = append(attrs, attribute.String("poker.cards", strings.Join(cards, " ")))
	}
	return e.Kind.String(), attrs, true
}

// Reporter wraps the tables' reporter: it counts and times the reports, and from the reports
// acknowledged counts the hands (once each, however often one is reported again), the
// eliminations, and the players moved in (a player the State seats who was not at the table).
// tournament names each table's tournament.
func (t *Telemetry) Reporter(tournament func(tableID string) string, inner report.Reporter) report.Reporter {
	return &countingReporter{t: t, tournament: tournament, inner: inner, tables: map[string]*tableCount{}}
}

type countingReporter struct {
	t          *Telemetry
	tournament func(tableID string) string
	inner      report.Reporter

	mu     sync.Mutex
	tables map[string]*tableCount
}

type tableCount struct {
	counted int64               // the last hand counted
	seated  map[string]struct{} // the players of the last State (nil before the first)
}

func (r *countingReporter) Report(ctx context.Context, tableID string, results []report.HandResult) (report.State, error) {
	tournament := r.tournament(tableID)
	ctx, span := r.t.tracer.Start(ctx, "poker.report", trace.WithSpanKind(trace.SpanKindClient), trace.WithAttributes(
		AttrTournament.String(tournament), AttrTable.String(tableID), attribute.Int("poker.hands", len(results))))
	if len(results) > 0 {
		span.SetAttributes(AttrHand.Int64(results[len(results)-1].HandNumber))
	}
	start := time.Now()
	st, err := r.inner.Report(ctx, tableID, results)
	took := time.Since(start).Seconds()
	outcome := "ok"
	if err != nil {
		outcome = "error"
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
	at := metric.WithAttributes(AttrTournament.String(tournament), attribute.String("outcome", outcome))
	bg := context.Background() // ctx may be cancelled: the measurement still counts
	r.t.reports.Add(bg, 1, at)
	r.t.reportTime.Record(bg, took, at)
	if err != nil {
		return st, err
	}

	var hands, out, moved int64
	r.mu.Lock()
	tc := r.tables[tableID]
	if tc == nil {
		tc = &tableCount{}
		r.tables[tableID] = tc
	}
	for _, res := range results {
		if res.Voided || res.HandNumber <= tc.counted {
			continue
		}
		tc.counted = res.HandNumber
		hands++
		out += int64(len(res.Eliminated))
	}
	seated := make(map[string]struct{}, len(st.Seats))
	for _, s := range st.Seats {
		seated[s.Player] = struct{}{}
		if _, was := tc.seated[s.Player]; tc.seated != nil && !was {
			moved++
		}
	}
	tc.seated = seated
	if st.Directive == report.Close {
		delete(r.tables, tableID)
	}
	r.mu.Unlock()

	tour := metric.WithAttributes(AttrTournament.String(tournament))
	if hands > 0 {
		r.t.hands.Add(bg, hands, tour)
		r.t.rate.Add(hands)
	}
	if out > 0 {
		r.t.eliminations.Add(bg, out, tour)
	}
	if moved > 0 {
		r.t.moves.Add(bg, moved, tour)
	}
	return st, nil
}
