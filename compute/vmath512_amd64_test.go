//go:build amd64 && !noasm

package compute

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// vmInputs is n float64s for the float64 routines: mostly values in every
// kernel's range (a few scales, both signs), with special values (zeros,
// infinities, NaN, denormals, huge values, negatives for log) sprinkled at
// random positions, so that the AVX-512 forms stop and resume mid-array.
func vmInputs(rng *rand.Rand, n int, specials bool) []float64 {
	sp := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, 1e300, -1e300,
		1 << 23, -(1 << 23), -1, -0.5, 1e-20, -1e-20, 710, -750}
	xs := make([]float64, n)
	for i := range xs {
		switch r := rng.Intn(100); {
		case specials && r < 3:
			xs[i] = sp[rng.Intn(len(sp))]
		case r < 40:
			xs[i] = rng.Float64()*2 - 1
		case r < 80:
			xs[i] = rng.Float64()*20 - 10
		default:
			xs[i] = math.Float64frombits(rng.Uint64()>>2 | 0x3c00000000000000) // [2^-63, 2^65)
		}
	}
	return xs
}

// TestVmathZ8 checks that the float64 routines with their AVX-512 forms
// (vmZ8: 8 lanes a step, the AVX2 kernel where they stop) give bit for
// bit the AVX2 kernels' results, plain and streaming, for random lengths
// and offsets of dst from a 64-byte boundary, on inputs with and without
// special values; and that a Z8 kernel alone does every whole vector of
// in-range arguments (so that a translation that stops early, or never
// runs, fails too).
func TestVmathZ8(t *testing.T) {
	if !Asm || !hasVmath512 {
		t.Skip("needs AVX2 and AVX-512")
	}
	rng := rand.New(rand.NewSource(64))
	const m = 3000
	buf := make([]float64, m+16)
	al := buf[(8-int(uintptr(unsafe.Pointer(&buf[0]))&63)/8)%8:]
	want := make([]float64, m)
	same := func(name string, n, off int, got []float64, x []float64) {
		t.Helper()
		for i := 0; i < n; i++ {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Fatalf("%s n %d off %d: element %d (x %v) = %v, AVX2 %v", name, n, off, i, x[i], got[i], want[i])
			}
		}
	}
	unary := []struct {
		name             string
		k, knt, k8, k8nt vmKernel
		slow             UnaryFunc
	}{
		{"sin", sinF64AVX2, sinF64NTAVX2, sinF64Z8, sinF64NTZ8, wrapUnary(sin_f[float64])},
		{"cos", cosF64AVX2, cosF64NTAVX2, cosF64Z8, cosF64NTZ8, wrapUnary(cos_f[float64])},
		{"expm1", expm1F64AVX2, expm1F64NTAVX2, expm1F64Z8, expm1F64NTZ8, wrapUnary(expm1_f[float64])},
		{"tanh", tanhF64AVX2, tanhF64NTAVX2, tanhF64Z8, tanhF64NTZ8, wrapUnary(tanh_f[float64])},
		{"tan", tanF64AVX2, tanF64NTAVX2, tanF64Z8, tanF64NTZ8, wrapUnary(tan_f[float64])},
		{"power 1.5", pow15F64AVX2, pow15F64NTAVX2, pow15F64Z8, pow15F64NTZ8, goPow(1.5)},
		{"power 2.5", pow25F64AVX2, pow25F64NTAVX2, pow25F64Z8, pow25F64NTZ8, goPow(2.5)},
	}
	p := func(s []float64) unsafe.Pointer { return unsafe.Pointer(&s[0]) }
	for _, sp := range []bool{false, true} {
		xs, ys := vmInputs(rng, m, sp), vmInputs(rng, m, sp)
		if !sp { // in range for every routine
			for i := range xs {
				xs[i] = rng.Float64()*0.85 + 0.05
				ys[i] = rng.Float64()*0.85 + 0.05
			}
		}
		for _, u := range unary {
			if !sp {
				got := make([]float64, m)
				if k := u.k8(p(got), p(xs), m); k != m&^7 {
					t.Fatalf("%s: the AVX-512 kernel did %d of %d in-range arguments", u.name, k, m&^7)
				}
			}
			for trial := 0; trial < 40; trial++ {
				n, off := rng.Intn(m-8), rng.Intn(8)
				if trial < 16 {
					n = trial
				}
				x := xs[rng.Intn(m-n):][:n]
				if n == 0 {
					continue
				}
				vmUnary(u.k, u.slow)(p(want), p(x), n)
				d := al[off:][:n]
				vmUnary(vmZ8(u.k8, u.k, 0), u.slow)(p(d), p(x), n)
				same(u.name, n, off, d, x)
				plain := vmUnary(vmZ8(u.k8, u.k, 0), u.slow)
				vmUnaryNT(vmZ8(u.k8nt, u.knt, 64), plain, u.slow)(p(d), p(x), n)
				Fence()
				same(u.name+" streaming", n, off, d, x)
			}
		}
		expSlow := wrapUnary(exp_f[float64])
		for trial := 0; trial < 40; trial++ {
			n, off := rng.Intn(m-8), rng.Intn(8)
			x := xs[rng.Intn(m-n):][:n]
			if n == 0 {
				continue
			}
			asmMathF64(expF64AVX2, expSlow)(p(want), p(x), n)
			d := al[off:][:n]
			asmMathF64(vmZ8(expF64Z8, expF64AVX2, 0), expSlow)(p(d), p(x), n)
			same("exp", n, off, d, x)
		}
		if !sp {
			got := make([]float64, m)
			if k := expF64Z8(p(got), p(xs), m); k != m&^7 {
				t.Fatalf("exp: the AVX-512 kernel did %d of %d in-range arguments", k, m&^7)
			}
		}
		atan2Slow := binTable[Arctan2][Float64][VV]
		powSlow := binTable[Power][Float64][VS]
		for trial := 0; trial < 40; trial++ {
			n, off := 1+rng.Intn(m-9), rng.Intn(8)
			if trial < 16 {
				n = trial + 1
			}
			x, y := xs[:n], ys[len(ys)-n:]
			d := al[off:][:n]
			vmBinary(atan2F64AVX2, atan2Slow)(p(want), p(y), p(x), n)
			vmBinary(vmZ8Binary(atan2F64Z8, atan2F64AVX2, 0), atan2Slow)(p(d), p(y), p(x), n)
			same("arctan2", n, off, d, x)
			vmBinaryNT(vmZ8Binary(atan2F64NTZ8, atan2F64NTAVX2, 64), vmBinary(atan2F64AVX2, atan2Slow), atan2Slow)(p(d), p(y), p(x), n)
			Fence()
			same("arctan2 streaming", n, off, d, x)
			for _, e := range []float64{2.5, 1.5, -1.5, 0.3} {
				ax := make([]float64, n)
				for i := range ax {
					ax[i] = math.Abs(x[i]) * 7
				}
				pv := e
				powVS(8, powSlow, unTable[Square][Float64], halfPow(pow15F64AVX2, pow25F64AVX2, powF64AVX2), cubeF64AVX2)(p(want), p(ax), unsafe.Pointer(&pv), n)
				powVS(8, powSlow, unTable[Square][Float64], halfPow(vmZ8(pow15F64Z8, pow15F64AVX2, 0), vmZ8(pow25F64Z8, pow25F64AVX2, 0), vmZ8Pow(powF64Z8, powF64AVX2, 0)), cubeF64AVX2)(p(d), p(ax), unsafe.Pointer(&pv), n)
				same("power", n, off, d, ax)
				if off == 0 || off == 4 { // the streaming form's dst is 32-byte aligned (its wrapper's head is plain)
					powVS(8, powSlow, unTable[Square][Float64], halfPow(vmZ8(pow15F64NTZ8, pow15F64NTAVX2, 64), vmZ8(pow25F64NTZ8, pow25F64NTAVX2, 64), vmZ8Pow(powF64NTZ8, powF64NTAVX2, 64)), cubeF64AVX2)(p(d), p(ax), unsafe.Pointer(&pv), n)
					Fence()
					same("power streaming", n, off, d, ax)
				}
			}
		}
	}
}

