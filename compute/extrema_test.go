package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// extremaCases returns float64 vectors of many lengths with NaN, infinities
// and signed zeros placed first, last, in the middle and everywhere.
func extremaCases(rng *rand.Rand) [][]float64 {
	var cases [][]float64
	lengths := []int{0, 1, 2, 7, 31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129, 255, 256, 1000, 1024, 4097}
	for _, n := range lengths {
		gen := func(f func(i int) float64) []float64 {
			x := make([]float64, n)
			for i := range x {
				x[i] = f(i)
			}
			return x
		}
		cases = append(cases,
			gen(func(int) float64 { return rng.NormFloat64() * 100 }),
			gen(func(int) float64 { return float64(rng.Intn(5) - 2) }), // ties
			gen(func(int) float64 { return -rng.Float64() }),
			gen(func(int) float64 { return rng.Float64() }),
			gen(func(int) float64 { return math.NaN() }),
			gen(func(i int) float64 { return []float64{0, math.Copysign(0, -1)}[rng.Intn(2)] }),
			gen(func(i int) float64 { return []float64{-1, 0, math.Copysign(0, -1)}[rng.Intn(3)] }),
			gen(func(i int) float64 { return []float64{1, 0, math.Copysign(0, -1)}[rng.Intn(3)] }),
			gen(func(i int) float64 { return []float64{math.Inf(1), math.Inf(-1), 5e-324, -5e-324}[rng.Intn(4)] }),
		)
		if n > 0 {
			for _, at := range []int{0, n - 1, n / 2, rng.Intn(n)} {
				x := make([]float64, n)
				for i := range x {
					x[i] = rng.NormFloat64()
				}
				x[at] = math.NaN()
				cases = append(cases, x)
				y := append([]float64(nil), x...)
				y[rng.Intn(n)] = math.NaN() // a second NaN, before or after
				cases = append(cases, y)
			}
		}
	}
	return cases
}

func sameFloat(a, b float64) bool {
	return a == b && math.Signbit(a) == math.Signbit(b) || a != a && b != b
}

func TestFoldExtrema(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	for ci, c := range extremaCases(rng) {
		for _, op := range []Op{Maximum, Minimum} {
			isMax := op == Maximum
			for _, init := range []float64{math.Inf(-1), math.Inf(1), 0, math.Copysign(0, -1), 0.5, math.NaN()} {
				if isMax && init == math.Inf(1) || !isMax && init == math.Inf(-1) {
					continue
				}
				want := init
				for _, v := range c {
					if isMax {
						want = max(want, v)
					} else {
						want = min(want, v)
					}
				}
				f64, _ := LookupFold(op, Float64)
				acc := init
				f64(unsafe.Pointer(&acc), unsafe.Pointer(unsafe.SliceData(c)), len(c))
				if !sameFloat(acc, want) {
					t.Fatalf("case %d (n=%d) %v float64 from %v: %v, want %v", ci, len(c), op, init, acc, want)
				}
				c32 := make([]float32, len(c))
				for i, v := range c {
					c32[i] = float32(v)
				}
				want32 := float32(init)
				for _, v := range c32 {
					if isMax {
						want32 = max(want32, v)
					} else {
						want32 = min(want32, v)
					}
				}
				f32, _ := LookupFold(op, Float32)
				acc32 := float32(init)
				f32(unsafe.Pointer(&acc32), unsafe.Pointer(unsafe.SliceData(c32)), len(c32))
				if !sameFloat(float64(acc32), float64(want32)) {
					t.Fatalf("case %d (n=%d) %v float32 from %v: %v, want %v", ci, len(c), op, init, acc32, want32)
				}
			}
		}
	}
}

// argRef is the sequential argmax/argmin: the first NaN, else the first
// strict improvement.
func argRef[T float](x []T, isMax bool) int {
	at := -1
	var best T
	for i, v := range x {
		if v != v {
			return i
		}
		if at < 0 || isMax && v > best || !isMax && v < best {
			best, at = v, i
		}
	}
	return at
}

func TestArgExtremeFloat(t *testing.T) {
	rng := rand.New(rand.NewSource(21))
	for ci, c := range extremaCases(rng) {
		for _, isMax := range []bool{true, false} {
			if got, want := ArgExtremeFloat64(unsafe.Pointer(unsafe.SliceData(c)), len(c), isMax), argRef(c, isMax); got != want {
				t.Fatalf("case %d (n=%d) float64 isMax=%v: %d, want %d", ci, len(c), isMax, got, want)
			}
			c32 := make([]float32, len(c))
			for i, v := range c {
				c32[i] = float32(v)
			}
			if got, want := ArgExtremeFloat32(unsafe.Pointer(unsafe.SliceData(c32)), len(c32), isMax), argRef(c32, isMax); got != want {
				t.Fatalf("case %d (n=%d) float32 isMax=%v: %d, want %d", ci, len(c), isMax, got, want)
			}
		}
	}
}

