package floor

import "testing"

func TestDrawIndexUniformAndReproducible(t *testing.T) {
	const n, draws = 7, 70000
	counts := make([]int, n)
	r := NewSeededReader(42)
	for range draws {
		k, err := DrawIndex(r, n)
		if err != nil || k < 0 || k >= n {
			t.Fatalf("DrawIndex = %d, %v", k, err)
		}
		counts[k]++
	}
	for k, c := range counts {
		if c < draws/n*9/10 || c > draws/n*11/10 {
			t.Errorf("index %d drawn %d times of %d", k, c, draws)
		}
	}
	a, _ := DrawIndex(NewSeededReader(9), 1000)
	b, _ := DrawIndex(NewSeededReader(9), 1000)
	if a != b {
		t.Errorf("the same seed drew %d and %d", a, b)
	}
	if _, err := DrawIndex(r, 0); err == nil {
		t.Error("DrawIndex(0) did not fail")
	}
}