// goPow is math.Pow(x, y) as a UnaryFunc of float64 (the half power
// kernels' stand-in for the elements outside their range).
func goPow(y float64) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		dst, src := unsafe.Slice((*float64)(d), n), unsafe.Slice((*float64)(x), n)
		for i, v := range src {
			dst[i] = math.Pow(v, y)
		}
	}
}

// TestPowHalfGoMatchesKernel: the Go powHalf (the pure-Go build's and the
// VV form's x**1.5 and x**2.5) gives the half power kernels' bits.
func TestPowHalfGoMatchesKernel(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	xs := make([]float64, 4096)
	for i := range xs {
		xs[i] = math.Ldexp(1+rng.Float64(), rng.Intn(600)-300)
	}
	got := make([]float64, len(xs))
	for _, c := range []struct {
		y float64
		k vmKernel
	}{{1.5, pow15F64AVX2}, {2.5, pow25F64AVX2}} {
		if k := c.k(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), len(xs)); k != len(xs) {
			t.Fatalf("x**%v: the kernel did %d of %d in-range arguments", c.y, k, len(xs))
		}
		for i, x := range xs {
			if w := powHalf(x, c.y); math.Float64bits(w) != math.Float64bits(got[i]) {
				t.Fatalf("%v**%v: kernel %v, powHalf %v", x, c.y, got[i], w)
			}
		}
	}
}

