package plugin

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	pokerv1 "github.com/pokerfloor/pokerfloor/api/v1alpha1"
	"k8s.io/apimachinery/pkg/util/duration"
)

// money formats an amount of cents exactly, with integer arithmetic: 123456 EUR is "1,234.56 EUR".
func money(cents int64, currency string) string {
	sign := ""
	if cents < 0 {
		sign, cents = "-", -cents
	}
	s := fmt.Sprintf("%s%s.%02d", sign, groupThousands(cents/100), cents%100)
	if currency != "" {
		s += " " + currency
	}
	return s
}

// chips formats a chip count with thousands separators: 1,250,000.
func chips(n int64) string {
	if n < 0 {
		return "-" + groupThousands(-n)
	}
	return groupThousands(n)
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// clockTime formats a time left on the clock as m:ss, or h:mm:ss past an hour.
func clockTime(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}

// age formats how long ago t was, as kubectl's AGE column does.
func age(now time.Time, t time.Time) string {
	if t.IsZero() {
		return "<unknown>"
	}
	return duration.HumanDuration(now.Sub(t))
}

// plural says "1 break", "2 breaks".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// blinds formats a level's blinds and ante, "100/200 ante 200", or "break".
func blinds(l pokerv1.Level) string {
	if l.Break {
		return "break"
	}
	s := chips(l.SmallBlind) + "/" + chips(l.BigBlind)
	if l.Ante > 0 {
		s += " ante " + chips(l.Ante)
	}
	return s
}
