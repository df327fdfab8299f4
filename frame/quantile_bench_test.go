package frame

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// BenchmarkQuantileOf: the median of groups of 1000 random values (the
// size of db-benchmark q6's groups).
func BenchmarkQuantileOf(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1<<20)
	for i := range x {
		x[i] = r.NormFloat64()
	}
	y := slices.Clone(x)
	b.SetBytes(int64(len(x) * 8))
	b.ReportAllocs()
	for b.Loop() {
		copy(y, x)
		for g := 0; g+1000 <= len(y); g += 1000 {
			quantileOf(y[g:g+1000], 0.5)
		}
	}
}
