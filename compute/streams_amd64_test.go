//go:build amd64 && !noasm

package compute

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// streamCase returns a length n (a multiple of mult, at least mult) and a
// stream length q for a multi-stream kernel: 0, a short one (several
// blocks, then a shorter block of four streams, then one stream), q of
// n/4 as streamLen gives for short runs, or a random one.
func streamCase(rng *rand.Rand, mult, qmult int) (n, q int) {
	n = mult * (1 + rng.IntN(400))
	if rng.IntN(8) == 0 {
		n = mult * (1 + rng.IntN(4))
	}
	switch rng.IntN(4) {
	case 0:
		q = 0
	case 1:
		q = qmult * (1 + rng.IntN(4))
	case 2:
		q = n / 4 &^ (qmult - 1)
	default:
		q = qmult * rng.IntN(n/4/qmult+1)
	}
	return n, q
}

// TestExtremaStreams calls the max and min kernels with stream lengths
// that take every path (blocks of four streams, the shorter last block,
// the single stream) and NaN at the start, the end, a random place or
// nowhere, against the Go loop: the extreme (when there is no NaN) and the
// NaN flag must agree.
func TestExtremaStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 3))
	for it := 0; it < 3000; it++ {
		n, q := streamCase(rng, 32, 16)
		isMax := it%2 == 0
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * 100
		}
		nanAt := -1
		switch it % 5 {
		case 1:
			nanAt = 0
		case 2:
			nanAt = n - 1
		case 3:
			nanAt = rng.IntN(n)
		}
		if nanAt >= 0 {
			x[nanAt] = math.NaN()
		}
		x32 := make([]float32, n)
		for i, v := range x {
			x32[i] = float32(v)
		}
		want64, want32 := x[0], x32[0]
		for i := range x {
			if isMax {
				want64, want32 = max(want64, x[i]), max(want32, x32[i])
			} else {
				want64, want32 = min(want64, x[i]), min(want32, x32[i])
			}
		}
		q64 := q / 2 &^ 7 // 64-byte multiples of float64 values
		if it%3 == 0 {
			q64 = q
		}
		m64, nan64 := extF64[b2k(isMax)](unsafe.Pointer(&x[0]), n, q64)
		m32, nan32 := extF32[b2k(isMax)](unsafe.Pointer(&x32[0]), n, q)
		if nan64 != (nanAt >= 0) || nan32 != (nanAt >= 0) {
			t.Fatalf("n=%d q=%d/%d NaN at %d: flags %v (float64) %v (float32)", n, q64, q, nanAt, nan64, nan32)
		}
		if nanAt < 0 && (m64 != want64 || m32 != want32) {
			t.Fatalf("n=%d q=%d/%d max %v: %v %v, want %v %v", n, q64, q, isMax, m64, m32, want64, want32)
		}
	}
}

// TestSumStreams calls the float64 TwoSum kernel with stream lengths that
// take every path, on the sum data of TestSumKernels plus NaN and
// infinities, against exact sums with the kernels' bound.
func TestSumStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 9))
	for it := 0; it < 2000; it++ {
		n, q := streamCase(rng, 16, 8)
		v, p, keep := sumData(rng, Float64, n, it%3)
		special := it%7 == 6
		if special {
			v[rng.IntN(n)] = []float64{math.Inf(1), math.Inf(-1), math.NaN()}[rng.IntN(3)]
			copy(keep.([]float64), v)
		}
		var out [32]float64
		sum2F64AVX2(p, n, q, &out)
		var acc, comp float64
		for i := 0; i < 16; i++ {
			MergeSums(unsafe.Pointer(&acc), unsafe.Pointer(&comp), unsafe.Pointer(&out[i]), unsafe.Pointer(&out[16+i]), 1)
		}
		FinishSums(unsafe.Pointer(&acc), unsafe.Pointer(&comp), 1)
		if special {
			plain := 0.0
			for _, x := range v {
				plain += x
			}
			if !(acc == plain || math.IsNaN(acc) && math.IsNaN(plain)) {
				t.Fatalf("n=%d q=%d with %v: %v, want %v", n, q, v, acc, plain)
			}
			continue
		}
		want := exactSum(v)
		if d := math.Abs(acc - want); !(d <= sumBound(Float64, n, want, absSum(v))) {
			t.Fatalf("n=%d q=%d kind %d: %v, exact %v (error %g)", n, q, it%3, acc, want, d)
		}
	}
}