func TestBoolFolds(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	anyF, _ := LookupFold(Maximum, Bool)
	allF, _ := LookupFold(Minimum, Bool)
	for n := 0; n < 70; n++ {
		for trial := 0; trial < 20; trial++ {
			x := make([]uint8, n+3)
			p := rng.Intn(4)
			for i := range x {
				switch p {
				case 0:
					x[i] = 0
				case 1:
					x[i] = 1
				default:
					x[i] = uint8(rng.Intn(2))
				}
			}
			if n > 0 && trial%3 == 0 { // one odd element out
				x[rng.Intn(n)] ^= 1
			}
			off := rng.Intn(3) // unaligned starts
			v := x[off : off+n]
			var wantAny, wantAll uint8 = 0, 1
			for _, b := range v {
				wantAny, wantAll = max(wantAny, b), min(wantAll, b)
			}
			for _, init := range []uint8{0, 1} {
				a, l := init, init
				anyF(unsafe.Pointer(&a), unsafe.Pointer(unsafe.SliceData(v)), n)
				allF(unsafe.Pointer(&l), unsafe.Pointer(unsafe.SliceData(v)), n)
				if a != max(init, wantAny) || l != min(init, wantAll) {
					t.Fatalf("n=%d %v init %d: any %d all %d, want %d %d", n, v, init, a, l, max(init, wantAny), min(init, wantAll))
				}
			}
		}
	}
}

// TestAnyCompare checks the fused any(x op c) against a naive loop over
// random lengths (vector blocks, the 16 KiB steps, tails), constants and
// values with NaN, ±Inf, ±0 and denormals, with the one true element (or
// none) placed anywhere, for both float types and every comparison.
func TestAnyCompare(t *testing.T) {
	rng := rand.New(rand.NewSource(41))
	ops := []Op{Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual}
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, 1e-40, 1, -1, 100}
	naive := func(op Op, v, c float64) bool {
		switch op {
		case Greater:
			return v > c
		case GreaterEqual:
			return v >= c
		case Less:
			return v < c
		case LessEqual:
			return v <= c
		case Equal:
			return v == c
		}
		return v != c
	}
	for it := 0; it < 3000; it++ {
		typ := []Type{Float32, Float64}[it%2]
		op := ops[rng.Intn(len(ops))]
		n := rng.Intn(300)
		if it%10 == 0 {
			n = rng.Intn(20000)
		}
		c := specials[rng.Intn(len(specials))]
		if rng.Intn(2) == 0 {
			c = rng.NormFloat64()
		}
		v := make([]float64, n)
		fill := specials[rng.Intn(len(specials))] // mostly one value, so that the answer is often false
		for i := range v {
			v[i] = fill
			if rng.Intn(50) == 0 {
				v[i] = specials[rng.Intn(len(specials))]
			}
		}
		if n > 0 && rng.Intn(2) == 0 {
			v[rng.Intn(n)] = specials[rng.Intn(len(specials))]
		}
		var p unsafe.Pointer
		var cp unsafe.Pointer
		c32, c64 := float32(c), c
		f32 := make([]float32, n+1)
		f64 := make([]float64, n+1)
		if typ == Float32 {
			for i, x := range v {
				f32[i] = float32(x)
				v[i] = float64(f32[i])
			}
			c = float64(c32)
			p, cp = unsafe.Pointer(&f32[0]), unsafe.Pointer(&c32)
		} else {
			copy(f64, v)
			p, cp = unsafe.Pointer(&f64[0]), unsafe.Pointer(&c64)
		}
		want := false
		for _, x := range v {
			if naive(op, x, c) {
				want = true
				break
			}
		}
		got, ok := AnyCompare(op, typ, p, n, cp)
		if !ok || got != want {
			t.Fatalf("%v %v n=%d c=%v (fill %v): %v (ok %v), want %v", typ, op, n, c, fill, got, ok, want)
		}
	}
	var x float64
	if _, ok := AnyCompare(Add, Float64, unsafe.Pointer(&x), 1, unsafe.Pointer(&x)); ok {
		t.Fatal("AnyCompare(Add) is ok")
	}
	if _, ok := AnyCompare(Greater, Int32, unsafe.Pointer(&x), 1, unsafe.Pointer(&x)); ok {
		t.Fatal("AnyCompare of int32 is ok")
	}
}
