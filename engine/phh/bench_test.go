package phh

import (
	"testing"
)

// reportHands reports the rate in hands per second (one hand an iteration).
func reportHands(b *testing.B) {
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
}

// BenchmarkParse parses the shipped hands, already in memory, into a new Hand each.
func BenchmarkParse(b *testing.B) {
	hands := loadShipped(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Parse(hands[i%len(hands)].data); err != nil {
			b.Fatal(err)
		}
	}
	reportHands(b)
}

// BenchmarkParseInto parses the shipped hands into one reused Hand.
func BenchmarkParseInto(b *testing.B) {
	hands := loadShipped(b)
	var p Parser
	var h Hand
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.ParseInto(hands[i%len(hands)].data, &h); err != nil {
			b.Fatal(err)
		}
	}
	reportHands(b)
}

// BenchmarkParseLibrary parses the shipped hands with the fast path off: the TOML library alone.
func BenchmarkParseLibrary(b *testing.B) {
	hands := loadShipped(b)
	var p Parser
	var h Hand
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := p.parseWithLibrary(hands[i%len(hands)].data, &h); err != nil {
			b.Fatal(err)
		}
	}
	reportHands(b)
}

// BenchmarkMarshal writes the shipped hands (Marshal reads its output back, so this includes a parse).
func BenchmarkMarshal(b *testing.B) {
	shipped := loadShipped(b)
	hands := make([]*Hand, len(shipped))
	for i, s := range shipped {
		h, err := Parse(s.data)
		if err != nil {
			b.Fatal(err)
		}
		hands[i] = h
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := hands[i%len(hands)].Marshal(); err != nil {
			b.Fatal(err)
		}
	}
	reportHands(b)
}
