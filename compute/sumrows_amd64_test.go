//go:build amd64 && !noasm

package compute

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"unsafe"
)

// TestRowsF32RowAtATime holds the row-at-a-time float32 kernels (rowsF32F64Y,
// and rowsF32F64Z where the CPU has AVX-512) to the Go loop bit for bit, on
// their own whatever the CPU picks through LookupSum: widths that are
// multiples of 8 from 8 to past 2048 (the 32- and 16-lane blocks and the
// last 8), row counts from 0, strides wider than the rows, accumulators
// that are not zero, and NaN, infinities, -0 and denormals among the
// values.
func TestRowsF32RowAtATime(t *testing.T) {
	if !Asm {
		t.Skip("needs AVX2")
	}
	kernels := map[string]func(acc, x unsafe.Pointer, n, rows, stride int){"Y": rowsF32F64Y}
	if hasVmath512 {
		kernels["Z"] = rowsF32F64Z
	}
	rng := rand.New(rand.NewPCG(37, 9))
	special := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1)), 1e-40, math.MaxFloat32}
	for name, k := range kernels {
		for it := 0; it < 300; it++ {
			cols := 8 * (1 + rng.IntN(260))
			rows := rng.IntN(12)
			stride := cols + 8*rng.IntN(3)
			_, p, keep := sumData(rng, Float32, max(rows*stride, 1), it%3)
			if it%4 == 0 {
				f := keep.([]float32)
				for j := 0; j < 1+len(f)/40; j++ {
					f[rng.IntN(len(f))] = special[rng.IntN(len(special))]
				}
			}
			a1 := make([]float64, cols)
			for j := range a1 {
				a1[j] = rng.NormFloat64() * 1e3
			}
			a2, c2 := slices.Clone(a1), make([]float64, cols)
			k(unsafe.Pointer(&a1[0]), p, cols, rows, stride*4)
			rowsSum32Go(unsafe.Pointer(&a2[0]), unsafe.Pointer(&c2[0]), p, cols, rows, stride)
			for j := range a1 {
				if math.Float64bits(a1[j]) != math.Float64bits(a2[j]) && !(math.IsNaN(a1[j]) && math.IsNaN(a2[j])) {
					t.Fatalf("%s cols=%d rows=%d stride=%d lane %d: %v, Go loop %v", name, cols, rows, stride, j, a1[j], a2[j])
				}
			}
		}
	}
}
