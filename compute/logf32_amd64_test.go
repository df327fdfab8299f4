//go:build amd64 && !noasm

package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// TestLogF32Domain: float32 log on data with values outside its domain
// (zeros of both signs, negatives, NaNs with payloads and signs, both
// infinities, denormals), in runs and alone: every element outside the
// domain is the Go loop's bits (float32(math.Log(float64(x)))), every
// one inside it the kernel's, whatever its neighbours or position (the
// plain and the domain form give the same bits there); the domain form
// alone does every vector without a positive denormal.
func TestLogF32Domain(t *testing.T) {
	if !Asm || !cpu.X86.HasFMA {
		t.Skip("needs AVX2 and FMA")
	}
	rng := rand.New(rand.NewSource(66))
	f32 := math.Float32frombits
	sp := []float32{0, f32(0x80000000), -1, -1e-30, f32(0x80000001), float32(math.Inf(1)), float32(math.Inf(-1)),
		f32(0x7fc0abcd), f32(0xffc0abcd), f32(0x7f80abcd), f32(0x00000001), f32(0x007fffff)}
	goLog := func(x float32) float32 { return float32(logF(float64(x))) }
	kernel := func(x float32) float32 { // x alone, in a vector of its copies
		var in, out [8]float32
		for i := range in {
			in[i] = x
		}
		if logSF32AVX2(unsafe.Pointer(&out[0]), unsafe.Pointer(&in[0]), 8) != 8 {
			t.Fatalf("the kernel left a vector of %v", x)
		}
		return out[0]
	}
	run := unTable[Log][Float32]
	for trial := 0; trial < 80; trial++ {
		n := 1 + rng.Intn(500)
		xs := make([]float32, n)
		density := []int{0, 2, 30, 90}[trial%4]
		for i := range xs {
			xs[i] = float32(rng.Float64()*50 + 1e-3)
			if rng.Intn(100) < density {
				xs[i] = sp[rng.Intn(len(sp))]
			}
		}
		got := make([]float32, n)
		run(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n)
		if m := n &^ 7; m > 0 && density == 0 { // the plain form's bits are the domain form's
			plain := make([]float32, m)
			if logF32AVX2(unsafe.Pointer(&plain[0]), unsafe.Pointer(&xs[0]), m) != m {
				t.Fatal("the plain form left in-range arguments")
			}
			for i := range plain {
				if math.Float32bits(plain[i]) != math.Float32bits(got[i]) {
					t.Fatalf("element %d: plain form %v, domain form %v", i, plain[i], got[i])
				}
			}
		}
		denormal := func(x float32) bool { return x > 0 && x < 0x1p-126 }
		for i, x := range xs {
			want := goLog(x)
			if x >= 0x1p-126 && x <= math.MaxFloat32 {
				want = kernel(x)
			}
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Fatalf("element %d of %d, x %v (%#x): %v (%#x), want %v (%#x)", i, n, x, math.Float32bits(x),
					got[i], math.Float32bits(got[i]), want, math.Float32bits(want))
			}
		}
		m, stop := n&^7, n&^7
		for i := 0; i < m; i++ {
			if denormal(xs[i]) {
				stop = i &^ 7
				break
			}
		}
		if m > 0 {
			if done := logSF32AVX2(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), m); done < stop {
				t.Fatalf("the kernel stopped at %d of %d (first denormal in vector %d)", done, m, stop)
			}
		}
	}
}

// TestAsmMathStreamingStops: the streaming float32 tan (asmMathF32 over a
// kernel with non-temporal stores) on data it stops at (NaN, huge
// arguments), at every offset of dst from a 64-byte boundary: the same
// bits as the plain form, and no fault from the element-alone path.
func TestAsmMathStreamingStops(t *testing.T) {
	nt, ok := LookupUnaryNT(Tan, Float32)
	if !ok {
		t.Skip("no streaming tan")
	}
	plain := unTable[Tan][Float32]
	rng := rand.New(rand.NewSource(67))
	const m = 400
	buf := make([]float32, m+32)
	al := buf[(16-int(uintptr(unsafe.Pointer(&buf[0]))&63)/4)%16:]
	for trial := 0; trial < 64; trial++ {
		n, off := 1+rng.Intn(m-1), trial%16
		xs := make([]float32, n)
		for i := range xs {
			xs[i] = float32(rng.Float64()*20 - 10)
			if rng.Intn(10) == 0 {
				xs[i] = []float32{float32(math.NaN()), 1e30, -3e38, float32(math.Inf(1))}[rng.Intn(4)]
			}
		}
		want := make([]float32, n)
		plain(unsafe.Pointer(&want[0]), unsafe.Pointer(&xs[0]), n)
		got := al[off:][:n]
		nt(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n)
		Fence()
		for i := range want {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) {
				t.Fatalf("n %d off %d: element %d (x %v) = %v streamed, %v plain", n, off, i, xs[i], got[i], want[i])
			}
		}
	}
}