// TestVmathDomain checks log, log1p and arcsin of float64 on data with arguments
// outside their domain (zeros of both signs, negatives, the pole, NaNs with
// payloads, infinities, denormals), in runs and alone: through vmUnaryS
// (the plain kernel, then the domain form from its first stop), in the
// AVX2 forms and, where the CPU has it, the AVX-512 ones, every element is
// bit for bit the Go loop's (math.Log, math.Log1p) outside the domain and
// the plain kernel's alone inside it. The domain form alone must do every
// vector without a positive denormal (log) or a finite x >= 2^1023
// (log1p).
func TestVmathDomain(t *testing.T) {
	if !Asm || !cpu.X86.HasFMA {
		t.Skip("needs AVX2 and FMA")
	}
	rng := rand.New(rand.NewSource(65))
	nan := math.Float64frombits(0x7ff8000000abcdef)
	for _, c := range []struct {
		name      string
		k, ks     vmKernel
		k8, ks8   vmKernel // nil: the AVX-512 form is vmathZ's
		goF       func(float64) float64
		inDomain  func(float64) bool
		sp        []float64
		slowStops func(float64) bool
	}{
		{"log", logF64AVX2, logSF64AVX2, nil, nil, math.Log,
			func(x float64) bool { return x >= 0x1p-1022 && x <= math.MaxFloat64 },
			[]float64{0, math.Copysign(0, -1), -1, -1e-300, -5e-324, math.Inf(1), math.Inf(-1), nan, -nan, 5e-324, 0x1p-1030},
			func(x float64) bool { return x > 0 && x < 0x1p-1022 }},
		{"log1p", log1pF64AVX2, log1pSF64AVX2, nil, nil, math.Log1p,
			func(x float64) bool { return x > -1 && x < 0x1p1023 },
			[]float64{-1, -1.5, -1e300, math.Inf(1), math.Inf(-1), nan, -nan, 0, math.Copysign(0, -1), 1e308, math.MaxFloat64},
			func(x float64) bool { return x >= 0x1p1023 && x <= math.MaxFloat64 }},
		{"arcsin", arcsinF64AVX2, arcsinSF64AVX2, nil, nil, asinF,
			func(x float64) bool { return math.Abs(x) <= 1 },
			[]float64{1.5, -2, math.Nextafter(1, 2), math.Nextafter(-1, -2), 1, -1, math.Inf(1), math.Inf(-1), nan, -nan, 1e300, 0, math.Copysign(0, -1)},
			func(x float64) bool { return x != x }},
	} {
		slow := UnaryFunc(func(d, x unsafe.Pointer, n int) {
			dst, src := unsafe.Slice((*float64)(d), n), unsafe.Slice((*float64)(x), n)
			for i, v := range src {
				dst[i] = c.goF(v)
			}
		})
		type form struct {
			name     string
			k, ks    vmKernel
			inDomain func(float64) bool
		}
		forms := []form{{"AVX2", c.k, c.ks, c.inDomain}}
		if hasVmath512 && c.k8 != nil {
			forms = append(forms, form{"AVX-512", vmZ8(c.k8, c.k, 0), vmZ8(c.ks8, c.ks, 0), c.inDomain})
		} else if z := vmathZ[map[string]Op{"log": Log, "log1p": Log1p, "arcsin": Arcsin}[c.name]]; hasVmath512 && z != nil {
			// the AVX-512 kernels do every element, the logarithms' denormals included
			forms = append(forms, form{"AVX-512", z, z, func(x float64) bool { return c.inDomain(x) || c.name != "arcsin" && x > 0 && x < 0x1p-1022 }})
		}
		for _, f := range forms {
			run := vmUnaryS(f.k, f.ks, slow)
			for trial := 0; trial < 60; trial++ {
				n := 1 + rng.Intn(700)
				xs := make([]float64, n)
				density := []int{0, 2, 30, 90}[trial%4] // percent of special values
				for i := range xs {
					xs[i] = rng.Float64()*8 + 0.01
					if rng.Intn(100) < density {
						xs[i] = c.sp[rng.Intn(len(c.sp))]
					}
				}
				got := make([]float64, n)
				run(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n)
				one := make([]float64, 1)
				for i, x := range xs {
					var want float64
					if f.inDomain(x) {
						vmUnary(f.k, slow)(unsafe.Pointer(&one[0]), unsafe.Pointer(&xs[i]), 1)
						want = one[0]
					} else {
						want = c.goF(x)
					}
					if math.Float64bits(got[i]) != math.Float64bits(want) {
						t.Fatalf("%s %s: element %d of %d, x %v (%#x): %v (%#x), want %v (%#x)", c.name, f.name, i, n, x,
							math.Float64bits(x), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
					}
				}
				// the domain form alone does every vector without a value it leaves
				m := n &^ 7
				stop := m
				for i := 0; i < m; i++ {
					if c.slowStops(xs[i]) {
						stop = i &^ 7
						break
					}
				}
				if m > 0 {
					if done := f.ks(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), m); done < stop {
						t.Fatalf("%s %s: the domain form stopped at %d of %d (first value it leaves in vector %d)", c.name, f.name, done, m, stop)
					}
				}
			}
		}
	}
}

