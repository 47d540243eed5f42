package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// FloorAction is one action of the tournament director that is neither the Tournament's desired
// state (spec.paused) nor a penalty (a Sanction) nor a purchase (an EntryBatch): time added to the
// clock, a player moved or a table broken by hand, an unregistration, no-shows removed, a deal.
// Like a Sanction it is a record: its spec never changes; RBAC decides who may create FloorActions
// (config/rbac's director role), the API server's audit log and IssuedByAnnotation record who did,
// and the manager applies it to the tournament's workflow as one Update whose ID is the object's
// UID, so a retry is applied once. `kubectl tournament add-time|move|break-table|deal|unregister`
// create them.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=fa,categories=pokerfloor
// +kubebuilder:printcolumn:name="Tournament",type=string,JSONPath=`.spec.tournament`
// +kubebuilder:printcolumn:name="Action",type=string,JSONPath=`.spec.action`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Issued by",type=string,JSONPath=`.status.issuedBy`
// +kubebuilder:printcolumn:name="Message",type=string,JSONPath=`.status.message`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type FloorAction struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   FloorActionSpec   `json:"spec"`
	Status FloorActionStatus `json:"status,omitempty"`
}

// FloorActionSpec is the action: which, with its arguments, and why.
//
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a FloorAction's spec cannot change once created: it may already be applied; create a new FloorAction instead"
// +kubebuilder:validation:XValidation:rule="self.action == 'addTime' ? has(self.addTime) : !has(self.addTime)",message="spec.addTime is required for the addTime action and only for it",fieldPath=`.addTime`
// +kubebuilder:validation:XValidation:rule="self.action == 'move' ? has(self.move) : !has(self.move)",message="spec.move is required for the move action and only for it",fieldPath=`.move`
// +kubebuilder:validation:XValidation:rule="self.action == 'breakTable' ? has(self.breakTable) : !has(self.breakTable)",message="spec.breakTable is required for the breakTable action and only for it",fieldPath=`.breakTable`
// +kubebuilder:validation:XValidation:rule="self.action == 'unregister' ? has(self.unregister) : !has(self.unregister)",message="spec.unregister is required for the unregister action and only for it",fieldPath=`.unregister`
// +kubebuilder:validation:XValidation:rule="self.action == 'removeNoShows' ? has(self.removeNoShows) : !has(self.removeNoShows)",message="spec.removeNoShows is required for the removeNoShows action and only for it",fieldPath=`.removeNoShows`
// +kubebuilder:validation:XValidation:rule="self.action == 'deal' ? has(self.deal) : !has(self.deal)",message="spec.deal is required for the deal action and only for it",fieldPath=`.deal`
type FloorActionSpec struct {
	// Tournament is the name of the Tournament, in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Tournament string `json:"tournament"`
	// Action is which action this is; the field of the same name carries its arguments.
	// +required
	Action FloorActionKind `json:"action"`
	// Reason says why, in the director's words (P6).
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Reason string `json:"reason,omitempty"`

	// +optional
	AddTime *AddTimeAction `json:"addTime,omitempty"`
	// +optional
	Move *MoveAction `json:"move,omitempty"`
	// +optional
	BreakTable *BreakTableAction `json:"breakTable,omitempty"`
	// +optional
	Unregister *UnregisterAction `json:"unregister,omitempty"`
	// +optional
	RemoveNoShows *RemoveNoShowsAction `json:"removeNoShows,omitempty"`
	// +optional
	Deal *DealAction `json:"deal,omitempty"`
}

// FloorActionKind names a director's action.
// +kubebuilder:validation:Enum=addTime;move;breakTable;unregister;removeNoShows;deal
type FloorActionKind string

// The director's actions.
const (
	FloorAddTime       FloorActionKind = "addTime"
	FloorMove          FloorActionKind = "move"
	FloorBreakTable    FloorActionKind = "breakTable"
	FloorUnregister    FloorActionKind = "unregister"
	FloorRemoveNoShows FloorActionKind = "removeNoShows"
	FloorDeal          FloorActionKind = "deal"
)

