package compute_test

import (
	"math"
	"math/rand"
	"os"
	"runtime"
	"sync"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/cpu"

	"github.com/stride0/stride0/compute"
)

// specials32 are float32 edge values: zeros, infinities, NaN, denormals,
// the largest and smallest normals, and values around 1.
func specials32() []float32 {
	return []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		1, -1, 0.5, -0.5, 2, -2, math.Nextafter32(1, 0), math.Nextafter32(1, 2), -math.Nextafter32(1, 0), -math.Nextafter32(1, 2),
		math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, 0x1p-126, -0x1p-126, 0x1p-127, math.MaxFloat32, -math.MaxFloat32,
		1e-30, -1e-30, 1e30, -1e30, 3, -3, 1e-7, 16777216, -16777216, 0x1p-25, 0x1p-24}
}

// checkF32 compares got with want (Go's math in float64 rounded to
// float32): NaN for NaN, infinities and zeros bit for bit (signed), else
// within maxULP; it returns the largest ulp distance.
func checkF32(t *testing.T, name string, args []float32, got, want float32, maxULP int64) int64 {
	t.Helper()
	if math.IsNaN(float64(want)) {
		if !math.IsNaN(float64(got)) {
			t.Fatalf("%s%v = %v, want NaN", name, args, got)
		}
		return 0
	}
	if math.IsInf(float64(want), 0) || want == 0 {
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("%s%v = %v (%#x), want %v (%#x)", name, args, got, math.Float32bits(got), want, math.Float32bits(want))
		}
		return 0
	}
	d := ulps32(got, want)
	if d > maxULP || math.Signbit(float64(got)) != math.Signbit(float64(want)) {
		t.Fatalf("%s%v = %v, want %v: %d ulp", name, args, got, want, d)
	}
	return d
}

// TestArctan2F32 checks float32 arctan2 (vmath32_amd64.s where built)
// against math.Atan2 in float64 rounded to float32, within 2 ulp: every
// pair of special values (C99 Annex F signed zeros and infinities),
// random pairs over all magnitudes and around |y| = |x|, and every length
// from 0 to 40 (tails against the whole-vector results).
func TestArctan2F32(t *testing.T) {
	k, err := compute.LookupBinary(compute.Arctan2, compute.Float32, compute.VV)
	require.NoError(t, err)
	var ys, xs []float32
	sp := specials32()
	for _, a := range sp {
		for _, b := range sp {
			ys, xs = append(ys, a), append(xs, b)
		}
	}
	rng := rand.New(rand.NewSource(32))
	anyF := func() float32 {
		for {
			f := math.Float32frombits(rng.Uint32())
			if !math.IsNaN(float64(f)) {
				return f
			}
		}
	}
	for i := 0; i < 200000; i++ {
		switch i % 4 {
		case 0:
			ys, xs = append(ys, anyF()), append(xs, anyF())
		case 1: // comparable magnitudes
			ys, xs = append(ys, float32(rng.NormFloat64()*10)), append(xs, float32(rng.NormFloat64()*10))
		case 2: // |y| near |x|
			x := float32(rng.NormFloat64())
			y := x * (1 + float32(rng.NormFloat64())*1e-3)
			if rng.Intn(2) == 0 {
				y = -y
			}
			ys, xs = append(ys, y), append(xs, x)
		default: // one much smaller
			x := float32(rng.NormFloat64())
			ys, xs = append(ys, x*float32(math.Ldexp(1, -rng.Intn(40)))), append(xs, x)
		}
	}
	got := make([]float32, len(xs))
	k(unsafe.Pointer(&got[0]), unsafe.Pointer(&ys[0]), unsafe.Pointer(&xs[0]), len(xs))
	worst := int64(0)
	for i := range xs {
		want := float32(math.Atan2(float64(ys[i]), float64(xs[i])))
		worst = max(worst, checkF32(t, "arctan2", []float32{ys[i], xs[i]}, got[i], want, 2))
	}
	t.Logf("arctan2 float32: max %d ulp against math.Atan2 over %d pairs", worst, len(xs))
	for n := 0; n <= 40; n++ {
		off := 1000 + 3*n
		g := make([]float32, n+1)
		g[n] = 42
		if n > 0 {
			k(unsafe.Pointer(&g[0]), unsafe.Pointer(&ys[off]), unsafe.Pointer(&xs[off]), n)
		}
		for i := 0; i < n; i++ {
			require.Equal(t, math.Float32bits(got[off+i]), math.Float32bits(g[i]), "n %d i %d", n, i)
		}
		require.Equal(t, float32(42), g[n], "n %d: wrote past the end", n)
	}
}