// BenchmarkVmathNaN: float64 sin and exp of data with 1% NaN (missing
// values), through the chunked path that replaces NaNs for the kernel
// (vmUnaryS; asmMath) against the kernel stopping at each (vmUnary), and
// on data with none; float32 sin and exp (asmMath) with and without.
func BenchmarkVmathNaN(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewSource(1))
	clean, nan := make([]float64, n), make([]float64, n)
	for i := range clean {
		clean[i] = rng.Float64()*20 - 10
		nan[i] = clean[i]
		if rng.Intn(100) == 0 {
			nan[i] = math.NaN()
		}
	}
	d := make([]float64, n)
	k := sinF64AVX2
	if hasVmath512 {
		k = vmZ8(sinF64Z8, sinF64AVX2, 0)
	}
	slow := wrapUnary(sin_f[float64])
	for _, c := range []struct {
		name string
		f    UnaryFunc
		x    []float64
	}{{"sin/clean", vmUnaryS(k, nil, slow), clean}, {"sin/nan/chunks", vmUnaryS(k, nil, slow), nan},
		{"sin/nan/stops", vmUnary(k, slow), nan}, {"exp/clean", unTable[Exp][Float64], clean}, {"exp/nan", unTable[Exp][Float64], nan}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(8 * n)
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				c.f(unsafe.Pointer(&d[0]), unsafe.Pointer(&c.x[0]), n)
			}
		})
	}
	clean32, nan32 := make([]float32, n), make([]float32, n)
	for i := range clean32 {
		clean32[i], nan32[i] = float32(clean[i]), float32(nan[i])
	}
	for _, op := range []Op{Sin, Exp} {
		for _, x := range []struct {
			name string
			v    []float32
		}{{"clean", clean32}, {"nan", nan32}} {
			b.Run(fmt.Sprintf("%v32/%s", op, x.name), func(b *testing.B) {
				b.SetBytes(4 * n)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					unTable[op][Float32](unsafe.Pointer(&d[0]), unsafe.Pointer(&x.v[0]), n)
				}
			})
		}
	}
}

