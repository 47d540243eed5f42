package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// IssuedByAnnotation records who created a Sanction or an EntryBatch: the API server's
// authenticated user, written by the MutatingAdmissionPolicy in config/admission, never typed by
// the user (the ValidatingAdmissionPolicy beside it refuses any other value and any change). The
// manager copies it into status.issuedBy (status.registeredBy for an EntryBatch) when it applies
// the object.
const IssuedByAnnotation = "poker.pokerfloor.dev/issued-by"

// Sanction is a penalty the floor gives a player (P1): a warning, an exclusion of 1 to 4 rounds,
// or disqualification. It is a record: its spec never changes; a new ruling is a new Sanction.
// RBAC decides who may create Sanctions, and the API server's audit log and IssuedByAnnotation
// record who did (P6).
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=sanc,categories=pokerfloor
// +kubebuilder:printcolumn:name="Tournament",type=string,JSONPath=`.spec.tournament`
// +kubebuilder:printcolumn:name="Player",type=string,JSONPath=`.spec.player`
// +kubebuilder:printcolumn:name="Kind",type=string,JSONPath=`.spec.kind`
// +kubebuilder:printcolumn:name="Rounds",type=integer,JSONPath=`.spec.rounds`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Issued by",type=string,JSONPath=`.status.issuedBy`
// +kubebuilder:printcolumn:name="Reason",type=string,JSONPath=`.spec.reason`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Sanction struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   SanctionSpec   `json:"spec"`
	Status SanctionStatus `json:"status,omitempty"`
}

// SanctionSpec is the ruling: who, what and why.
//
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="a Sanction's spec cannot change once given: it is the record of a ruling (P6); create a new Sanction instead"
// +kubebuilder:validation:XValidation:rule="self.kind == 'exclusion' ? has(self.rounds) : !has(self.rounds)",message="spec.rounds (1 to 4) is required for an exclusion and only for an exclusion (P1)",fieldPath=`.rounds`
type SanctionSpec struct {
	// Tournament is the name of the Tournament, in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Tournament string `json:"tournament"`
	// Player is the sanctioned player's ID.
	// +required
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`
	Player string `json:"player"`
	// Kind is warning, exclusion or disqualification (P1).
	// +required
	Kind SanctionKind `json:"kind"`
	// Rounds is an exclusion's length, 1 to 4 rounds of as many hands as there are players at
	// the table (P1, P2).
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=4
	Rounds int32 `json:"rounds,omitempty"`
	// Rule is the rule broken, by its ID in RULES.md (P7 for soft play, A14 for acting out of
	// turn).
	// +optional
	// +kubebuilder:validation:Pattern=`^[A-Z][0-9]{1,2}$`
	Rule string `json:"rule,omitempty"`
	// Reason says why, in the director's words (P6).
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=1024
	Reason string `json:"reason"`
}

// SanctionKind is one of the floor's three sanctions (P1).
// +kubebuilder:validation:Enum=warning;exclusion;disqualification
type SanctionKind string

// The sanctions (P1).
const (
	SanctionWarning          SanctionKind = "warning"
	SanctionExclusion        SanctionKind = "exclusion"
	SanctionDisqualification SanctionKind = "disqualification"
)

// SanctionPhase says whether the tournament applied the sanction.
// +kubebuilder:validation:Enum=Pending;Applied;Refused
type SanctionPhase string

// The phases of a sanction.
const (
	SanctionPending SanctionPhase = "Pending"
	SanctionApplied SanctionPhase = "Applied"
	// SanctionRefused: the tournament could not apply it (no such player, player already out);
	// status.message says why.
	SanctionRefused SanctionPhase = "Refused"
)

// SanctionStatus is the tournament's answer.
type SanctionStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +optional
	Phase SanctionPhase `json:"phase,omitempty"`
	// Message says why a sanction was refused, or how it was applied.
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Message string `json:"message,omitempty"`
	// DecidedAt is when the tournament applied or refused it.
	// +optional
	DecidedAt *metav1.Time `json:"decidedAt,omitempty"`
	// IssuedBy is the authenticated user who created the Sanction, from IssuedByAnnotation.
	// +optional
	IssuedBy string `json:"issuedBy,omitempty"`
	// Table and StartsAtHand say where the sanction runs: it starts with the next hand (P5).
	// +optional
	Table int32 `json:"table,omitempty"`
	// +optional
	StartsAtHand int64 `json:"startsAtHand,omitempty"`
	// Hands is an exclusion's length in hands (P2).
	// +optional
	Hands int32 `json:"hands,omitempty"`
	// ChipsRemoved is what a disqualification took out of the tournament (P4).
	// +optional
	ChipsRemoved int64 `json:"chipsRemoved,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SanctionList is a list of Sanctions.
//
// +kubebuilder:object:root=true
type SanctionList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Sanction `json:"items"`
}

// RecordApplied is the condition of a Sanction, an EntryBatch and a FloorAction: True once the
// tournament applied it, False with the reason when it refused it (reason Refused) or while it
// waits (reason WaitingForTournament, WaitingForTable, TemporalUnreachable).
const RecordApplied = "Applied"
