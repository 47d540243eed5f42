package floor

import "fmt"

// RuleError is a decision refused by a rule of RULES.md, or an input that cannot describe a legal
// tournament state. Rule is the rule's ID (for example "R3"); Reason says what is wrong in words a
// tournament director can act on.
type RuleError struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
}

func (e *RuleError) Error() string { return "rule " + e.Rule + ": " + e.Reason }

func ruleErr(rule, format string, args ...any) error {
	return &RuleError{Rule: rule, Reason: fmt.Sprintf(format, args...)}
}
