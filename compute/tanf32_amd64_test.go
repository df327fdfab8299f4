//go:build amd64 && !noasm

package compute

import (
	"math"
	"math/big"
	"os"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// tanBigPrec is the precision of tanCR's arithmetic: x < 2^20 needs pi to
// about 20 + 24 + 30 bits beyond the point for the reduction.
const tanBigPrec = 160

// tanPi is pi to 60 decimal digits.
var tanPi, _ = new(big.Float).SetPrec(tanBigPrec).SetString("3.14159265358979323846264338327950288419716939937510582097494")

// tanCR is the correctly rounded float32 tan of x (|x| < 2^20): x reduced
// by k pi/2 in big.Float, sin and cos of the rest by their series.
func tanCR(x float32) float32 {
	bf := func() *big.Float { return new(big.Float).SetPrec(tanBigPrec) }
	pio2 := bf().Quo(tanPi, big.NewFloat(2))
	xb := bf().SetFloat64(float64(x))
	kf, _ := bf().Quo(xb, pio2).Float64()
	k := math.RoundToEven(kf)
	r := bf().Sub(xb, bf().Mul(bf().SetFloat64(k), pio2))
	z := bf().Mul(r, r)
	s, c := bf().Set(r), bf().SetFloat64(1)
	ts, tc := bf().Set(r), bf().SetFloat64(1)
	for i := 1; i < 40; i++ {
		ts.Mul(ts, z).Quo(ts, bf().SetInt64(int64(-(2*i)*(2*i+1))))
		tc.Mul(tc, z).Quo(tc, bf().SetInt64(int64(-(2*i-1)*(2*i))))
		s.Add(s, ts)
		c.Add(c, tc)
	}
	var t *big.Float
	if int64(k)&1 == 0 {
		t = bf().Quo(s, c)
	} else {
		t = bf().Quo(c, s)
		t.Neg(t)
	}
	f, _ := t.Float32()
	return f
}

// tanULP is the distance in float32 ulps of a and b of one sign.
func tanULP(a, b float32) int64 {
	d := int64(math.Float32bits(a)) - int64(math.Float32bits(b))
	if math.Signbit(float64(a)) != math.Signbit(float64(b)) {
		return 1 << 32
	}
	return max(d, -d)
}

// tanSweep runs the tan kernel k (a multiple of 16 elements a call) over
// the positive float32 bit patterns from 0 to 2^20 (every one with step 1,
// every step-th else) and their negations, against Go's math.Tan in
// float64 rounded to float32 (its error, a few float64 ulps, is far below
// a float32 ulp but can flip the rounding of results within about 2^-28
// ulp of a half-way point: where the two differ, tanCR decides). It
// returns the largest ulp distance to math.Tan and to the correctly
// rounded tan, and the count of results not correctly rounded.
func tanSweep(t *testing.T, k func(d, x unsafe.Pointer, n int) int, step uint32) (worstRef, worstCR, wrong int64, count int64) {
	const block = 1 << 16
	const end = 0x49800000 // 2^20
	var mu sync.Mutex
	var wg sync.WaitGroup
	next := make(chan uint32)
	var worstX float32
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			xs, got := make([]float32, 2*block), make([]float32, 2*block)
			for start := range next {
				n := 0
				for u := start; u < min(start+block*step, end) && n < 2*block; u += step {
					xs[n] = math.Float32frombits(u)
					xs[n+1] = -xs[n]
					n += 2
				}
				for n%16 != 0 {
					xs[n] = 1
					n++
				}
				if d := k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n); d != n {
					t.Errorf("tan kernel stopped at %v (%d of %d)", xs[d], d, n)
					return
				}
				var lr, lc, lw int64
				var lx float32
				for i, x := range xs[:n] {
					g := got[i]
					if math.Abs(float64(x)) < 0x1p-12 {
						if math.Float32bits(g) != math.Float32bits(x) {
							t.Errorf("tan(%v) = %v, want x", x, g)
						}
						continue
					}
					want := float32(math.Tan(float64(x)))
					d := tanULP(g, want)
					lr = max(lr, d)
					if d != 0 || isNearHalf(math.Tan(float64(x))) {
						cr := tanCR(x)
						dc := tanULP(g, cr)
						if dc > lc {
							lc, lx = dc, x
						}
						if dc != 0 {
							lw++
						}
					}
				}
				mu.Lock()
				worstRef, wrong, count = max(worstRef, lr), wrong+lw, count+int64(n)
				if lc > worstCR {
					worstCR, worstX = lc, lx
				}
				mu.Unlock()
			}
		}()
	}
	for s := uint64(0); s < end; s += uint64(block) * uint64(step) {
		next <- uint32(s)
	}
	close(next)
	wg.Wait()
	if worstCR > 0 {
		t.Logf("worst against the correctly rounded tan at %v (%#x)", worstX, math.Float32bits(worstX))
	}
	return
}