// TestVmathNaNChunks: the float64 and float32 routines on data with NaNs
// (missing values; quiet and signaling, both signs) among values in and out
// of range, at densities from none to most, out of place and in place, and
// past a chunk: every element is the routine's result for it alone, and
// every NaN the Go loop's.
func TestVmathNaNChunks(t *testing.T) {
	if !Asm || !cpu.X86.HasFMA {
		t.Skip("needs AVX2 and FMA")
	}
	rng := rand.New(rand.NewSource(68))
	nans := []float64{math.NaN(), math.Float64frombits(0x7ff8000000abcdef), math.Float64frombits(0xfff8000000000123),
		math.Float64frombits(0x7ff0000000000001)}
	others := []float64{math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, -1e300, 5e-324, 1 << 30, -800, 800}
	for _, c := range []struct {
		op   Op
		goF  UnaryFunc
		name string
	}{{Sin, wrapUnary(sin_f[float64]), "sin"}, {Cos, wrapUnary(cos_f[float64]), "cos"}, {Tan, wrapUnary(tan_f[float64]), "tan"},
		{Arctan, wrapUnary(arctan_f[float64]), "arctan"}, {Expm1, wrapUnary(expm1_f[float64]), "expm1"},
		{Tanh, wrapUnary(tanh_f[float64]), "tanh"}, {Exp, wrapUnary(exp_f[float64]), "exp"}} {
		f := unTable[c.op][Float64]
		for trial := 0; trial < 24; trial++ {
			n := 1 + rng.Intn(3*vmChunk)
			xs := make([]float64, n)
			density := []int{0, 1, 10, 80}[trial%4]
			for i := range xs {
				xs[i] = rng.Float64()*20 - 10
				switch r := rng.Intn(100); {
				case r < density:
					xs[i] = nans[rng.Intn(len(nans))]
				case r < density+2:
					xs[i] = others[rng.Intn(len(others))]
				}
			}
			got := make([]float64, n)
			f(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n)
			in := append([]float64(nil), xs...)
			f(unsafe.Pointer(&in[0]), unsafe.Pointer(&in[0]), n) // in place
			for i, x := range xs {
				var want float64
				if x != x {
					c.goF(unsafe.Pointer(&want), unsafe.Pointer(&xs[i]), 1)
				} else {
					f(unsafe.Pointer(&want), unsafe.Pointer(&xs[i]), 1)
				}
				for _, g := range []float64{got[i], in[i]} {
					if math.Float64bits(g) != math.Float64bits(want) {
						t.Fatalf("%s n %d: element %d (x %v, %#x) = %v (%#x), want %v (%#x)", c.name, n, i, x, math.Float64bits(x),
							g, math.Float64bits(g), want, math.Float64bits(want))
					}
				}
			}
		}
	}
	// float32 (asmMath's routines; tanh is vm32Unary's): the same, with
	// float32 NaNs and values
	// outside the kernels' ranges (huge arguments of sin and tan, exp's
	// overflow and underflow)
	nans32 := []float32{float32(math.NaN()), math.Float32frombits(0x7fc0abcd), math.Float32frombits(0xffc00123), math.Float32frombits(0x7f800001)}
	others32 := []float32{float32(math.Inf(1)), float32(math.Inf(-1)), 0, float32(math.Copysign(0, -1)), 1e30, -1e30, 1e-45, 1 << 30, -200, 200}
	for _, c := range []struct {
		op   Op
		goF  UnaryFunc
		name string
	}{{Sin, wrapUnary(sin_f[float32]), "sin"}, {Cos, wrapUnary(cos_f[float32]), "cos"}, {Tan, wrapUnary(tan_f[float32]), "tan"},
		{Exp, wrapUnary(exp_f[float32]), "exp"}, {Log, wrapUnary(log_f[float32]), "log"}} {
		f := unTable[c.op][Float32]
		for trial := 0; trial < 24; trial++ {
			n := 1 + rng.Intn(3*vmChunk)
			xs := make([]float32, n)
			density := []int{0, 1, 10, 80}[trial%4]
			for i := range xs {
				xs[i] = float32(rng.Float64()*20 - 10)
				switch r := rng.Intn(100); {
				case r < density:
					xs[i] = nans32[rng.Intn(len(nans32))]
				case r < density+2:
					xs[i] = others32[rng.Intn(len(others32))]
				}
			}
			got := make([]float32, n)
			f(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n)
			in := append([]float32(nil), xs...)
			f(unsafe.Pointer(&in[0]), unsafe.Pointer(&in[0]), n) // in place
			for i, x := range xs {
				var want float32
				if x != x {
					c.goF(unsafe.Pointer(&want), unsafe.Pointer(&xs[i]), 1)
				} else {
					f(unsafe.Pointer(&want), unsafe.Pointer(&xs[i]), 1)
				}
				for _, g := range []float32{got[i], in[i]} {
					if math.Float32bits(g) != math.Float32bits(want) {
						t.Fatalf("float32 %s n %d: element %d (x %v, %#x) = %v (%#x), want %v (%#x)", c.name, n, i, x, math.Float32bits(x),
							g, math.Float32bits(g), want, math.Float32bits(want))
					}
				}
			}
		}
	}
}

