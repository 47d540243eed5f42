package replay

import (
	"testing"

	"github.com/pokerfloor/pokerfloor/engine/phh"
)

// FuzzReplay: no hand history, however wrong, makes the replay panic; a refused one is an error.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'd dh p3 2c7d', 'p3 cbr 300', 'p1 cbr 10000', 'p2 cc', 'p3 f', 'd db 2h3h4h', 'd db 5d', 'd db 9c', 'p1 sm AsAh', 'p2 sm']
finishing_stacks = [20100, 0, 9700]
`))
	f.Add([]byte(`variant = 'NT'
ante_trimming_status = false
antes = [0, 120, 0, 0, 0]
blinds_or_straddles = [40, 80, 0, 0, 0]
min_bet = 80
starting_stacks = [738, 250, 511, 1017, 454]
actions = ['p3 f', 'p4 cbr 170', 'p5 f', 'p1 f', 'p2 cc', 'd db JcTs2d', 'p2 cc', 'p4 cc', 'd db As', 'p2 cc', 'p4 cc', 'd db Qs', 'p2 cc', 'p4 cc']
`))
	var r Replayer
	f.Fuzz(func(t *testing.T, data []byte) {
		h, err := phh.Parse(data)
		if err != nil {
			return
		}
		_ = r.Check(h)
	})
}
