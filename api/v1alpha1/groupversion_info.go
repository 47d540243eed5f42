package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the group and version of every type here.
var GroupVersion = schema.GroupVersion{Group: "poker.pokerfloor.dev", Version: "v1alpha1"}

var (
	// SchemeBuilder registers the types with a runtime.Scheme. It is apimachinery's own, not
	// controller-runtime's, so that this package stays a leaf importing only k8s.io modules.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	// AddToScheme adds the types of this group and version to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
		&Tournament{}, &TournamentList{},
		&Table{}, &TableList{},
		&Sanction{}, &SanctionList{},
		&EntryBatch{}, &EntryBatchList{},
		&FloorAction{}, &FloorActionList{},
	)
	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}
