package v1alpha1

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Table is one table of a Tournament. The tournament's workflow creates and deletes Tables; the
// manager keeps one Pod and one Service for each, owned by the Table, which the Tournament owns.
//
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=ptable,categories=pokerfloor
// +kubebuilder:printcolumn:name="Tournament",type=string,JSONPath=`.spec.tournament`
// +kubebuilder:printcolumn:name="Number",type=integer,JSONPath=`.spec.number`
// +kubebuilder:printcolumn:name="Seats",type=integer,JSONPath=`.spec.seats`,priority=1
// +kubebuilder:printcolumn:name="Players",type=integer,JSONPath=`.status.players`
// +kubebuilder:printcolumn:name="Hand",type=integer,JSONPath=`.status.handNumber`
// +kubebuilder:printcolumn:name="In hand",type=boolean,JSONPath=`.status.inHand`
// +kubebuilder:printcolumn:name="Phase",type=string,JSONPath=`.status.phase`
// +kubebuilder:printcolumn:name="Pod",type=string,JSONPath=`.status.pod`,priority=1
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
// +kubebuilder:validation:XValidation:rule="!has(self.status) || self.status.?players.orValue(0) <= self.spec.seats",message="status.players is more than spec.seats: a table seats at most its size (T1)",fieldPath=`.status.players`
type Table struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// +required
	Spec   TableSpec   `json:"spec"`
	Status TableStatus `json:"status,omitempty"`
}

// TableSpec says which table of which tournament this is.
type TableSpec struct {
	// Tournament is the name of the Tournament, in the same namespace, the table belongs to.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec.tournament cannot change: a table belongs to one tournament"
	Tournament string `json:"tournament"`
	// Number is the table's number in its tournament, from 1.
	// +required
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=100000
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="spec.number cannot change: players and hand histories know the table by it"
	Number int32 `json:"number"`
	// Seats is the table's size (T1), the tournament's table size.
	// +required
	// +kubebuilder:validation:Minimum=2
	// +kubebuilder:validation:Maximum=10
	Seats int32 `json:"seats"`
}

// TablePhase is where a table is in its life. It is in exactly one phase.
// +kubebuilder:validation:Enum=Pending;Starting;Ready;Breaking;Closed;Failed
type TablePhase string

// The phases of a table.
const (
	// TablePending: the Table exists, its Pod does not run yet.
	TablePending TablePhase = "Pending"
	// TableStarting: the table process runs and loads the table's state.
	TableStarting TablePhase = "Starting"
	// TableReady: the table process reports itself ready and deals.
	TableReady TablePhase = "Ready"
	// TableBreaking: the table is being broken (R4); it finishes its hand and its players move.
	TableBreaking TablePhase = "Breaking"
	// TableClosed: no players left; the Table is about to be deleted.
	TableClosed TablePhase = "Closed"
	// TableFailed: the table process cannot be brought up; the conditions say why.
	TableFailed TablePhase = "Failed"
)

// The condition types of a Table.
const (
	// TablePodReady is true when the table Pod runs and its process reports itself ready.
	TablePodReady = "PodReady"
	// TableProtected is true while a hand is in progress and the Pod is protected from eviction.
	TableProtected = "Protected"
)

// TableStatus is what the table process reports about itself.
type TableStatus struct {
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// +optional
	Phase TablePhase `json:"phase,omitempty"`
	// HandNumber is the number of the last hand dealt at the table.
	// +optional
	// +kubebuilder:validation:Minimum=0
	HandNumber int64 `json:"handNumber,omitempty"`
	// Players is how many players sit at the table.
	// +optional
	// +kubebuilder:validation:Minimum=0
	// +kubebuilder:validation:Maximum=10
	Players int32 `json:"players,omitempty"`
	// InHand is true while a hand is in progress.
	// +optional
	InHand bool `json:"inHand,omitempty"`
	// Pod is the name of the table's current Pod.
	// +optional
	Pod string `json:"pod,omitempty"`
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// TableList is a list of Tables.
//
// +kubebuilder:object:root=true
type TableList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Table `json:"items"`
}
