package controllers

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"go.temporal.io/api/serviceerror"
	sdktemporal "go.temporal.io/sdk/temporal"
)

// Money in a record's message is exact integer cents in the tournament's currency.
func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		cents int64
		want  string
	}{
		{0, "EUR 0.00"}, {5, "EUR 0.05"}, {917, "EUR 9.17"}, {100000, "EUR 1,000.00"},
		{123456789, "EUR 1,234,567.89"}, {-2500, "-EUR 25.00"},
	} {
		if got := money(tc.cents, "EUR"); got != tc.want {
			t.Errorf("money(%d) = %q, want %q", tc.cents, got, tc.want)
		}
	}
}

// A message clipped to a CRD's bound stays valid UTF-8 and says it was cut.
func TestClip(t *testing.T) {
	if got := clip("short", 256); got != "short" {
		t.Errorf("clip kept %q, want it whole", got)
	}
	long := strings.Repeat("é", 200) // 400 bytes
	got := clip(long, 256)
	if len(got) > 256 || !utf8.ValidString(got) || !strings.HasSuffix(got, " (...)") {
		t.Errorf("clip(400 bytes, 256) = %d bytes %q, want at most 256 valid bytes ending in (...)", len(got), got)
	}
}

// The workflow's refusal (a validator's error reaches the client as an ApplicationError) is a
// decision; a failure to reach Temporal is not, and neither is the limit of Updates in flight.
func TestRefusalOf(t *testing.T) {
	refusal := fmt.Errorf("update: %w", sdktemporal.NewApplicationError("rule R3: table 99 does not exist", "RuleError"))
	if reason, ok := refusalOf(refusal); !ok || reason != "rule R3: table 99 does not exist" {
		t.Errorf("refusalOf(validator error) = %q %v, want the rule's reason", reason, ok)
	}
	for _, err := range []error{errors.New("connection refused"), serviceerror.NewUnavailable("frontend down"),
		serviceerror.NewResourceExhausted(0, "too many updates in flight")} {
		if reason, ok := refusalOf(err); ok {
			t.Errorf("refusalOf(%v) = %q, a refusal; want it retried", err, reason)
		}
	}
	if !busy(serviceerror.NewResourceExhausted(0, "too many updates in flight")) || busy(refusal) {
		t.Error("busy does not tell the limit of Updates in flight from a refusal")
	}
}