// AddTimeAction adds time to the period running (B3), or takes it off when negative.
//
// +kubebuilder:validation:XValidation:rule="self.seconds != 0",message="spec.addTime.seconds is 0: give the seconds to add (negative to take time off)",fieldPath=`.seconds`
type AddTimeAction struct {
	// Seconds to add to the level or break running; negative takes time off.
	// +required
	// +kubebuilder:validation:Minimum=-86400
	// +kubebuilder:validation:Maximum=86400
	Seconds int32 `json:"seconds"`
}

// MoveAction moves a player by hand to another table, in the seat rule R3 gives him there.
type MoveAction struct {
	// Player is the player's ID.
	// +required
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`
	Player string `json:"player"`
	// ToTable is the number of the table he goes to.
	// +required
	// +kubebuilder:validation:Minimum=1
	ToTable int32 `json:"toTable"`
	// Seat is the seat asked for, 1 to 10; left out, the seat R3 gives. Any other seat than
	// R3's is refused.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=10
	Seat int32 `json:"seat,omitempty"`
}

// BreakTableAction breaks a table by hand: its players are reseated by draw (R4).
type BreakTableAction struct {
	// Table is the number of the table to break.
	// +required
	// +kubebuilder:validation:Minimum=1
	Table int32 `json:"table"`
}

// UnregisterAction withdraws an entry before the start, refunded in full (R1).
type UnregisterAction struct {
	// Player is the player's ID.
	// +required
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`
	Player string `json:"player"`
}

// RemoveNoShowsAction removes players who never sat down once the tournament's no-show time has
// run (T4), with the payouts recomputed.
type RemoveNoShowsAction struct {
	// Players are the players' IDs; none: every player whose table has not seen him connect since
	// he sat there (the tables served to players know; one with a human dealer does not, and then
	// the action is refused: name them).
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=1000
	// +kubebuilder:validation:items:MaxLength=64
	Players []string `json:"players,omitempty"`
}

// DealAction is a deal the players left agreed on, approved by the director: the prizes still to
// be won shared by ICM (Malmuth-Harville) or by chip count.
type DealAction struct {
	// Method is icm or chipChop.
	// +required
	// +kubebuilder:validation:Enum=icm;chipChop
	Method string `json:"method"`
	// LeaveForWinnerCents keeps this much of the prizes to play for: the rest is shared by the
	// deal, this goes to the winner.
	// +optional
	// +kubebuilder:validation:Minimum=0
	LeaveForWinnerCents int64 `json:"leaveForWinnerCents,omitempty"`
}

// FloorActionPhase says whether the tournament applied the action.
// +kubebuilder:validation:Enum=Pending;Applied;Refused
type FloorActionPhase string

// The phases of a floor action.
const (
	FloorActionPending FloorActionPhase = "Pending"
	FloorActionApplied FloorActionPhase = "Applied"
	// FloorActionRefused: the tournament could not apply it (the rule it breaks, the player is
	// not in, the tournament is over); status.message says why.
	FloorActionRefused FloorActionPhase = "Refused"
)

// FloorActionStatus is the tournament's answer.
type FloorActionStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +optional
	Phase FloorActionPhase `json:"phase,omitempty"`
	// Message says how the action was applied (the move made, the prizes of the deal) or why
	// it was refused, naming the rule.
	// +optional
	// +kubebuilder:validation:MaxLength=4096
	Message string `json:"message,omitempty"`
	// DecidedAt is when the tournament applied or refused it.
	// +optional
	DecidedAt *metav1.Time `json:"decidedAt,omitempty"`
	// IssuedBy is the authenticated user who created the FloorAction, from IssuedByAnnotation.
	// +optional
	IssuedBy string `json:"issuedBy,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// FloorActionList is a list of FloorActions.
//
// +kubebuilder:object:root=true
type FloorActionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []FloorAction `json:"items"`
}