// TestLogZDomain holds the AVX-512 log2 and log10 (the log kernel scaled,
// which nothing else checks outside the domain) to the Go loop bit for
// bit at zeros, negatives, infinities and NaNs of every kind (signaling,
// with payloads, with the sign bit), and every element in the domain
// (denormals included) to its value alone, at densities up to most.
func TestLogZDomain(t *testing.T) {
	if !Asm || !hasVmath512 {
		t.Skip("needs AVX-512")
	}
	rng := rand.New(rand.NewSource(66))
	nan := math.Float64frombits(0x7ff8000000abcdef)
	sp := []float64{0, math.Copysign(0, -1), -1, -1e-300, -5e-324, math.Inf(1), math.Inf(-1), nan, -nan,
		math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff0000000000001), 5e-324, 0x1p-1030, 1000, 1e22, 0.001}
	for _, c := range []struct {
		op  Op
		goF UnaryFunc
	}{{Log2, wrapUnary(log2_f[float64])}, {Log10, wrapUnary(log10_f[float64])}} {
		f := unTable[c.op][Float64]
		for trial := 0; trial < 40; trial++ {
			n := 1 + rng.Intn(300)
			xs := make([]float64, n)
			density := []int{0, 2, 30, 90}[trial%4]
			for i := range xs {
				xs[i] = rng.Float64()*8 + 0.01
				if rng.Intn(100) < density {
					xs[i] = sp[rng.Intn(len(sp))]
				}
			}
			got := make([]float64, n)
			f(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n)
			for i, x := range xs {
				var want float64
				if x > 0 && x <= math.MaxFloat64 {
					f(unsafe.Pointer(&want), unsafe.Pointer(&xs[i]), 1)
				} else {
					c.goF(unsafe.Pointer(&want), unsafe.Pointer(&xs[i]), 1)
				}
				if math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Fatalf("%v: element %d of %d, x %v (%#x): %v (%#x), want %v (%#x)", c.op, i, n, x,
						math.Float64bits(x), got[i], math.Float64bits(got[i]), want, math.Float64bits(want))
				}
			}
		}
	}
	// exact powers of ten and of two
	for k := 0; k <= 22; k++ {
		x, y := math.Pow(10, float64(k)), math.Ldexp(1, k*40-500)
		var g10, g2 float64
		unTable[Log10][Float64](unsafe.Pointer(&g10), unsafe.Pointer(&x), 1)
		unTable[Log2][Float64](unsafe.Pointer(&g2), unsafe.Pointer(&y), 1)
		if g10 != float64(k) || g2 != float64(k*40-500) {
			t.Fatalf("log10(1e%d) = %v, log2(2^%d) = %v", k, g10, k*40-500, g2)
		}
	}
}

