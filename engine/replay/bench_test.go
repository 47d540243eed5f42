package replay

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/phh"
)

// BenchmarkPHHReplay parses and replays the shipped hands (read into memory first), checking each
// against its finishing stacks.
func BenchmarkPHHReplay(b *testing.B) {
	_, data := corpus(b)
	var p phh.Parser
	var h phh.Hand
	var r Replayer
	hands := 0
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range data {
			if err := p.ParseInto(d, &h); err != nil {
				b.Fatal(err)
			}
			if err := r.Check(&h); err != nil {
				b.Fatal(err)
			}
		}
		hands += len(data)
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkPHHReplayOnly replays the shipped hands parsed beforehand: the engine's share of
// BenchmarkPHHReplay.
func BenchmarkPHHReplayOnly(b *testing.B) {
	_, data := corpus(b)
	hs := make([]*phh.Hand, len(data))
	for i, d := range data {
		h, err := phh.Parse(d)
		if err != nil {
			b.Fatal(err)
		}
		hs[i] = h
	}
	var r Replayer
	hands := 0
	b.ReportAllocs()
	for b.Loop() {
		for _, h := range hs {
			if err := r.Check(h); err != nil {
				b.Fatal(err)
			}
		}
		hands += len(hs)
	}
	b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
	b.ReportMetric(0, "ns/op")
}
