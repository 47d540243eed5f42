package floor

import "fmt"

// Conduct is an offence of rule P7: conduct that brings a sanction.
type Conduct string

// The offences of rule P7.
const (
	Collusion       Conduct = "collusion"
	Abuse           Conduct = "abuse"
	DisclosingHand  Conduct = "disclosing a live or folded hand during play"
	ActingOutOfTurn Conduct = "acting out of turn on purpose"
	Stalling        Conduct = "stalling"
	ChipDumping     Conduct = "chip dumping"
	SoftPlay        Conduct = "soft play"
)

// Conducts lists every offence of rule P7.
var Conducts = []Conduct{Collusion, Abuse, DisclosingHand, ActingOutOfTurn, Stalling, ChipDumping, SoftPlay}

// ConductPenalties is the least penalty each offence brings for each player it names (P7). Most go up
// the ladder like any offence (NextPenalty); chip dumping and collusion disqualify every player in
// it at once (000, 003 r12, r33: chip dumping disqualifies both players).
func ConductPenalties(c Conduct, players []PlayerID, history []Sanction) (map[PlayerID]Penalty, error) {
	known := false
	for _, k := range Conducts {
		known = known || k == c
	}
	if !known {
		return nil, ruleErr("P7", "%q is not an offence the rules name (expected one of %v)", c, Conducts)
	}
	if len(players) == 0 || (c == ChipDumping || c == Collusion) && len(players) < 2 {
		return nil, ruleErr("P7", "%s names %d players (expected %s)", c, len(players), map[bool]string{true: "at least two", false: "at least one"}[c == ChipDumping || c == Collusion])
	}
	out := make(map[PlayerID]Penalty, len(players))
	for _, p := range players {
		if _, dup := out[p]; dup {
			return nil, ruleErr("P7", "player %s is named twice", p)
		}
		if c == ChipDumping || c == Collusion {
			out[p] = Penalty{Kind: Disqualification}
		} else {
			out[p] = NextPenalty(p, history)
		}
	}
	return out, nil
}

// String says the offence in words.
func (c Conduct) String() string { return fmt.Sprintf("%s (rule P7)", string(c)) }