// TestLogAVX2Kernels keeps the AVX2 log and log1p (what CPUs without
// AVX-512 run; on this CPU the AVX-512 kernels replace them, so the tests
// through the tables no longer reach them) within 2 ulp of Go's math and
// within 1 ulp of the AVX-512 kernels (held to 0.52 ulp of the exact
// result by TestLogEdges), over log-uniform arguments, values near 1 and
// denormals, the plain kernel and the domain form each over all of them.
func TestLogAVX2Kernels(t *testing.T) {
	if !Asm || !cpu.X86.HasFMA {
		t.Skip("needs AVX2 and FMA")
	}
	rng := rand.New(rand.NewSource(67))
	var xs []float64
	for i := 0; i < 20000; i++ {
		xs = append(xs, math.Exp(rng.Float64()*1400-700), 1+(rng.Float64()-0.5)/4)
	}
	for i := 0; i < 2000; i++ { // after: the vector loop runs on the rest
		xs = append(xs, math.Float64frombits(rng.Uint64()&(1<<52-1)+1))
	}
	for _, c := range []struct {
		name  string
		k, ks vmKernel
		z     vmKernel
		goF   func(float64) float64
		arg   func(float64) float64
	}{{"log", logF64AVX2, logSF64AVX2, logF64Z, logF, func(x float64) float64 { return x }},
		{"log1p", log1pF64AVX2, log1pSF64AVX2, log1pF64Z, math.Log1p, func(x float64) float64 { return x - 1 }}} {
		in := make([]float64, len(xs))
		for i, x := range xs {
			in[i] = c.arg(x)
		}
		slow := UnaryFunc(func(d, x unsafe.Pointer, n int) {
			dst, src := unsafe.Slice((*float64)(d), n), unsafe.Slice((*float64)(x), n)
			for i, v := range src {
				dst[i] = c.goF(v)
			}
		})
		z := make([]float64, len(in))
		if hasVmath512 {
			c.z(unsafe.Pointer(&z[0]), unsafe.Pointer(&in[0]), len(in))
		}
		ulps := func(a, b float64) float64 { return math.Abs(a-b) / math.Abs(math.Nextafter(b, math.Inf(1))-b) }
		// the plain kernel (its stops: denormals, by the Go loop) and the
		// domain form, each over every argument
		for _, k := range []vmKernel{c.k, c.ks} {
			got := make([]float64, len(in))
			vmUnary(k, slow)(unsafe.Pointer(&got[0]), unsafe.Pointer(&in[0]), len(in))
			for i, x := range in {
				if u := ulps(got[i], c.goF(x)); u > 2 {
					t.Fatalf("%s(%v) = %v, Go's math %v: %.2f ulp", c.name, x, got[i], c.goF(x), u)
				}
				if hasVmath512 {
					if u := ulps(got[i], z[i]); u > 1 {
						t.Fatalf("%s(%v) = %v, the AVX-512 kernel %v: %.2f ulp", c.name, x, got[i], z[i], u)
					}
				}
			}
		}
	}
}
