package compute

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestAddRowsF32 checks the per-group row sums against the Go loop
// (bit for bit: the same additions in the same order) for widths 4 to 48,
// 0..130 rows and more, 1 to 300 groups, values with NaN, ±Inf, -0 and
// denormals; and that it declines (changing nothing) widths that are not
// multiples of 4 and group ids out of range.
func TestAddRowsF32(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 42))
	specials := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 1e-45, 3e38}
	for _, w := range []int{4, 8, 12, 16, 20, 32, 48} {
		for _, n := range []int{0, 1, 2, 3, 7, 64, 65, 130, 3000} {
			groups := 1 + rng.IntN(300)
			gids := make([]int32, n)
			for i := range gids {
				gids[i] = int32(rng.IntN(groups))
			}
			v := make([]float32, n*w+rng.IntN(5))
			for i := range v {
				v[i] = float32(rng.NormFloat64() * 100)
				if rng.IntN(50) == 0 {
					v[i] = specials[rng.IntN(len(specials))]
				}
			}
			acc, rows := make([]float64, groups*w), make([]int64, groups)
			wantAcc, wantRows := make([]float64, groups*w), make([]int64, groups)
			for i := range acc {
				acc[i] = rng.NormFloat64()
				wantAcc[i] = acc[i]
			}
			for i, g := range gids {
				for j := 0; j < w; j++ {
					wantAcc[int(g)*w+j] += float64(v[i*w+j])
				}
				wantRows[g]++
			}
			done := AddRowsF32(acc, rows, gids, v, w)
			if addRowsAsm && done != n {
				t.Fatalf("w %d n %d: %d rows done", w, n, done)
			}
			if done == 0 {
				continue
			}
			for i := range acc {
				if math.Float64bits(acc[i]) != math.Float64bits(wantAcc[i]) && !(math.IsNaN(acc[i]) && math.IsNaN(wantAcc[i])) {
					t.Fatalf("w %d n %d: acc[%d] = %v, want %v", w, n, i, acc[i], wantAcc[i])
				}
			}
			for g := range rows {
				if rows[g] != wantRows[g] {
					t.Fatalf("w %d n %d: rows[%d] = %d, want %d", w, n, g, rows[g], wantRows[g])
				}
			}
		}
	}
	acc, rows := make([]float64, 12), make([]int64, 3)
	if AddRowsF32(acc, rows, []int32{0}, make([]float32, 6), 6) != 0 {
		t.Fatal("width 6 accepted")
	}
	if AddRowsF32(acc, rows, []int32{0, 1}, make([]float32, 7), 4) != 0 {
		t.Fatal("short values accepted")
	}
	// it stops before a group outside acc (3 groups of 4) or rows
	for _, bad := range []int32{3, -1, 1 << 30} {
		clear(rows)
		v := []float32{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
		if done := AddRowsF32(acc, rows, []int32{2, 1, bad}, v, 4); addRowsAsm && (done != 2 || rows[2] != 1 || rows[1] != 1) {
			t.Fatalf("group %d: %d rows done, rows %v", bad, done, rows)
		}
	}
}

// BenchmarkAddRowsF32: 64 Ki rows of float32[16] into 100 groups.
func BenchmarkAddRowsF32(b *testing.B) {
	const n, w, groups = 1 << 16, 16, 100
	rng := rand.New(rand.NewPCG(1, 2))
	gids := make([]int32, n)
	for i := range gids {
		gids[i] = int32(rng.IntN(groups))
	}
	v := make([]float32, n*w)
	acc, rows := make([]float64, groups*w), make([]int64, groups)
	b.SetBytes(n * w * 4)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		AddRowsF32(acc, rows, gids, v, w)
	}
}