// TestFoldStreamsLarge folds runs long enough for several blocks of four
// maxStream streams and a shorter last block (about 1.1M values), with a
// NaN in the last block or none, through the registered folds, against
// the Go loops (extrema) and exact sums (float64 sums).
func TestFoldStreamsLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("large")
	}
	rng := rand.New(rand.NewPCG(47, 1))
	n := 4*maxStream/8*4 + 12345 // float64: four blocks, a last block, a tail
	v, p, keep := sumData(rng, Float64, n, 2)
	for _, nan := range []bool{false, true} {
		x := keep.([]float64)[:n]
		if nan {
			x[n-200] = math.NaN()
		}
		for _, op := range []Op{Maximum, Minimum} {
			f, _ := LookupFold(op, Float64)
			want := x[0]
			for _, u := range x {
				if op == Maximum {
					want = max(want, u)
				} else {
					want = min(want, u)
				}
			}
			got := x[1]
			f(unsafe.Pointer(&got), p, n)
			if !sameFloat(got, want) {
				t.Fatalf("%v of %d values (NaN %v): %v, want %v", op, n, nan, got, want)
			}
			x32 := make([]float32, 2*n)
			for i := range x32 {
				x32[i] = float32(x[i%n])
			}
			f32, _ := LookupFold(op, Float32)
			got32 := x32[1]
			f32(unsafe.Pointer(&got32), unsafe.Pointer(&x32[0]), 2*n)
			if !sameFloat(float64(got32), float64(float32(want))) {
				t.Fatalf("float32 %v of %d values (NaN %v): %v, want %v", op, 2*n, nan, got32, float32(want))
			}
		}
	}
	keep.([]float64)[n-200] = v[n-200] // no NaN
	k, _ := LookupSum(Float64)
	var acc, comp float64
	k.Fold(unsafe.Pointer(&acc), unsafe.Pointer(&comp), p, n)
	FinishSums(unsafe.Pointer(&acc), unsafe.Pointer(&comp), 1)
	want := exactSum(v)
	if d := math.Abs(acc - want); !(d <= sumBound(Float64, n, want, absSum(v))) {
		t.Fatalf("sum of %d values: %v, exact %v (error %g)", n, acc, want, d)
	}
}

// TestArgExtremeStreams checks the one-pass argmax and argmin (four
// streams of lanes, merged by value and first index) against the Go loop
// over random lengths, values with many ties across streams and lanes
// (small integers, ±0, infinities, denormals), and NaN at random places.
func TestArgExtremeStreams(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 2))
	pool := []float64{-1, 0, math.Copysign(0, -1), 1, math.Inf(1), math.Inf(-1), 5e-324, -5e-324, 2}
	for it := 0; it < 4000; it++ {
		n := 64 + rng.IntN(6000)
		x := make([]float64, n)
		for i := range x {
			if it%3 == 0 {
				x[i] = rng.NormFloat64()
			} else {
				x[i] = pool[rng.IntN(3+it%6)]
			}
		}
		if it%4 == 1 {
			x[rng.IntN(n)] = math.NaN()
		}
		x32 := make([]float32, n)
		for i, v := range x {
			x32[i] = float32(v)
		}
		for _, isMax := range []bool{true, false} {
			if got, want := ArgExtremeFloat64(unsafe.Pointer(&x[0]), n, isMax), argRef(x, isMax); got != want {
				t.Fatalf("float64 n=%d isMax=%v: %d, want %d", n, isMax, got, want)
			}
			if got, want := ArgExtremeFloat32(unsafe.Pointer(&x32[0]), n, isMax), argRef(x32, isMax); got != want {
				t.Fatalf("float32 n=%d isMax=%v: %d, want %d", n, isMax, got, want)
			}
		}
	}
}

// TestArgExtreme4 checks the four-run argmax and argmin (four rows read
// side by side, each merged on its own) against the Go loop, with ties,
// signed zeros and NaN in some runs, over lengths with tails.
func TestArgExtreme4(t *testing.T) {
	rng := rand.New(rand.NewPCG(59, 4))
	pool := []float64{-1, 0, math.Copysign(0, -1), 1, math.Inf(1), math.Inf(-1), 2}
	for it := 0; it < 3000; it++ {
		n := 64 + rng.IntN(3000)
		var p64, p32 [4]unsafe.Pointer
		var x64 [4][]float64
		var x32 [4][]float32
		for i := range x64 {
			x64[i] = make([]float64, n)
			x32[i] = make([]float32, n)
			for j := range x64[i] {
				if it%3 == 0 {
					x64[i][j] = rng.NormFloat64()
				} else {
					x64[i][j] = pool[rng.IntN(2+it%6)]
				}
			}
			if it%5 == 1 && rng.IntN(2) == 0 {
				x64[i][rng.IntN(n)] = math.NaN()
			}
			for j, v := range x64[i] {
				x32[i][j] = float32(v)
			}
			p64[i], p32[i] = unsafe.Pointer(&x64[i][0]), unsafe.Pointer(&x32[i][0])
		}
		for _, isMax := range []bool{true, false} {
			var a64, a32 [4]int
			if !ArgExtreme4Float64(&p64, n, isMax, &a64) || !ArgExtreme4Float32(&p32, n, isMax, &a32) {
				t.Fatal("no four-run kernels with assembly")
			}
			for i := range a64 {
				if want := argRef(x64[i], isMax); a64[i] != want {
					t.Fatalf("float64 n=%d run %d isMax=%v: %d, want %d", n, i, isMax, a64[i], want)
				}
				if want := argRef(x32[i], isMax); a32[i] != want {
					t.Fatalf("float32 n=%d run %d isMax=%v: %d, want %d", n, i, isMax, a32[i], want)
				}
			}
		}
	}
}
