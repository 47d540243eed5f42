package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pokerfloor/pokerfloor/workflows"
)

// standingsShown is how many chip counts the text standings list; --output json has them all.
const standingsShown = 10

// standingsReport is the standings of a tournament that was interrupted, as --output json writes
// them. Amounts are integer cents; stacks are chips.
type standingsReport struct {
	Interrupted  bool          `json:"interrupted"`
	TournamentID string        `json:"tournamentId"`
	Level        int           `json:"level"`
	Entries      int           `json:"entries"`
	PlayersLeft  int           `json:"playersLeft"`
	HandsPlayed  int64         `json:"handsPlayed"`
	ChipCounts   []chipCount   `json:"chipCounts"`
	Places       []reportPlace `json:"places"`
}

// chipCount is a player still in, by chips.
type chipCount struct {
	Player string `json:"player"`
	Chips  int64  `json:"chips"`
	Table  int    `json:"table"`
}

// writeStandings writes the standings of an interrupted tournament: the chip counts of the
// players still in (the leaders, in text) and the places given so far.
func writeStandings(w io.Writer, id string, s runSettings, p workflows.Progress, standings []workflows.Standing) error {
	r := standingsReport{Interrupted: true, TournamentID: id, Level: p.Level, Entries: p.Entries,
		PlayersLeft: p.PlayersLeft, HandsPlayed: p.HandsPlayed, ChipCounts: []chipCount{}, Places: []reportPlace{}}
	for _, st := range standings {
		if st.Place > 0 {
			r.Places = append(r.Places, reportPlace{Place: st.Place, Player: st.Player, Shared: st.Shared, PrizeCents: st.Prize})
			continue
		}
		r.ChipCounts = append(r.ChipCounts, chipCount{Player: st.Player, Chips: st.Stack, Table: int(st.Table)})
	}
	if s.JSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "standings so far: %s, %d of %d players left, hands %d\n", levelString(p), len(r.ChipCounts), p.Entries, p.HandsPlayed)
	shown := r.ChipCounts[:min(len(r.ChipCounts), standingsShown)]
	wPlayer, wChips := len("player"), len("chips")
	for _, c := range shown {
		wPlayer, wChips = max(wPlayer, len(c.Player)), max(wChips, len(formatCount(c.Chips)))
	}
	fmt.Fprintf(&b, "%4s  %-*s  %*s  %s\n", "rank", wPlayer, "player", wChips, "chips", "table")
	for i, c := range shown {
		fmt.Fprintf(&b, "%4d  %-*s  %*s  %d\n", i+1, wPlayer, c.Player, wChips, formatCount(c.Chips), c.Table)
	}
	if n := len(r.ChipCounts) - len(shown); n > 0 {
		fmt.Fprintf(&b, "      and %d more (--output json lists every one)\n", n)
	}
	switch paid, out := paidPlaces(r.Places), max(len(r.Places), p.Entries-p.PlayersLeft); { // a tournament of sections keeps the best places only
	case out == 0:
		b.WriteString("nobody is out yet\n")
	case len(paid) == 0:
		fmt.Fprintf(&b, "%d players out, none in the money yet\n", out)
	default:
		fmt.Fprintf(&b, "%d players out, %d of them paid:\n", out, len(paid))
		for _, pl := range paid {
			fmt.Fprintf(&b, "%7s  %s  %s\n", placeLabel(pl.Place, pl.Shared), pl.Player, formatAmount(pl.PrizeCents))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func paidPlaces(places []reportPlace) []reportPlace {
	var paid []reportPlace
	for _, p := range places {
		if p.PrizeCents > 0 {
			paid = append(paid, p)
		}
	}
	return paid
}