// sweepF32 runs the unary float32 kernel of op over all 2^32 bit patterns
// (in blocks, on every core) against f in float64 rounded to float32 and
// returns the largest ulp distance; it fails beyond maxULP.
func sweepF32(t *testing.T, op string, k compute.UnaryFunc, f func(float64) float64, maxULP int64) int64 {
	const block = 1 << 20
	var mu sync.Mutex
	worst, worstX := int64(0), float32(0)
	var wg sync.WaitGroup
	next := make(chan uint64)
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			xs, got := make([]float32, block), make([]float32, block)
			for start := range next {
				for i := range xs {
					xs[i] = math.Float32frombits(uint32(start + uint64(i)))
				}
				k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), block)
				lw, lx := int64(0), float32(0)
				for i, x := range xs {
					want := float32(f(float64(x)))
					g := got[i]
					if math.IsNaN(float64(want)) {
						if !math.IsNaN(float64(g)) {
							t.Errorf("%v(%v) = %v, want NaN", op, x, g)
						}
						continue
					}
					if math.IsInf(float64(want), 0) || want == 0 {
						if math.Float32bits(want) != math.Float32bits(g) {
							t.Errorf("%v(%v) = %v, want %v", op, x, g, want)
						}
						continue
					}
					if d := ulps32(g, want); d > lw {
						lw, lx = d, x
					}
				}
				mu.Lock()
				if lw > worst {
					worst, worstX = lw, lx
				}
				mu.Unlock()
			}
		}()
	}
	for s := uint64(0); s < 1<<32; s += block {
		next <- s
	}
	close(next)
	wg.Wait()
	t.Logf("%v float32: max %d ulp (at %v) over all 2^32 inputs", op, worst, worstX)
	if worst > maxULP {
		t.Errorf("%v float32: %d ulp at %v, want <= %d", op, worst, worstX, maxULP)
	}
	return worst
}

// TestVmath32Sweep runs every float32 input through the float32 kernels
// of vmath32_amd64.s (or the Go loops under noasm): set STRIDE0_SWEEP=1
// (a few minutes per function on two cores).
func TestVmath32Sweep(t *testing.T) {
	if os.Getenv("STRIDE0_SWEEP") == "" || testing.Short() {
		t.Skip("set STRIDE0_SWEEP=1 for the full float32 sweep")
	}
	for _, c := range []struct {
		op compute.Op
		f  func(float64) float64
	}{{compute.Arctan, math.Atan}, {compute.Expm1, math.Expm1}, {compute.Log1p, math.Log1p}, {compute.Arcsin, math.Asin}, {compute.Tan, math.Tan},
		{compute.Log2, math.Log2}, {compute.Log10, math.Log10}, {compute.Arccos, math.Acos}} {
		if s := os.Getenv("STRIDE0_SWEEP_OP"); s != "" && s != c.op.String() {
			continue
		}
		k, err := compute.LookupUnary(c.op, compute.Float32)
		require.NoError(t, err)
		sweepF32(t, c.op.String(), k, c.f, 1)
	}
	if s := os.Getenv("STRIDE0_SWEEP_OP"); s == "" || s == "power2.5" {
		sweepF32(t, "power2.5", pow25F32(t), func(x float64) float64 { return math.Pow(x, 2.5) }, 1)
	}
}

