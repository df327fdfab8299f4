//go:build amd64 && !noasm

package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// vm32Pairs lists the unary kernels of vmath32_amd64.s in both widths.
var vm32Pairs = []struct {
	name         string
	avx2, avx512 func(d, x unsafe.Pointer, n int)
	ref          func(float64) float64 // widths whose bits differ (a root by VRSQRT14PS): both within 1 ulp of it
}{
	{"arctan", atanF32V8, atanF32V16, nil},
	{"expm1", expm1F32V8, expm1F32V16, nil},
	{"log1p", log1pF32V8, log1pF32V16, nil},
	{"arcsin", asinF32V8, asinF32V16, math.Asin},
	{"power2.5", pow25F32V8, pow25F32V16, nil},
	{"tanh", tanhF32V8, tanhF32V16, nil},
}

// vm32Inputs is n float32s: random bit patterns, normal values of a few
// scales and the special values, shuffled.
func vm32Inputs(rng *rand.Rand, n int) []float32 {
	xs := []float32{0, float32(math.Copysign(0, -1)), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()),
		1, -1, math.SmallestNonzeroFloat32, math.MaxFloat32, 88.72, -17.5, 0x1p-25}
	for len(xs) < n {
		switch rng.Intn(3) {
		case 0:
			xs = append(xs, math.Float32frombits(rng.Uint32()))
		case 1:
			xs = append(xs, float32(rng.NormFloat64()*10))
		default:
			xs = append(xs, float32(rng.NormFloat64()*0.1))
		}
	}
	rng.Shuffle(len(xs), func(i, j int) { xs[i], xs[j] = xs[j], xs[i] })
	return xs[:n]
}

// TestVmath32Widths checks that the AVX2 kernels (8 lanes) give bit for bit
// the results of the AVX-512 ones (16 lanes) where the CPU has both (the
// public tests exercise only the one registered); arcsin, whose AVX-512
// form takes its square root by VRSQRT14PS where the AVX2 one has VSQRTPS
// and a division, both within 1 ulp of float64 math instead; each
// streaming form the bits of its plain form.
func TestVmath32Widths(t *testing.T) {
	if !Asm || !hasVmath512 {
		t.Skip("needs AVX2 and AVX-512")
	}
	rng := rand.New(rand.NewSource(3232))
	const n = 1 << 16
	xs, ys := vm32Inputs(rng, n), vm32Inputs(rng, n)
	a, b := make([]float32, n), make([]float32, n)
	same := func(name string) {
		t.Helper()
		for i := range a {
			if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
				t.Fatalf("%s(%v): AVX2 %v, AVX-512 %v", name, xs[i], a[i], b[i])
			}
		}
	}
	near := func(name string, got []float32, ref func(float64) float64) {
		t.Helper()
		for i, x := range xs {
			want := float32(ref(float64(x)))
			if want != want || got[i] != got[i] || math.IsInf(float64(want), 0) || want == 0 {
				if math.Float32bits(got[i]) != math.Float32bits(want) && !(got[i] != got[i] && want != want) {
					t.Fatalf("%s(%v) = %v, want %v", name, x, got[i], want)
				}
				continue
			}
			if d := int64(ord32(got[i])) - int64(ord32(want)); d > 1 || d < -1 {
				t.Fatalf("%s(%v) = %v, float64 math %v: %d ulp", name, x, got[i], want, d)
			}
		}
	}
	for _, c := range vm32Pairs {
		c.avx2(unsafe.Pointer(&a[0]), unsafe.Pointer(&xs[0]), n)
		c.avx512(unsafe.Pointer(&b[0]), unsafe.Pointer(&xs[0]), n)
		if c.ref != nil {
			near(c.name+" AVX2", a, c.ref)
			near(c.name+" AVX-512", b, c.ref)
			continue
		}
		same(c.name)
	}
	atan2F32V8(unsafe.Pointer(&a[0]), unsafe.Pointer(&ys[0]), unsafe.Pointer(&xs[0]), n)
	atan2F32V16(unsafe.Pointer(&b[0]), unsafe.Pointer(&ys[0]), unsafe.Pointer(&xs[0]), n)
	same("arctan2")
	// the streaming forms of both widths against the plain AVX-512 kernel,
	// into a 64-byte aligned dst
	buf := make([]float32, n+16)
	nb := buf[(16-int(uintptr(unsafe.Pointer(&buf[0]))&63)/4)%16:][:n]
	for _, c := range vm32NT {
		for _, w := range []struct {
			plain, nt func(d, x unsafe.Pointer, n int)
		}{{c.plain8, c.avx2}, {c.plain16, c.avx512}} {
			w.plain(unsafe.Pointer(&a[0]), unsafe.Pointer(&xs[0]), n)
			w.nt(unsafe.Pointer(&nb[0]), unsafe.Pointer(&xs[0]), n)
			Fence()
			copy(b, nb)
			same(c.name + " streaming")
		}
	}
	// tan: 16 lanes against 8 (both stop at |x| > 2^20, which the inputs
	// have: the wrappers do those vectors in Go), plain and streaming
	tanGo := wrapUnary(tan_f[float32])
	asmMathF32(tanF32D8, tanGo)(unsafe.Pointer(&a[0]), unsafe.Pointer(&xs[0]), n)
	asmMathF32(vmWide(tanF32D16, tanF32D8, 4, 16, 0), tanGo)(unsafe.Pointer(&b[0]), unsafe.Pointer(&xs[0]), n)
	same("tan")
	for off := 0; off < 16; off += 8 {
		asmMathF32(vmWide(tanF32D16NT, tanF32D8NT, 4, 16, 64), tanGo)(unsafe.Pointer(&nb[off]), unsafe.Pointer(&xs[0]), n-off)
		Fence()
		copy(b, nb[off:])
		for i := n - off; i < n; i++ {
			b[i] = a[i]
		}
		same("tan streaming")
	}
	small := make([]float32, n)
	for i := range small {
		small[i] = float32(rng.Float64()*20 - 10)
	}
	if k := tanF32D16(unsafe.Pointer(&b[0]), unsafe.Pointer(&small[0]), n); k != n {
		t.Fatalf("tan: the 16-lane kernel did %d of %d in-range arguments", k, n)
	}
	a2 := make([]float32, n)
	atan2F32V16(unsafe.Pointer(&a2[0]), unsafe.Pointer(&ys[0]), unsafe.Pointer(&xs[0]), n)
	copy(a, a2)
	for _, nt := range []func(d, x, y unsafe.Pointer, n int){atan2F32V8NT, atan2F32V16NT} {
		nt(unsafe.Pointer(&nb[0]), unsafe.Pointer(&ys[0]), unsafe.Pointer(&xs[0]), n)
		Fence()
		copy(b, nb)
		same("arctan2 streaming")
	}
}

