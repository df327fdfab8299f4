package compute

import (
	"math"
	"math/rand/v2"
	"testing"
)

// naiveMask is CompareMask's reference: one comparison per value, by op's
// name.
func naiveMask[T MaskNumber](x []T, op MaskOp, lit T) ([]uint64, int) {
	m := make([]uint64, (len(x)+63)/64)
	n := 0
	for i, y := range x {
		var b bool
		switch op {
		case MaskEq:
			b = y == lit
		case MaskNe:
			b = y != lit
		case MaskLt:
			b = y < lit
		case MaskLe:
			b = y <= lit
		case MaskGt:
			b = y > lit
		case MaskGe:
			b = y >= lit
		}
		if b {
			m[i/64] |= 1 << (i % 64)
			n++
		}
	}
	return m, n
}

// checkMask runs CompareMask over x at every start offset 0..3 (so the
// kernels read unaligned memory) and compares with naiveMask, also that
// the word past the mask is not written.
func checkMask[T MaskNumber](t *testing.T, name string, x []T, lit T) {
	t.Helper()
	for off := 0; off < 4 && off <= len(x); off++ {
		xs := x[off:]
		for op := MaskEq; op <= MaskGe; op++ {
			want, wn := naiveMask(xs, op, lit)
			got := make([]uint64, len(want)+1)
			for i := range got {
				got[i] = 0xdeadbeef
			}
			n := CompareMask(got, xs, op, lit)
			if n != wn {
				t.Fatalf("%s op %d lit %v len %d: count %d, want %d", name, op, lit, len(xs), n, wn)
			}
			for w := range want {
				if got[w] != want[w] {
					t.Fatalf("%s op %d lit %v len %d: word %d = %#x, want %#x", name, op, lit, len(xs), w, got[w], want[w])
				}
			}
			if got[len(want)] != 0xdeadbeef {
				t.Fatalf("%s op %d len %d: wrote past the mask", name, op, len(xs))
			}
		}
	}
}

// TestCompareMask checks every operator of every element type against a
// loop of comparisons: lengths 0..200 and a few large ones (every tail,
// whole words, unaligned starts), floats with NaN, ±Inf, ±0 and denormals
// among the values and as the literal, integers at their extremes.
func TestCompareMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 27))
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -5e-324, 1e-310, 50, 49.999999, math.MaxFloat64}
	lens := []int{}
	for n := 0; n <= 200; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 1000, 4099, 1<<14+63)
	for _, n := range lens {
		f64 := make([]float64, n)
		f32 := make([]float32, n)
		for i := range f64 {
			if rng.IntN(8) == 0 {
				f64[i] = specials[rng.IntN(len(specials))]
			} else {
				f64[i] = math.Round(rng.Float64()*100*8) / 8
			}
			f32[i] = float32(f64[i])
		}
		for _, lit := range []float64{50, 0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 5e-324} {
			checkMask(t, "float64", f64, lit)
			checkMask(t, "float32", f32, float32(lit))
		}
		i64 := make([]int64, n)
		i32 := make([]int32, n)
		u8 := make([]uint8, n)
		for i := range i64 {
			i64[i] = rng.Int64N(7) - 3
			if rng.IntN(10) == 0 {
				i64[i] = [...]int64{math.MinInt64, math.MaxInt64}[rng.IntN(2)]
			}
			i32[i] = int32(rng.IntN(7) - 3)
			u8[i] = uint8(rng.IntN(256))
		}
		checkMask(t, "int64", i64, 0)
		checkMask(t, "int64", i64, math.MinInt64)
		checkMask(t, "int32", i32, 1)
		checkMask(t, "uint8", u8, 128)
	}
}

// TestCompareMaskGoAgrees checks the kernels (the AVX2 ones where the
// build has them) against the Go loop on whole words.
func TestCompareMaskGoAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 64*37)
	for i := range x {
		x[i] = rng.NormFloat64()
		if rng.IntN(20) == 0 {
			x[i] = math.NaN()
		}
	}
	y := make([]float32, len(x))
	for i := range x {
		y[i] = float32(x[i])
	}
	for op := MaskEq; op <= MaskGe; op++ {
		a, b := make([]uint64, 37), make([]uint64, 37)
		if cmpMaskF64(a, x, op, 0.25) != compareMaskGo(b, x, op, 0.25) {
			t.Fatalf("float64 op %d: counts differ", op)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("float64 op %d word %d: %#x, Go %#x", op, i, a[i], b[i])
			}
		}
		if cmpMaskF32(a, y, op, 0.25) != compareMaskGo(b, y, op, 0.25) {
			t.Fatalf("float32 op %d: counts differ", op)
		}
		for i := range a {
			if a[i] != b[i] {
				t.Fatalf("float32 op %d word %d: %#x, Go %#x", op, i, a[i], b[i])
			}
		}
	}
}

func TestMaskOpOf(t *testing.T) {
	for i, s := range []string{"==", "!=", "<", "<=", ">", ">="} {
		if op, ok := MaskOpOf(s); !ok || op != MaskOp(i) {
			t.Fatalf("MaskOpOf(%q) = %d, %v", s, op, ok)
		}
	}
	if _, ok := MaskOpOf("=~"); ok {
		t.Fatal("MaskOpOf accepted =~")
	}
}

// BenchmarkCompareMask: v > 50 over 64 Ki float64 values in [0, 100).
func BenchmarkCompareMask(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1<<16)
	for i := range x {
		x[i] = rng.Float64() * 100
	}
	m := make([]uint64, len(x)/64)
	b.SetBytes(int64(len(x) * 8))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		CompareMask(m, x, MaskGt, 50)
	}
}