// pow25F32 is the float32 power kernel with the scalar exponent 2.5.
func pow25F32(t *testing.T) compute.UnaryFunc {
	k, err := compute.LookupBinary(compute.Power, compute.Float32, compute.VS)
	require.NoError(t, err)
	y := float32(2.5)
	return func(d, x unsafe.Pointer, n int) { k(d, x, unsafe.Pointer(&y), n) }
}

// TestPower25F32 checks x**2.5 of float32 (x^2 sqrt x in vmath32_amd64.s
// where built) against math.Pow in float64 rounded to float32 on every
// 997th bit pattern and the special values: within 1 ulp, NaN for x < 0,
// +Inf for -Inf, +0 for -0.
func TestPower25F32(t *testing.T) {
	k := pow25F32(t)
	xs := specials32()
	for u := uint64(0); u < 1<<32; u += 997 {
		xs = append(xs, math.Float32frombits(uint32(u)))
	}
	got := make([]float32, len(xs))
	k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), len(xs))
	worst := int64(0)
	for i, x := range xs {
		worst = max(worst, checkF32(t, "power2.5", []float32{x}, got[i], float32(math.Pow(float64(x), 2.5)), 1))
	}
	t.Logf("power(x, 2.5) float32: max %d ulp against math.Pow over %d arguments", worst, len(xs))
	for n := 0; n <= 40; n++ {
		g := make([]float32, n+1)
		g[n] = 42
		if n > 0 {
			k(unsafe.Pointer(&g[0]), unsafe.Pointer(&xs[0]), n)
		}
		for i := 0; i < n; i++ {
			require.Equal(t, math.Float32bits(got[i]), math.Float32bits(g[i]), "n %d i %d", n, i)
		}
		require.Equal(t, float32(42), g[n], "n %d: wrote past the end", n)
	}
}

// TestVmath32Streaming checks that the float32 kernels with streaming
// stores (LookupUnaryNT, LookupBinaryNT, used for large outputs) give bit
// for bit the plain kernels' results, for every length 0..80 and every
// element offset of dst from a 64-byte boundary (the head and tail go
// through the plain kernel), with special and out-of-range values among
// the inputs (tan's Go fallback), and write nothing past n.
func TestVmath32Streaming(t *testing.T) {
	rng := rand.New(rand.NewSource(3232))
	const m = 200
	xs, ys := make([]float32, m), make([]float32, m)
	sp := specials32()
	for i := range xs {
		switch {
		case i%13 == 5:
			xs[i], ys[i] = sp[rng.Intn(len(sp))], sp[rng.Intn(len(sp))]
		case i%29 == 7:
			xs[i], ys[i] = float32(rng.NormFloat64()*1e7), float32(rng.NormFloat64()*1e7)
		default:
			xs[i], ys[i] = float32(rng.Float64()*2-1), float32(rng.NormFloat64()*10)
		}
	}
	same := func(name string, off, n int, want, got []float32) {
		t.Helper()
		for i := range want {
			if math.Float32bits(want[i]) != math.Float32bits(got[i]) && !(want[i] != want[i] && got[i] != got[i]) {
				t.Fatalf("%s off %d n %d: element %d = %v, plain kernel %v", name, off, n, i, got[i], want[i])
			}
		}
	}
	// a 64-byte aligned buffer (the 16-lane streaming kernels' vector)
	buf := make([]float32, m+32)
	a0 := int(uintptr(unsafe.Pointer(&buf[0]))&63) / 4
	al := buf[(16-a0)%16:]
	count := 0
	for _, op := range []compute.Op{compute.Tan, compute.Tanh, compute.Arctan, compute.Arcsin, compute.Log1p, compute.Expm1} {
		nt, ok := compute.LookupUnaryNT(op, compute.Float32)
		if !ok {
			continue
		}
		count++
		k, err := compute.LookupUnary(op, compute.Float32)
		require.NoError(t, err)
		for n := 0; n <= 80; n++ {
			for off := 0; off < 16; off++ {
				want := make([]float32, n+1)
				want[n] = 42
				d := al[off : off+n+1]
				for i := range d {
					d[i] = 42
				}
				x := xs[n+off:]
				if n > 0 {
					k(unsafe.Pointer(&want[0]), unsafe.Pointer(&x[0]), n)
					nt(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), n)
				}
				compute.Fence()
				same(op.String(), off, n, want, d)
			}
		}
	}
	for _, op := range []compute.Op{compute.Arctan2, compute.Hypot} {
		nt, ok := compute.LookupBinaryNT(op, compute.Float32, compute.VV)
		if !ok {
			continue
		}
		count++
		k, err := compute.LookupBinary(op, compute.Float32, compute.VV)
		require.NoError(t, err)
		for n := 0; n <= 80; n++ {
			for off := 0; off < 16; off++ {
				want := make([]float32, n+1)
				want[n] = 42
				d := al[off : off+n+1]
				for i := range d {
					d[i] = 42
				}
				if n > 0 {
					k(unsafe.Pointer(&want[0]), unsafe.Pointer(&ys[n]), unsafe.Pointer(&xs[off]), n)
					nt(unsafe.Pointer(&d[0]), unsafe.Pointer(&ys[n]), unsafe.Pointer(&xs[off]), n)
				}
				compute.Fence()
				same(op.String(), off, n, want, d)
			}
		}
	}
	if compute.Asm && cpu.X86.HasFMA {
		require.Positive(t, count, "no streaming float32 kernels registered")
	}
}

