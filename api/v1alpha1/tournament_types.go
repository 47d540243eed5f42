package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Tournament is one No-Limit Hold'em tournament as its organiser publishes it: the money, the
// chips, the blind structure, the floor's policies and the payouts. The manager starts its
// workflow, keeps its Tables and mirrors its progress into status.
//
// The money and the chips are fixed once the tournament has started (status.startedAt is set):
// players bought in on those terms (R1, B3).
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=tmt,categories=pokerfloor
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Level",type=integer,JSONPath=`.status.level`
// +kubebuilder:printcolumn:name="Next level",type=date,JSONPath=`.status.nextLevelAt`,priority=1
// +kubebuilder:printcolumn:name="Left",type=integer,JSONPath=`.status.playersLeft`
// +kubebuilder:printcolumn:name="Entries",type=integer,JSONPath=`.status.entries`
// +kubebuilder:printcolumn:name="Tables",type=integer,JSONPath=`.status.tables`
// +kubebuilder:printcolumn:name="Pool (cents)",type=integer,JSONPath=`.status.prizePoolCents`
// +kubebuilder:printcolumn:name="Paid",type=integer,JSONPath=`.status.placesPaid`,priority=1
// +kubebuilder:printcolumn:name="Paused",type=boolean,JSONPath=`.spec.paused`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="self.metadata.name.matches('^[a-z]([-a-z0-9]*[a-z0-9])?$') && size(self.metadata.name) <= 50",message="a Tournament's name is a DNS label of at most 50 characters (lower case letters, digits and '-', starting with a letter): its tables' Pods and Services are named after it and their number, and a Service name is such a label of at most 63"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.startedAt) || (self.spec.currency == oldSelf.spec.currency && self.spec.buyInCents == oldSelf.spec.buyInCents && self.spec.?feeCents.orValue(0) == oldSelf.spec.?feeCents.orValue(0))",message="spec.currency, spec.buyInCents and spec.feeCents cannot change after the tournament has started (status.startedAt is set): every entry bought in at that price (R1)",fieldPath=`.spec.buyInCents`
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.startedAt) || self.spec.?startingStack.orValue(0) == oldSelf.spec.?startingStack.orValue(0)",message="spec.startingStack cannot change after the tournament has started (status.startedAt is set): every entry was given that many chips (R1)",fieldPath=`.spec.startingStack`
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.startedAt) || self.spec.tableSize == oldSelf.spec.tableSize",message="spec.tableSize cannot change after the tournament has started (status.startedAt is set): the tables are drawn and balanced at that size (T1, R3)",fieldPath=`.spec.tableSize`
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.status) || !has(oldSelf.status.startedAt) || self.spec.structure == oldSelf.spec.structure",message="spec.structure cannot change after the tournament has started (status.startedAt is set): the schedule is fixed and published before the start (B3)",fieldPath=`.spec.structure`
type Tournament struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   TournamentSpec   `json:"spec"`
	Status TournamentStatus `json:"status,omitempty"`
}