// vm32NT lists the streaming kernels of vmath32_amd64.s in both widths
// beside the plain kernels of the same widths.
var vm32NT = []struct {
	name                          string
	plain8, plain16, avx2, avx512 func(d, x unsafe.Pointer, n int)
}{
	{"arctan", atanF32V8, atanF32V16, atanF32V8NT, atanF32V16NT},
	{"expm1", expm1F32V8, expm1F32V16, expm1F32V8NT, expm1F32V16NT},
	{"log1p", log1pF32V8, log1pF32V16, log1pF32V8NT, log1pF32V16NT},
	{"arcsin", asinF32V8, asinF32V16, asinF32V8NT, asinF32V16NT},
	{"power2.5", pow25F32V8, pow25F32V16, pow25F32V8NT, pow25F32V16NT},
	{"tanh", tanhF32V8, tanhF32V16, tanhF32V8NT, tanhF32V16NT},
}

// ord32 maps float32 bits to integers in the order of the values.
func ord32(f float32) int32 {
	u := int32(math.Float32bits(f))
	if u < 0 {
		u = math.MinInt32 - u
	}
	return u
}

// BenchmarkVmath32 times the kernels of vmath32_amd64.s in both widths
// against the routine registered before them (old: the float64-computed
// kernel of vmath_amd64.s, or the Go loop of math.Atan2), on 1<<16
// elements in cache, uniform [-10, 10] (arcsin, log1p: [-1, 1]; power:
// [0.01, 100]).
// Interleave with -count and compare best times.
func BenchmarkVmath32(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewSource(1))
	u, v, s, p := make([]float32, n), make([]float32, n), make([]float32, n), make([]float32, n)
	for i := range u {
		u[i], v[i], s[i] = float32(rng.Float64()*20-10), float32(rng.Float64()*20-10), float32(rng.Float64()*2-1)
		p[i] = float32(0.01 + rng.Float64()*99.99)
	}
	d := make([]float32, n)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(4 * n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				f()
			}
		})
	}
	old := map[string]UnaryFunc{ // the Go loops
		"arctan": wrapUnary(arctan_f[float32]),
		"expm1":  wrapUnary(expm1_f[float32]),
		"log1p":  wrapUnary(log1p_f[float32]),
		"arcsin": wrapUnary(arcsin_f[float32]),
	}
	for _, c := range vm32Pairs {
		x := u
		if c.name == "log1p" || c.name == "arcsin" {
			x = s
		}
		if c.name == "power2.5" {
			x = p
		}
		if o := old[c.name]; o != nil {
			run(c.name+"/go", func() { o(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), n) })
		}
		run(c.name+"/avx2", func() { c.avx2(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), n) })
		if hasVmath512 {
			run(c.name+"/avx512", func() { c.avx512(unsafe.Pointer(&d[0]), unsafe.Pointer(&x[0]), n) })
		}
	}
	run("arctan2/go", func() {
		for i := range d {
			d[i] = float32(math.Atan2(float64(u[i]), float64(v[i])))
		}
	})
	run("arctan2/avx2", func() { atan2F32V8(unsafe.Pointer(&d[0]), unsafe.Pointer(&u[0]), unsafe.Pointer(&v[0]), n) })
	if hasVmath512 {
		run("arctan2/avx512", func() { atan2F32V16(unsafe.Pointer(&d[0]), unsafe.Pointer(&u[0]), unsafe.Pointer(&v[0]), n) })
	}
}