// isNearHalf tells whether float64 v lies within 2^-26 float32 ulp of a
// half-way point between float32 values (where Go's math.Tan, a few
// float64 ulps off, may round to float32 the other way).
func isNearHalf(v float64) bool {
	b := math.Float64bits(v)
	rest := b & (1<<29 - 1) // the 29 bits below a float32 mantissa
	const half = 1 << 28
	return rest > half-8 && rest < half+8
}

// TestTanF32Accuracy checks the float32 tan kernels, both widths, over
// their whole range (|x| < 2^20; beyond it the Go loop computes tan):
// every 97th positive float32 and its negation by default (every 9973rd
// with -short or -race), every one with STRIDE0_TAN_SWEEP=1 (about 25-40 s on
// two cores). Bound: within 1 ulp of float32(math.Tan(x)) and of the
// correctly rounded tan, and at most one result in 2^20 not correctly
// rounded. Measured over all 2.5e9 arguments: none (the sine and cosine
// polynomials of the kernel before missed 20 by an ulp).
func TestTanF32Accuracy(t *testing.T) {
	if !Asm || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		t.Skip("needs AVX2 and FMA")
	}
	step := uint32(97)
	if os.Getenv("STRIDE0_TAN_SWEEP") != "" {
		step = 1
	} else if testing.Short() || raceEnabled {
		step = 9973
	}
	kernels := []struct {
		name string
		k    func(d, x unsafe.Pointer, n int) int
	}{{"tanF32D8", tanF32D8}}
	if hasVmath512 {
		kernels = append(kernels, struct {
			name string
			k    func(d, x unsafe.Pointer, n int) int
		}{"tanF32D16", tanF32D16})
	}
	for _, c := range kernels {
		ref, cr, wrong, n := tanSweep(t, c.k, step)
		t.Logf("%s: %d arguments, max %d ulp against math.Tan, %d against the correctly rounded tan, %d not correctly rounded", c.name, n, ref, cr, wrong)
		if ref > 1 || cr > 1 {
			t.Errorf("%s: max %d ulp against math.Tan, %d against the correctly rounded tan, want <= 1", c.name, ref, cr)
		}
		if wrong > n>>20 {
			t.Errorf("%s: %d of %d results not correctly rounded, want at most one in 2^20", c.name, wrong, n)
		}
	}
}

// TestTanF32Stops checks where the tan kernels stop: with one argument out
// of their range (beyond 2^20, infinite or NaN) at each position of 64 in
// range, each returns the count of whole vectors (8 or 16 lanes) before
// it, having written those with the bits of a run on them alone.
func TestTanF32Stops(t *testing.T) {
	if !Asm || !cpu.X86.HasAVX2 || !cpu.X86.HasFMA {
		t.Skip("needs AVX2 and FMA")
	}
	const n = 64
	xs := make([]float32, n)
	for i := range xs {
		xs[i] = float32(i)*0.37 - 11
	}
	want := make([]float32, n)
	if d := tanF32D8(unsafe.Pointer(&want[0]), unsafe.Pointer(&xs[0]), n); d != n {
		t.Fatalf("tanF32D8 did %d of %d in-range arguments", d, n)
	}
	kernels := map[int]func(d, x unsafe.Pointer, n int) int{8: tanF32D8}
	if hasVmath512 {
		kernels[16] = tanF32D16
	}
	for lanes, k := range kernels {
		for _, bad := range []float32{0x1.000002p20, float32(math.Inf(-1)), float32(math.NaN())} {
			for at := 0; at < n; at++ {
				x := append([]float32(nil), xs...)
				x[at] = bad
				got := make([]float32, n)
				d := k(unsafe.Pointer(&got[0]), unsafe.Pointer(&x[0]), n)
				if d != at/lanes*lanes {
					t.Fatalf("%d lanes, %v at %d: did %d, want %d", lanes, bad, at, d, at/lanes*lanes)
				}
				for i := 0; i < d; i++ {
					if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
						t.Fatalf("%d lanes, %v at %d: tan(%v) = %v, want %v", lanes, bad, at, x[i], got[i], want[i])
					}
				}
			}
		}
	}
}