// TournamentSpec is what the organiser publishes before the start.
//
// +kubebuilder:validation:XValidation:rule="self.?feeCents.orValue(0) < self.buyInCents",message="spec.feeCents must be less than spec.buyInCents: the fee is the part of the buy-in the house keeps, the rest is the prize pool (R6)",fieldPath=`.feeCents`
// +kubebuilder:validation:XValidation:rule="has(self.startingStack) || has(self.structure.name)",message="spec.startingStack is required with a custom level schedule (spec.structure.levels); only a built-in structure brings its own (R1)",fieldPath=`.startingStack`
// +kubebuilder:validation:XValidation:rule="!has(self.reEntry) || has(self.lateRegistration)",message="spec.reEntry needs spec.lateRegistration: a player may re-enter only while registration is open (R1)",fieldPath=`.reEntry`
// +kubebuilder:validation:XValidation:rule="!has(self.bounty) || self.bounty.amountCents < self.buyInCents - self.?feeCents.orValue(0)",message="spec.bounty.amountCents must be less than the buy-in less the fee: the bounty is a part of each entry's prize money, and the rest is the prize pool (R6)",fieldPath=`.bounty.amountCents`
// +kubebuilder:validation:XValidation:rule="!has(self.payouts) || !has(self.payouts.satellite) || self.payouts.satellite.seatValueCents > self.buyInCents",message="spec.payouts.satellite.seatValueCents must be more than spec.buyInCents: a satellite's seat is worth more than its own buy-in",fieldPath=`.payouts.satellite.seatValueCents`
// +kubebuilder:validation:XValidation:rule="!has(self.payouts) || !has(self.payouts.satellite) || !has(self.players) || self.payouts.satellite.seats < size(self.players)",message="spec.payouts.satellite.seats must be fewer than the players listed in spec.players: a satellite awards fewer seats than it has entries",fieldPath=`.payouts.satellite.seats`
// +kubebuilder:validation:XValidation:rule="!has(self.lateRegistration) || !has(self.structure.levels) || self.lateRegistration.untilLevel <= self.structure.levels.filter(l, !l.?break.orValue(false)).size()",message="spec.lateRegistration.untilLevel is past the last level of spec.structure.levels (levels are counted from 1, breaks not counted)",fieldPath=`.lateRegistration.untilLevel`
// +kubebuilder:validation:XValidation:rule="!has(self.rebuys) || !has(self.structure.levels) || self.rebuys.untilLevel <= self.structure.levels.filter(l, !l.?break.orValue(false)).size()",message="spec.rebuys.untilLevel is past the last level of spec.structure.levels (levels are counted from 1, breaks not counted)",fieldPath=`.rebuys.untilLevel`
// +kubebuilder:validation:XValidation:rule="!has(self.addOn) || !has(self.rebuys) || self.addOn.afterLevel == self.rebuys.untilLevel",message="spec.addOn.afterLevel must be spec.rebuys.untilLevel: the add-on is sold at the break where rebuys close (R1)",fieldPath=`.addOn.afterLevel`
// +kubebuilder:validation:XValidation:rule="!has(self.addOn) || !has(self.structure.levels) || self.addOn.afterLevel < self.structure.levels.filter(l, !l.?break.orValue(false)).size()",message="spec.addOn.afterLevel must be before the last level of spec.structure.levels: the add-on is offered at the end of that level (levels are counted from 1, breaks not counted)",fieldPath=`.addOn.afterLevel`
type TournamentSpec struct {
	// DisplayName is the event's name in standings and on the clock screen.
	// +optional
	// +kubebuilder:validation:MaxLength=128
	DisplayName string `json:"displayName,omitempty"`

	// Currency is the ISO 4217 code of every amount in cents (EUR, USD, ...).
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Z]{3}$`
	Currency string `json:"currency"`

	// BuyInCents is the price of one entry in the currency's minor units, fee included (R1).
	// +required
	// +kubebuilder:validation:Minimum=1
	BuyInCents int64 `json:"buyInCents"`

	// FeeCents is the part of the buy-in the house keeps (and taxes); it does not reach the prize
	// pool (R6). Less than BuyInCents.
	// +optional
	// +kubebuilder:validation:Minimum=0
	FeeCents int64 `json:"feeCents,omitempty"`

	// StartingStack is the chips each entry starts with (R1). Required with a custom level
	// schedule; with a built-in structure it replaces the structure's own (10,000 turbo, 20,000
	// standard, 30,000 deep).
	// +optional
	// +kubebuilder:validation:Minimum=1
	StartingStack int64 `json:"startingStack,omitempty"`

	// TableSize is the seats at a table (T1): 2 to 10, 9 when not given.
	// +optional
	// +kubebuilder:default=9
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=10
	TableSize int32 `json:"tableSize,omitempty"`

	// Structure is the published blind structure: a built-in one by name, or a level schedule
	// with breaks (B3, R2).
	// +required
	Structure BlindStructure `json:"structure"`

	// AnteMode is the policy of rule B2: everyone posts the ante (the rule book), or the big blind
	// posts one ante for the table (TDA RP-11).
	// +optional
	// +kubebuilder:default=everyone
	AnteMode AnteMode `json:"anteMode,omitempty"`

	// ButtonRule is the policy of rule B5 when players around the blinds are eliminated.
	// +optional
	// +kubebuilder:default=dead
	ButtonRule ButtonRule `json:"buttonRule,omitempty"`

	// OutOfTurn is the policy of rule A14 for a declaration out of turn.
	// +optional
	// +kubebuilder:default=seed000
	OutOfTurn OutOfTurnRule `json:"outOfTurn,omitempty"`

	// BalanceThreshold is the policy of rule R3: tables are balanced once one has this many
	// players more than another, 2 (the rule book) or 3 (TDA 2007).
	// +optional
	// +kubebuilder:default=2
	// +kubebuilder:validation:Enum=2;3
	BalanceThreshold int32 `json:"balanceThreshold,omitempty"`

	// ActionClock is the policy of rule A15: think time, the clock, the countdown and the time
	// bank. The rule book's 30 + 60 + 10 seconds when not given.
	// +optional
	ActionClock *ActionClock `json:"actionClock,omitempty"`

	// NoShow lets the director remove the players who never sat down (a FloorAction
	// removeNoShows) once this much clock time has run from the start, refunded (T4). Without it
	// an absent player is late until blinded off, and removeNoShows is refused.
	// +optional
	NoShow *NoShow `json:"noShow,omitempty"`

	// LateRegistration keeps registration open after the start; without it registration closes
	// when the tournament starts (a freezeout).
	// +optional
	LateRegistration *LateRegistration `json:"lateRegistration,omitempty"`

	// ReEntry lets a player who busted buy a new entry while registration is open (R1 policy).
	// +optional
	ReEntry *ReEntry `json:"reEntry,omitempty"`

	// Rebuys lets an entry buy chips again while the rebuy period lasts (R1 policy, 003 r18).
	// +optional
	Rebuys *Rebuys `json:"rebuys,omitempty"`

	// AddOn offers every entry one purchase of chips at the end of the rebuy period.
	// +optional
	AddOn *AddOn `json:"addOn,omitempty"`

	// Bounty puts a price on every entry's head, paid to whoever eliminates it.
	// +optional
	Bounty *Bounty `json:"bounty,omitempty"`

	// Payouts shares the prize pool (R6); the built-in standard structure paying 10% of the field
	// when not given.
	// +optional
	Payouts *Payouts `json:"payouts,omitempty"`

	// HandForHand is the bubble policy (R7).
	// +optional
	HandForHand *HandForHand `json:"handForHand,omitempty"`

	// StartTime is when the first hand is dealt; now when not given.
	// +optional
	StartTime *metav1.Time `json:"startTime,omitempty"`

	// Paused stops the clock and every table after its hand in progress; false resumes.
	// +optional
	// +kubebuilder:default=false
	Paused bool `json:"paused,omitempty"`

	// Players registers a small event's field inline, by player ID. A large field registers
	// through EntryBatch objects instead: a Kubernetes object holds about 1.5 MB, and
	// registration at scale needs its own authenticated, idempotent path.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MaxLength=64
	// +kubebuilder:validation:items:Pattern=`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`
	Players []string `json:"players,omitempty"`

	// TablePods overrides how the manager builds each table's Pod.
	// +optional
	TablePods *TablePodOverrides `json:"tablePods,omitempty"`
}

// BlindStructure is a built-in structure's name or a schedule of levels and breaks (B3, R2).
//
// +kubebuilder:validation:XValidation:rule="has(self.name) != has(self.levels)",message="spec.structure takes either name (a built-in structure: turbo, standard, deep) or levels (a schedule of your own), exactly one of them"
// +kubebuilder:validation:XValidation:rule="!has(self.levels) || self.levels.all(l, !has(l.colorUp) || (has(self.chips) && l.colorUp.all(d, d in self.chips)))",message="spec.structure.levels: a colorUp names a denomination that spec.structure.chips does not list: only chips in play can leave play (R8)",fieldPath=`.levels`
// +kubebuilder:validation:XValidation:rule="!has(self.levels) || !self.levels[0].?break.orValue(false)",message="spec.structure.levels[0] is a break: the tournament starts with a blind level (B3)",fieldPath=`.levels`
// +kubebuilder:validation:XValidation:rule="!has(self.levels) || !self.levels[size(self.levels) - 1].?break.orValue(false)",message="spec.structure.levels ends with a break: the last period is the blind level that lasts until the end (B3)",fieldPath=`.levels`
// +kubebuilder:validation:XValidation:rule="!has(self.levels) || self.levels.filter(l, !l.?break.orValue(false)).map(l, l.?bigBlind.orValue(0)).isSorted()",message="spec.structure.levels: the blinds fall from one level to the next: each level's big blind must be at least the big blind of the level before (B3)",fieldPath=`.levels`
// +kubebuilder:validation:XValidation:rule="!has(self.levels) || self.levels.filter(l, !l.?break.orValue(false)).map(l, l.?ante.orValue(0)).isSorted()",message="spec.structure.levels: the ante falls from one level to the next: each level's ante must be at least the ante of the level before (B3)",fieldPath=`.levels`
// +kubebuilder:validation:XValidation:rule="!has(self.levels) || self.levels.filter(l, !l.?break.orValue(false)).all(i, l, i == 0 || l.?bigBlind.orValue(0) > self.levels.filter(p, !p.?break.orValue(false))[i - 1].?bigBlind.orValue(0) || l.?ante.orValue(0) > self.levels.filter(p, !p.?break.orValue(false))[i - 1].?ante.orValue(0))",message="spec.structure.levels: the blinds do not rise: a level repeats the big blind and the ante of the level before; make them one longer level (B3)",fieldPath=`.levels`
type BlindStructure struct {
	// Name is a built-in structure: turbo (10,000 chips, 10-minute levels), standard (20,000,
	// 20 minutes) or deep (30,000, 30 minutes).
	// +optional
	Name StructureName `json:"name,omitempty"`

	// Chips are the denominations in play at the start, ascending; needed for colorUp (R8).
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=12
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:XValidation:rule="self.isSorted() && self.all(c, self.filter(d, d == c).size() == 1)",message="spec.structure.chips must be ascending, each denomination once (R8)"
	Chips []int64 `json:"chips,omitempty"`

	// Levels is the schedule, in order: blind levels and breaks. The first and the last are blind
	// levels; the last lasts until the tournament ends.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=100
	Levels []Level `json:"levels,omitempty"`
}

// StructureName names a built-in blind structure (the workflows' floor.BuiltinStructure).
// +kubebuilder:validation:Enum=turbo;standard;deep
type StructureName string

// The built-in structures.
const (
	StructureTurbo    StructureName = "turbo"
	StructureStandard StructureName = "standard"
	StructureDeep     StructureName = "deep"
)

// Level is one period of the schedule: a blind level, or a break (break: true, no blinds).
//
// +kubebuilder:validation:XValidation:rule="!self.?break.orValue(false) || (self.?smallBlind.orValue(0) == 0 && self.?bigBlind.orValue(0) == 0 && self.?ante.orValue(0) == 0)",message="a break has no blinds and no ante (B3)"
// +kubebuilder:validation:XValidation:rule="self.?break.orValue(false) || self.?smallBlind.orValue(0) > 0",message="a blind level needs a positive smallBlind (B1)"
// +kubebuilder:validation:XValidation:rule="self.?break.orValue(false) || self.?bigBlind.orValue(0) == 2 * self.?smallBlind.orValue(0)",message="a blind level's bigBlind must be twice its smallBlind (B1)"
type Level struct {
	// Break marks a break: no hands are dealt.
	// +optional
	Break bool `json:"break,omitempty"`
	// SmallBlind is posted by the first player after the button (B1).
	// +optional
	// +kubebuilder:validation:Minimum=0
	SmallBlind int64 `json:"smallBlind,omitempty"`
	// BigBlind is twice the small blind (B1).
	// +optional
	// +kubebuilder:validation:Minimum=0
	BigBlind int64 `json:"bigBlind,omitempty"`
	// Ante is posted as AnteMode says (B2).
	// +optional
	// +kubebuilder:validation:Minimum=0
	Ante int64 `json:"ante,omitempty"`
	// Minutes is how long the period lasts on the clock.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=1440
	Minutes int32 `json:"minutes"`
	// ColorUp lists the denominations that leave play when this period starts, smallest first
	// (R8); usually on a break.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=12
	ColorUp []int64 `json:"colorUp,omitempty"`
}

// AnteMode is the policy of rule B2.
// +kubebuilder:validation:Enum=everyone;bigBlind
type AnteMode string

// The ante modes (B2).
const (
	AnteEveryone AnteMode = "everyone"
	AnteBigBlind AnteMode = "bigBlind"
)

// ButtonRule is the policy of rule B5.
// +kubebuilder:validation:Enum=dead;seed000
type ButtonRule string

// The button rules (B5).
const (
	ButtonDead    ButtonRule = "dead"
	ButtonSeed000 ButtonRule = "seed000"
)

// OutOfTurnRule is the policy of rule A14.
// +kubebuilder:validation:Enum=seed000;tda
type OutOfTurnRule string

// The out-of-turn rules (A14).
const (
	OutOfTurnSeed000 OutOfTurnRule = "seed000"
	OutOfTurnTDA     OutOfTurnRule = "tda"
)

// ActionClock is the policy of rule A15.
type ActionClock struct {
	// ThinkSeconds is how long a player may think before anyone may call the clock.
	// +optional
	// +kubebuilder:default=30
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=600
	ThinkSeconds int32 `json:"thinkSeconds,omitempty"`
	// ClockSeconds is the time left once the clock is called.
	// +optional
	// +kubebuilder:default=60
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=600
	ClockSeconds int32 `json:"clockSeconds,omitempty"`
	// CountdownSeconds is the final countdown after the clock.
	// +optional
	// +kubebuilder:default=10
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=60
	CountdownSeconds int32 `json:"countdownSeconds,omitempty"`
	// TimeBankSeconds is the extra time each player may draw on over the whole tournament.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=3600
	TimeBankSeconds int32 `json:"timeBankSeconds,omitempty"`
	// TimeBankPerLevelSeconds is added to every player's time bank at each new level.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=600
	TimeBankPerLevelSeconds int32 `json:"timeBankPerLevelSeconds,omitempty"`
	// Expiry is what happens when the time is up: fold (the rule book) or checkWhenFree (TDA 29:
	// check when nothing is owed).
	// +optional
	// +kubebuilder:default=fold
	Expiry ClockExpiry `json:"expiry,omitempty"`
}

// ClockExpiry is what rule A15 does when a player's time is up.
// +kubebuilder:validation:Enum=fold;checkWhenFree
type ClockExpiry string

// The clock expiries (A15).
const (
	ExpireFold          ClockExpiry = "fold"
	ExpireCheckWhenFree ClockExpiry = "checkWhenFree"
)

// NoShow is the no-show rule of T4.
type NoShow struct {
	// AfterMinutes of clock time from the start (pauses not counted) make an absent player a
	// no-show.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=600
	AfterMinutes int32 `json:"afterMinutes"`
	// KeepFee keeps the fee of a no-show's buy-in; the rest is refunded. Without it all of it is.
	// +optional
	KeepFee bool `json:"keepFee,omitempty"`
	// Auto removes the no-shows at that time without a FloorAction: every player whose table has
	// not seen him connect since he sat there. Without it the director removes them
	// (removeNoShows, with their names or without: then the same players).
	// +optional
	Auto bool `json:"auto,omitempty"`
}

// LateRegistration keeps registration open after the start.
type LateRegistration struct {
	// UntilLevel is the last level, from 1 (breaks not counted), in which players may register.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	UntilLevel int32 `json:"untilLevel"`
}

// ReEntry lets a busted player buy a new entry, at the buy-in, while registration is open.
type ReEntry struct {
	// Max is how many times one player may re-enter.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Max int32 `json:"max"`
}

// Rebuys lets an entry buy chips again (R1 policy, 003 r18: decided at once, chips in front of the
// player at once).
//
// +kubebuilder:validation:XValidation:rule="!has(self.priceCents) || self.?feeCents.orValue(0) < self.priceCents",message="spec.rebuys.feeCents must be less than spec.rebuys.priceCents: the rest goes to the prize pool (R6)",fieldPath=`.feeCents`
type Rebuys struct {
	// Max is how many rebuys one entry may make.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	Max int32 `json:"max"`
	// UntilLevel is the last level in which rebuys are allowed.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	UntilLevel int32 `json:"untilLevel"`
	// Chips is what a rebuy buys; the starting stack when not given.
	// +optional
	// +kubebuilder:validation:Minimum=1
	Chips int64 `json:"chips,omitempty"`
	// PriceCents and FeeCents are a rebuy's price and the house's part of it; the buy-in and
	// its fee when not given.
	// +optional
	// +kubebuilder:validation:Minimum=1
	PriceCents int64 `json:"priceCents,omitempty"`
	// FeeCents is the house's part of a rebuy's price.
	// +optional
	// +kubebuilder:validation:Minimum=0
	FeeCents int64 `json:"feeCents,omitempty"`
}

// AddOn is one purchase of chips offered to every entry still in, at the break after a level.
//
// +kubebuilder:validation:XValidation:rule="self.?feeCents.orValue(0) < self.priceCents",message="spec.addOn.feeCents must be less than spec.addOn.priceCents: the rest goes to the prize pool (R6)",fieldPath=`.feeCents`
type AddOn struct {
	// AfterLevel is the level at whose end the add-on is offered.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	AfterLevel int32 `json:"afterLevel"`
	// Chips is what the add-on buys.
	// +required
	// +kubebuilder:validation:Minimum=1
	Chips int64 `json:"chips"`
	// PriceCents is the add-on's price, fee included.
	// +required
	// +kubebuilder:validation:Minimum=1
	PriceCents int64 `json:"priceCents"`
	// FeeCents is the house's part of the price.
	// +optional
	// +kubebuilder:validation:Minimum=0
	FeeCents int64 `json:"feeCents,omitempty"`
}

// Bounty is a knockout: AmountCents of every buy-in is set on the entry's head and paid to whoever
// eliminates it. In a progressive knockout a share of each bounty won is added to the winner's own.
type Bounty struct {
	// AmountCents is the part of each buy-in (after the fee) that is the entry's bounty.
	// +required
	// +kubebuilder:validation:Minimum=1
	AmountCents int64 `json:"amountCents"`
	// ProgressivePercent is the share of a bounty won that is added to the winner's own bounty
	// rather than paid at once: 0 is a plain knockout, 50 the usual progressive knockout.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=100
	ProgressivePercent int32 `json:"progressivePercent,omitempty"`
}

// Payouts shares the prize pool (R6): a built-in structure, a custom table of shares or of
// amounts, or satellite seats with the cash left over. Exactly one of builtin,
// sharesBasisPoints, amountsCents and satellite.
//
// +kubebuilder:validation:XValidation:rule="[has(self.builtin), has(self.sharesBasisPoints), has(self.amountsCents), has(self.satellite)].filter(b, b).size() == 1",message="spec.payouts takes exactly one of builtin, sharesBasisPoints, amountsCents and satellite"
// +kubebuilder:validation:XValidation:rule="!has(self.paidPercent) || has(self.builtin)",message="spec.payouts.paidPercent goes with builtin: a custom table pays as many places as it lists",fieldPath=`.paidPercent`
type Payouts struct {
	// Builtin is a built-in structure: standard, top-heavy or flat.
	// +optional
	Builtin BuiltinPayout `json:"builtin,omitempty"`
	// PaidPercent is the share of the field a built-in structure pays, at least 10 (R6).
	// +optional
	// +kubebuilder:validation:Minimum=10
	// +kubebuilder:validation:Maximum=100
	PaidPercent int32 `json:"paidPercent,omitempty"`
	// UnitCents is the unit prizes are rounded down to (100: whole units of the currency); the
	// remainder goes to first place. 1 when not given.
	// +optional
	// +kubebuilder:validation:Minimum=1
	UnitCents int64 `json:"unitCents,omitempty"`
	// SharesBasisPoints is a custom table: each place's share of the pool in basis points
	// (1/100 of a percent: 3000 is 30%), first place first, never increasing, adding up to 10000.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=10000
	// +kubebuilder:validation:XValidation:rule="self.sum() == 10000",message="spec.payouts.sharesBasisPoints must add up to 10000 basis points, 100% of the prize pool (R6)"
	// +kubebuilder:validation:XValidation:rule="self.map(s, -s).isSorted()",message="spec.payouts.sharesBasisPoints must never increase from one place to the next: a place never pays more than the place above it (R6)"
	SharesBasisPoints []int32 `json:"sharesBasisPoints,omitempty"`
	// AmountsCents is a custom table of fixed prizes, first place first, never increasing: a
	// guaranteed event's. The house covers a pool short of their sum; a pool above it adds the
	// excess to each prize in proportion to its amount.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:XValidation:rule="self.map(a, -a).isSorted()",message="spec.payouts.amountsCents must never increase from one place to the next: a place never pays more than the place above it (R6)"
	AmountsCents []int64 `json:"amountsCents,omitempty"`
	// Satellite pays seats in another event.
	// +optional
	Satellite *Satellite `json:"satellite,omitempty"`
}

// BuiltinPayout names a built-in payout structure (the workflows' floor.ComputePayouts).
// +kubebuilder:validation:Enum=standard;top-heavy;flat
type BuiltinPayout string

// The built-in payout structures: prize i gets a share in proportion to 1/i^steepness above the
// min cash, steepness 1 (standard), 1.3 (top-heavy) or 0.75 (flat).
const (
	PayoutStandard BuiltinPayout = "standard"
	PayoutTopHeavy BuiltinPayout = "top-heavy"
	PayoutFlat     BuiltinPayout = "flat"
)

// Satellite awards Seats seats in Event, each worth SeatValueCents, to the top places; the pool
// left after the seats is paid in cash as Remainder says.
type Satellite struct {
	// Event names the tournament the seats are for.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	Event string `json:"event"`
	// Seats is how many seats are guaranteed.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10000
	Seats int32 `json:"seats"`
	// SeatValueCents is one seat's value: the target event's buy-in.
	// +required
	// +kubebuilder:validation:Minimum=1
	SeatValueCents int64 `json:"seatValueCents"`
	// Remainder is who gets the cash left after the seats: nextPlace (the first place without a
	// seat) or split (shared equally by the seat winners).
	// +optional
	// +kubebuilder:default=nextPlace
	Remainder SatelliteRemainder `json:"remainder,omitempty"`
}

// SatelliteRemainder says who is paid a satellite's cash left after the seats.
// +kubebuilder:validation:Enum=nextPlace;split
type SatelliteRemainder string

// The satellite remainders.
const (
	RemainderNextPlace SatelliteRemainder = "nextPlace"
	RemainderSplit     SatelliteRemainder = "split"
)

// HandForHand is the bubble policy (R7): every table plays one hand at a time, and eliminations in
// the same hand count as simultaneous.
type HandForHand struct {
	// Disabled turns hand-for-hand off.
	// +optional
	Disabled bool `json:"disabled,omitempty"`
	// PlayersBeforeMoney is how many players before the money hand-for-hand starts: 1, the bubble,
	// when not given.
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100
	PlayersBeforeMoney int32 `json:"playersBeforeMoney,omitempty"`
}

// TablePodOverrides changes how the manager builds each table's Pod. It is not a whole PodTemplate
// on purpose: the container's command, ports and probes are the table process's contract with the
// manager, and a service account or secret reference chosen by whoever may write Tournaments would
// hand them that account's or secret's rights.
type TablePodOverrides struct {
	// Image replaces the manager's table image.
	// +optional
	// +kubebuilder:validation:MaxLength=512
	Image string `json:"image,omitempty"`
	// ImagePullPolicy of the table container.
	// +optional
	ImagePullPolicy corev1.PullPolicy `json:"imagePullPolicy,omitempty"`
	// Resources of the table container.
	// +optional
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// Template overrides parts of the Pod itself.
	// +optional
	Template *TablePodTemplate `json:"template,omitempty"`
}

// TablePodTemplate is the part of a PodTemplate a Tournament may set for its table Pods.
type TablePodTemplate struct {
	// Labels and Annotations are added to each table Pod's own.
	// +optional
	Labels map[string]string `json:"labels,omitempty"`
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
	// NodeSelector, Tolerations and Affinity place the table Pods (a node pool for tables).
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=32
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
	// +optional
	Affinity *corev1.Affinity `json:"affinity,omitempty"`
	// PriorityClassName ranks the table Pods against others on the cluster.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	PriorityClassName string `json:"priorityClassName,omitempty"`
	// Env is added to the table container's environment (plain values only).
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=64
	Env []EnvVar `json:"env,omitempty"`
}

// EnvVar is one plain environment variable.
type EnvVar struct {
	// Name is the variable's name.
	// +required
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_]*$`
	// +kubebuilder:validation:MaxLength=128
	Name string `json:"name"`
	// Value is its value.
	// +optional
	// +kubebuilder:validation:MaxLength=4096
	Value string `json:"value,omitempty"`
}

