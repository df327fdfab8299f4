//go:build amd64 && !noasm

package compute

import (
	"math/rand/v2"
	"testing"
)

// TestTakeFastCoverage checks that the assembly itself gathers the
// prefix it owns (all but the last takeAhead indices, rounded down to a
// step of 4), negative indices included, rather than leaving them to the
// Go loop, and that it stops exactly at an index out of range.
func TestTakeFastCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	const n = 1000
	src := make([]uint32, n)
	for i := range src {
		src[i] = r.Uint32()
	}
	for _, m := range []int{takeAhead + 3, takeAhead + 4, takeAhead + 7, 1001} {
		idx := make([]int64, m)
		for i := range idx {
			idx[i] = int64(r.IntN(2*n) - n)
		}
		dst := make([]uint32, m)
		want := (m - takeAhead) &^ 3
		if got := takeFast(dst, src, idx); got != want {
			t.Fatalf("m=%d: takeFast did %d; want %d", m, got, want)
		}
		for k := range want {
			i := idx[k]
			if i < 0 {
				i += n
			}
			if dst[k] != src[i] {
				t.Fatalf("m=%d: dst[%d] = %d; want %d", m, k, dst[k], src[i])
			}
		}
		if want > 2 {
			at := want - 2
			idx[at] = -n - 1
			if got := takeFast(dst, src, idx); got != at {
				t.Fatalf("m=%d: takeFast stopped at %d; want %d", m, got, at)
			}
		}
	}
}
