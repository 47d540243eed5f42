package phh

import (
	"syscall"
	"testing"
	"time"
)

// The machine these run on is shared, so besides the wall-clock rate each benchmark reports the rate
// per second of CPU time the process used (garbage collection included), which other processes do
// not inflate.

// cpuTime returns the CPU time (user and system) the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// startHands resets the timer and returns a function that reports the rates in hands per second of
// wall-clock time and of CPU time, one hand an iteration.
func startHands(b *testing.B) func() {
	b.ReportAllocs()
	b.ResetTimer()
	cpu := cpuTime()
	return func() {
		used := cpuTime() - cpu
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hands/s")
		if used > 0 {
			b.ReportMetric(float64(b.N)/used.Seconds(), "hands/cpu-s")
		}
	}
}

// BenchmarkParse parses the shipped hands, already in memory, into a new Hand each.
func BenchmarkParse(b *testing.B) {
	hands := loadShipped(b)
	done := startHands(b)
	for i := 0; i < b.N; i++ {
		if _, err := Parse(hands[i%len(hands)].data); err != nil {
			b.Fatal(err)
		}
	}
	done()
}

// BenchmarkParseInto parses the shipped hands into one reused Hand.
func BenchmarkParseInto(b *testing.B) {
	hands := loadShipped(b)
	var p Parser
	var h Hand
	done := startHands(b)
	for i := 0; i < b.N; i++ {
		if err := p.ParseInto(hands[i%len(hands)].data, &h); err != nil {
			b.Fatal(err)
		}
	}
	done()
}

// BenchmarkParseLibrary parses the shipped hands with the fast path off: the TOML library alone.
func BenchmarkParseLibrary(b *testing.B) {
	hands := loadShipped(b)
	var p Parser
	var h Hand
	done := startHands(b)
	for i := 0; i < b.N; i++ {
		if err := p.parseWithLibrary(hands[i%len(hands)].data, &h); err != nil {
			b.Fatal(err)
		}
	}
	done()
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
	done := startHands(b)
	for i := 0; i < b.N; i++ {
		if _, err := hands[i%len(hands)].Marshal(); err != nil {
			b.Fatal(err)
		}
	}
	done()
}