// TournamentPhase is where a tournament is in its life. It is in exactly one phase.
// +kubebuilder:validation:Enum=Pending;Registering;Running;Paused;Finished;Failed
type TournamentPhase string

// The phases of a tournament.
const (
	// TournamentPending: accepted, its workflow not started yet.
	TournamentPending TournamentPhase = "Pending"
	// TournamentRegistering: the workflow runs and takes entries; no hand dealt yet.
	TournamentRegistering TournamentPhase = "Registering"
	// TournamentRunning: hands are dealt and the clock runs.
	TournamentRunning TournamentPhase = "Running"
	// TournamentPaused: the clock and every table are stopped (spec.paused).
	TournamentPaused TournamentPhase = "Paused"
	// TournamentFinished: a winner, every place and prize decided (R5).
	TournamentFinished TournamentPhase = "Finished"
	// TournamentFailed: the workflow ended without a result; the conditions say why.
	TournamentFailed TournamentPhase = "Failed"
)

// The condition types of a Tournament.
const (
	// TournamentWorkflowRunning is true while the tournament's workflow runs.
	TournamentWorkflowRunning = "WorkflowRunning"
	// TournamentTablesReady is true when every table the tournament needs is Ready.
	TournamentTablesReady = "TablesReady"
	// TournamentHandForHand is true while the tables play hand-for-hand (R7).
	TournamentHandForHand = "HandForHand"
)

