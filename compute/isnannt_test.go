package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// TestIsNaNStreaming checks the streaming isnan kernels (where the build has
// them) against x != x over NaNs of both signs and payloads, ±Inf, signed
// zeros and ordinary values, at random lengths (0, 1, across the group of 8)
// and every dst byte offset.
func TestIsNaNStreaming(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	specials := []float64{math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123),
		math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1, -1, math.MaxFloat64, math.SmallestNonzeroFloat64}
	x64 := make([]float64, 3000)
	for i := range x64 {
		x64[i] = rng.NormFloat64()
		if rng.Intn(3) == 0 {
			x64[i] = specials[rng.Intn(len(specials))]
		}
	}
	x32 := make([]float32, len(x64))
	for i, v := range x64 {
		x32[i] = float32(v)
	}
	x32[7] = math.Float32frombits(0x7f800001) // a float32 NaN that is not a float64 one's narrowing
	for _, c := range []struct {
		t   Type
		p   unsafe.Pointer
		sz  int
		nan func(i int) bool
	}{
		{Float32, unsafe.Pointer(&x32[0]), 4, func(i int) bool { return x32[i] != x32[i] }},
		{Float64, unsafe.Pointer(&x64[0]), 8, func(i int) bool { return x64[i] != x64[i] }},
	} {
		f, ok := LookupUnaryNT(IsNaN, c.t)
		if !ok {
			continue
		}
		buf := make([]bool, len(x64)+64)
		for it := 0; it < 300; it++ {
			n := rng.Intn(len(x64) - 40)
			if it < 10 {
				n = it
			}
			o, do := rng.Intn(len(x64)-n), rng.Intn(33)
			for i := range buf {
				buf[i] = true
			}
			d := buf[do : do+n]
			f(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Add(c.p, o*c.sz), n)
			Fence()
			for i := range d {
				if d[i] != c.nan(o+i) {
					t.Fatalf("%v isnan streaming (n %d, dst offset %d): [%d] = %v, want %v", c.t, n, do, i, d[i], !d[i])
				}
			}
			if do+n < len(buf) && !buf[do+n] {
				t.Fatalf("%v: wrote past the end", c.t)
			}
		}
	}
}
