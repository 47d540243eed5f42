package floor

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
)

// NewSeededReader returns a deterministic stream of random bytes for tests and replays: the same
// seed gives the same draws. Production code passes crypto/rand.Reader instead (T2, D1).
func NewSeededReader(seed uint64) io.Reader {
	var key [32]byte
	binary.LittleEndian.PutUint64(key[:], seed)
	return rand.NewChaCha8(key)
}

// uniformInt returns an integer in [0, n) read from r. Values of the 64-bit draw past the last
// whole multiple of n are rejected, so no result is more likely than another.
func uniformInt(r io.Reader, n int) (int, error) {
	if n <= 0 {
		panic("floor: uniformInt with n <= 0")
	}
	if n == 1 {
		return 0, nil
	}
	un := uint64(n)
	skip := (math.MaxUint64%un + 1) % un // 2^64 mod n: that many top values are rejected
	var b [8]byte
	for {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return 0, fmt.Errorf("floor: reading randomness: %w", err)
		}
		v := binary.LittleEndian.Uint64(b[:])
		if skip == 0 || v <= math.MaxUint64-skip {
			return int(v % un), nil
		}
	}
}

// shuffle is a Fisher–Yates shuffle of n items drawn from r.
func shuffle(r io.Reader, n int, swap func(i, j int)) error {
	for i := n - 1; i > 0; i-- {
		j, err := uniformInt(r, i+1)
		if err != nil {
			return err
		}
		swap(i, j)
	}
	return nil
}
