package controllers

// The manager's lobby lets visitors watch the tables (cmd/pokerfloor's tableSpectators): it signs
// each visitor a spectator's token, which sees no hole cards and cannot act, with the key in the
// Secret KeySecret of the tournament's namespace, read when a table's page is opened.
//
// +kubebuilder:rbac:groups="",resources=secrets,verbs=get