// MaxStandings is how many places status.standings holds: the full list of a large field does not
// fit in an object and is served by the manager.
const MaxStandings = 20

// TournamentStatus mirrors the tournament's workflow: a summary of bounded size whatever the field.
type TournamentStatus struct {
	// ObservedGeneration is the spec generation this status was written from.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is where the tournament is in its life.
	// +optional
	Phase TournamentPhase `json:"phase,omitempty"`
	// StartedAt is when the first hand was dealt; from then on the money, the chips, the table
	// size and the structure are fixed.
	// +optional
	StartedAt *metav1.Time `json:"startedAt,omitempty"`
	// FinishedAt is when the last hand ended (R5).
	// +optional
	FinishedAt *metav1.Time `json:"finishedAt,omitempty"`
	// Level is the current blind level, from 1 (breaks not counted; during a break, the level
	// that follows it).
	// +optional
	Level int32 `json:"level,omitempty"`
	// OnBreak is true during a break.
	// +optional
	OnBreak bool `json:"onBreak,omitempty"`
	// Levels is the blind schedule as the workflow plays it, breaks included: spec.structure.levels,
	// or the levels of the built-in structure spec.structure.name names, so that a reader (kubectl
	// tournament levels and clock) needs no copy of the built-in structures. Level N of
	// status.level is the Nth entry that is not a break. Written once the spec is valid.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=100
	Levels []Level `json:"levels,omitempty"`
	// NextLevelAt is when the current period ends while the clock runs. A time rather than a
	// countdown, so that status is not rewritten every second.
	// +optional
	NextLevelAt *metav1.Time `json:"nextLevelAt,omitempty"`
	// LevelSecondsLeft is the time left in the period when the clock stopped (paused).
	// +optional
	LevelSecondsLeft int32 `json:"levelSecondsLeft,omitempty"`
	// PlayersRegistered counts the players who registered; Entries counts entries and
	// re-entries; PlayersLeft those still in.
	// +optional
	PlayersRegistered int32 `json:"playersRegistered,omitempty"`
	// +optional
	Entries int32 `json:"entries,omitempty"`
	// +optional
	PlayersLeft int32 `json:"playersLeft,omitempty"`
	// Tables counts the tables in play.
	// +optional
	Tables int32 `json:"tables,omitempty"`
	// PrizePoolCents is the prize pool (R6), in the spec's currency.
	// +optional
	PrizePoolCents int64 `json:"prizePoolCents,omitempty"`
	// PlacesPaid is how many places win a prize.
	// +optional
	PlacesPaid int32 `json:"placesPaid,omitempty"`
	// Standings is the top of the standings, best first, at most MaxStandings; the manager serves
	// the whole list.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=20
	Standings []Standing `json:"standings,omitempty"`
	// WorkflowID is the tournament workflow's ID in Temporal.
	// +optional
	WorkflowID string `json:"workflowID,omitempty"`
	// Conditions say what is wrong and what to do about it, each with a reason and a message.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// Standing is one place in the standings: a finished place, or a player still in ranked by chips.
type Standing struct {
	// Place is the place, from 1; players still in are ranked by chips.
	// +required
	// +kubebuilder:validation:Minimum=1
	Place int32 `json:"place"`
	// Player is the player's ID.
	// +required
	// +kubebuilder:validation:MaxLength=64
	Player string `json:"player"`
	// Chips is the stack of a player still in; 0 once out.
	// +optional
	Chips int64 `json:"chips,omitempty"`
	// PrizeCents is the prize won (or, for a player still in, the prize the place pays).
	// +optional
	PrizeCents int64 `json:"prizeCents,omitempty"`
	// BountyCents is the bounty money won.
	// +optional
	BountyCents int64 `json:"bountyCents,omitempty"`
}

// TournamentList is a list of Tournaments.
//
// +kubebuilder:object:root=true
type TournamentList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Tournament `json:"items"`
}
