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

// drawer reads draws from a random source through one buffer, so that a draw does not allocate.
type drawer struct {
	r   io.Reader
	buf [8]byte
}

// newDrawer wraps r once for a run of draws; nil stays nil.
func newDrawer(r io.Reader) io.Reader {
	if r == nil {
		return nil
	}
	if _, ok := r.(*drawer); ok {
		return r
	}
	return &drawer{r: r}
}

func (d *drawer) Read(p []byte) (int, error) { return d.r.Read(p) }

// uniformInt returns an integer in [0, n) read from r. Values of the 64-bit draw past the last
// whole multiple of n are rejected, so no result is more likely than another.
func uniformInt(r io.Reader, n int) (int, error) {
	if n <= 0 {
		panic("floor: uniformInt with n <= 0")
	}
	if n == 1 {
		return 0, nil
	}
	d, ok := r.(*drawer)
	if !ok {
		d = &drawer{r: r}
	}
	un := uint64(n)
	skip := (math.MaxUint64%un + 1) % un // 2^64 mod n: that many top values are rejected
	for {
		if _, err := io.ReadFull(d.r, d.buf[:]); err != nil {
			return 0, fmt.Errorf("floor: reading randomness: %w", err)
		}
		v := binary.LittleEndian.Uint64(d.buf[:])
		if skip == 0 || v <= math.MaxUint64-skip {
			return int(v % un), nil
		}
	}
}

// shuffle is a Fisher–Yates shuffle of n items drawn from r.
func shuffle(r io.Reader, n int, swap func(i, j int)) error {
	r = newDrawer(r)
	for i := n - 1; i > 0; i-- {
		j, err := uniformInt(r, i+1)
		if err != nil {
			return err
		}
		swap(i, j)
	}
	return nil
}

// DrawIndex draws an index in [0, n) uniformly from r, for the floor's other draws (a free seat for
// a late entry). n must be positive.
func DrawIndex(r io.Reader, n int) (int, error) {
	if n <= 0 {
		return 0, fmt.Errorf("floor: DrawIndex of %d", n)
	}
	return uniformInt(r, n)
}
