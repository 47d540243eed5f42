package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// MaxEntriesPerBatch bounds an EntryBatch: 1,000 entries are about 100 KB, far under the 1.5 MB a
// Kubernetes object may hold and the 512 KB at which Temporal warns about a payload. 100,000
// entries are 100 batches.
const MaxEntriesPerBatch = 1000

// EntryBatch registers entries in a Tournament: the authenticated registration path for a field
// too large for spec.players. RBAC decides who may create EntryBatches (config/rbac's registrar
// role); IssuedByAnnotation records who did. The manager applies each entry to the tournament's
// workflow as an Update keyed by (batch UID, player, kind), so a retried batch registers nobody
// twice, and reports per entry in status. It is a record: its spec never changes.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=eb,categories=pokerfloor
// +kubebuilder:printcolumn:name="Tournament",type=string,JSONPath=`.spec.tournament`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Accepted",type=integer,JSONPath=`.status.accepted`
// +kubebuilder:printcolumn:name="Refused",type=integer,JSONPath=`.status.refusedCount`
// +kubebuilder:printcolumn:name="By",type=string,JSONPath=`.status.registeredBy`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type EntryBatch struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   EntryBatchSpec   `json:"spec"`
	Status EntryBatchStatus `json:"status,omitempty"`
}

// EntryBatchSpec lists the entries to register.
//
// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="an EntryBatch's spec cannot change once created: its entries may already be registered; create another batch instead"
type EntryBatchSpec struct {
	// Tournament is the name of the Tournament, in the same namespace.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Tournament string `json:"tournament"`
	// Entries are the purchases to register, at most one per player and kind in a batch.
	// +required
	// +listType=map
	// +listMapKey=player
	// +listMapKey=kind
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=1000
	Entries []Entry `json:"entries"`
}

// Entry is one purchase: a first entry, a re-entry, a rebuy or an add-on (R1).
type Entry struct {
	// Player is the player's ID, the one their table token is bound to.
	// +required
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?$`
	Player string `json:"player"`
	// Kind is entry (the default), reEntry, rebuy or addOn.
	// +required
	// +kubebuilder:default=entry
	Kind EntryKind `json:"kind"`
	// DisplayName is shown at the table and in standings.
	// +optional
	// +kubebuilder:validation:MaxLength=64
	DisplayName string `json:"displayName,omitempty"`
}

// EntryKind is what an entry buys (R1).
// +kubebuilder:validation:Enum=entry;reEntry;rebuy;addOn
type EntryKind string

// The kinds of entry (R1).
const (
	EntryFirst   EntryKind = "entry"
	EntryReEntry EntryKind = "reEntry"
	EntryRebuy   EntryKind = "rebuy"
	EntryAddOn   EntryKind = "addOn"
)

// EntryBatchPhase says how far the batch has been applied.
// +kubebuilder:validation:Enum=Pending;Applied;PartlyRefused;Refused
type EntryBatchPhase string

// The phases of an entry batch.
const (
	EntryBatchPending EntryBatchPhase = "Pending"
	// EntryBatchApplied: every entry registered.
	EntryBatchApplied EntryBatchPhase = "Applied"
	// EntryBatchPartlyRefused: some entries registered, status.refused lists the others.
	EntryBatchPartlyRefused EntryBatchPhase = "PartlyRefused"
	// EntryBatchRefused: none registered (registration closed, no such tournament).
	EntryBatchRefused EntryBatchPhase = "Refused"
)

// EntryBatchStatus is the tournament's answer, entry by entry.
type EntryBatchStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +optional
	Phase EntryBatchPhase `json:"phase,omitempty"`
	// Accepted counts the entries registered.
	// +optional
	Accepted int32 `json:"accepted,omitempty"`
	// RefusedCount counts the entries refused; Refused says why for each.
	// +optional
	RefusedCount int32 `json:"refusedCount,omitempty"`
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=1000
	Refused []RefusedEntry `json:"refused,omitempty"`
	// RegisteredBy is the authenticated user who created the batch, from IssuedByAnnotation.
	// +optional
	RegisteredBy string `json:"registeredBy,omitempty"`
	// AppliedAt is when the last entry was decided.
	// +optional
	AppliedAt *metav1.Time `json:"appliedAt,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// RefusedEntry is an entry the tournament refused, and why.
type RefusedEntry struct {
	// +required
	Player string `json:"player"`
	// +required
	Kind EntryKind `json:"kind"`
	// Reason names the rule or the policy that refused it (R1: re-entries used up, registration
	// closed).
	// +required
	// +kubebuilder:validation:MaxLength=256
	Reason string `json:"reason"`
}

// EntryBatchList is a list of EntryBatches.
//
// +kubebuilder:object:root=true
type EntryBatchList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []EntryBatch `json:"items"`
}