// TestHypotF32 checks float32 hypot of two vectors (float64 arithmetic in
// vmath32_amd64.s where built) against math.Hypot rounded to float32:
// every pair of special values (an infinity beside a NaN gives +Inf),
// random bit patterns and ordinary values, within 1 ulp and equal in all
// but a few; every length 0..40 gives the same elements.
func TestHypotF32(t *testing.T) {
	k, err := compute.LookupBinary(compute.Hypot, compute.Float32, compute.VV)
	require.NoError(t, err)
	var xs, ys []float32
	sp := specials32()
	for _, a := range sp {
		for _, b := range sp {
			xs, ys = append(xs, a), append(ys, b)
		}
	}
	rng := rand.New(rand.NewSource(77))
	for i := 0; i < 300000; i++ {
		switch i % 3 {
		case 0:
			xs, ys = append(xs, math.Float32frombits(rng.Uint32())), append(ys, math.Float32frombits(rng.Uint32()))
		case 1:
			xs, ys = append(xs, float32(rng.NormFloat64()*10)), append(ys, float32(rng.NormFloat64()*10))
		default:
			x := float32(rng.NormFloat64())
			xs, ys = append(xs, x), append(ys, x*float32(math.Ldexp(rng.Float64(), -rng.Intn(30))))
		}
	}
	got := make([]float32, len(xs))
	k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), unsafe.Pointer(&ys[0]), len(xs))
	off := 0
	for i := range xs {
		want := float32(math.Hypot(float64(xs[i]), float64(ys[i])))
		checkF32(t, "hypot", []float32{xs[i], ys[i]}, got[i], want, 1)
		if math.Float32bits(got[i]) != math.Float32bits(want) && !math.IsNaN(float64(want)) {
			off++
		}
	}
	t.Logf("hypot float32: %d of %d pairs differ from math.Hypot by 1 ulp", off, len(xs))
	require.LessOrEqual(t, off, len(xs)/100000)
	for n := 0; n <= 40; n++ {
		o := 500 + 7*n
		g := make([]float32, n+1)
		g[n] = 42
		if n > 0 {
			k(unsafe.Pointer(&g[0]), unsafe.Pointer(&xs[o]), unsafe.Pointer(&ys[o]), n)
		}
		for i := 0; i < n; i++ {
			require.Equal(t, math.Float32bits(got[o+i]), math.Float32bits(g[i]), "n %d i %d", n, i)
		}
		require.Equal(t, float32(42), g[n], "n %d: wrote past the end", n)
	}
}
