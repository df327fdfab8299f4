package compute

import (
	"math/rand"
	"testing"
	"unsafe"
)

// refFloorDivI32 is int32 floor division and remainder worked in int64 (no
// overflow), wrapped back: x // 0 = x % 0 = 0, MinInt32 // -1 = MinInt32.
func refFloorDivI32(x, y int32) (q, r int32) {
	if y == 0 {
		return 0, 0
	}
	a, b := int64(x), int64(y)
	Q := a / b
	if Q*b != a && (a < 0) != (b < 0) {
		Q--
	}
	return int32(Q), int32(a - Q*b)
}

// TestFloorDivVVInt32 checks int32 floor_divide and remainder of two
// vectors (the float64 division path where the build has it) against
// refFloorDivI32: every special dividend by every special divisor, random
// lengths (0, 1, below and across the vector of 8) at every element offset,
// in place, and the streaming forms at every dst offset from 32 bytes.
func TestFloorDivVVInt32(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	div, _ := LookupBinary(FloorDiv, Int32, VV)
	mod, _ := LookupBinary(Remainder, Int32, VV)
	divNT, okNT := LookupBinaryNT(FloorDiv, Int32, VV)
	modNT, _ := LookupBinaryNT(Remainder, Int32, VV)
	p := func(s []int32) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }
	check := func(what string, xs, ys, q, r []int32) {
		t.Helper()
		for i := range xs {
			if wq, wr := refFloorDivI32(xs[i], ys[i]); q[i] != wq || r[i] != wr {
				t.Fatalf("%s: %d // %d = %d, %% = %d; want %d, %d", what, xs[i], ys[i], q[i], r[i], wq, wr)
			}
		}
	}
	// every pair of special values
	dv := specialDividends[int32](rng, 32, 300)
	ds := specialDivisors[int32](rng, 32, 60)
	var xs, ys []int32
	for _, x := range dv {
		for _, y := range ds {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	// and small operands, as the harness's
	for i := 0; i < 5000; i++ {
		xs, ys = append(xs, int32(rng.Intn(2001)-1000)), append(ys, int32(rng.Intn(201)-100))
	}
	q, r := make([]int32, len(xs)), make([]int32, len(xs))
	div(p(q), p(xs), p(ys), len(xs))
	mod(p(r), p(xs), p(ys), len(xs))
	check("all pairs", xs, ys, q, r)
	// random lengths and offsets
	for it := 0; it < 2000; it++ {
		n := rng.Intn(40)
		if it < 4 {
			n = it // 0..3
		}
		o := rng.Intn(len(xs) - n)
		x, y := xs[o:o+n], ys[o+rng.Intn(3):][:n]
		oq := rng.Intn(8)
		q, r := make([]int32, n+8)[oq:][:n], make([]int32, n+8)[oq:][:n]
		div(p(q), p(x), p(y), n)
		mod(p(r), p(x), p(y), n)
		check("lengths", x, y, q, r)
	}
	// in place: dst is x
	x := append([]int32(nil), xs[:1003]...)
	r = append([]int32(nil), xs[:1003]...)
	div(p(x), p(x), p(ys), len(x))
	mod(p(r), p(r), p(ys), len(r))
	check("in place", xs[:1003], ys[:1003], x, r)
	if !okNT {
		return
	}
	buf := make([]int32, 2*len(xs)+32)
	al := (32 - int(uintptr(unsafe.Pointer(&buf[0]))&31)) % 32 / 4
	for off := 0; off < 8; off++ {
		n := len(xs) - off*7
		q, r := buf[al+off:][:n], buf[al+off+n+8:][:n]
		divNT(p(q), p(xs), p(ys), n)
		modNT(p(r), p(xs), p(ys), n)
		Fence()
		check("streaming", xs[:n], ys[:n], q, r)
	}
}

// refFloorDivI64 is int64 floor division and remainder as NumPy gives
// them: x // 0 = x % 0 = 0, MinInt64 // -1 = MinInt64 (wrapped), % 0.
func refFloorDivI64(x, y int64) (q, r int64) {
	if y == 0 {
		return 0, 0
	}
	q = x / y // Go wraps MinInt64 / -1 to MinInt64
	if q*y != x && (x < 0) != (y < 0) {
		q--
	}
	return q, x - q*y
}

// TestFloorDivVVInt64 checks int64 floor_divide and remainder of two
// vectors (the float64 path for operands below 2^52, where the CPU has
// it) against refFloorDivI64: every special dividend by every special
// divisor (powers of two and their neighbours up to 2^63, 2^52 +- 1, zero,
// MinInt64), dividends one below, at and one above a multiple of a large
// divisor near 2^52 (where the quotient is closest to an integer), the
// harness's small operands, random lengths and offsets, in place, and the
// streaming form at every dst offset.
func TestFloorDivVVInt64(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	div, _ := LookupBinary(FloorDiv, Int64, VV)
	mod, _ := LookupBinary(Remainder, Int64, VV)
	divNT, okNT := LookupBinaryNT(FloorDiv, Int64, VV)
	modNT, _ := LookupBinaryNT(Remainder, Int64, VV)
	p := func(s []int64) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(s)) }
	check := func(what string, xs, ys, q, r []int64) {
		t.Helper()
		for i := range xs {
			if wq, wr := refFloorDivI64(xs[i], ys[i]); q[i] != wq || r[i] != wr {
				t.Fatalf("%s: %d // %d = %d, %% = %d; want %d, %d", what, xs[i], ys[i], q[i], r[i], wq, wr)
			}
		}
	}
	dv := append(specialDividends[int64](rng, 64, 200), 1<<52, -(1 << 52), 1<<52+1, -(1<<52 - 1), 1<<52-1, 1<<53)
	ds := append(specialDivisors[int64](rng, 64, 40), 1<<52, -(1 << 52), 1<<52-1, -(1<<52 - 1))
	var xs, ys []int64
	for _, x := range dv {
		for _, y := range ds {
			xs, ys = append(xs, x), append(ys, y)
		}
	}
	for i := 0; i < 20000; i++ { // x = k y + d, d in {-1, 0, 1}, |x| near 2^52
		y := int64(1+rng.Intn(1<<20)) * int64(1-2*rng.Intn(2))
		k := (int64(1)<<52 - 2) / max(y, -y) * int64(1-2*rng.Intn(2)) / int64(1+rng.Intn(4))
		xs, ys = append(xs, k*y+int64(rng.Intn(3)-1)), append(ys, y)
	}
	for i := 0; i < 5000; i++ {
		xs, ys = append(xs, int64(rng.Intn(2001)-1000)), append(ys, int64(rng.Intn(201)-100))
	}
	q, r := make([]int64, len(xs)), make([]int64, len(xs))
	div(p(q), p(xs), p(ys), len(xs))
	mod(p(r), p(xs), p(ys), len(xs))
	check("all pairs", xs, ys, q, r)
	for it := 0; it < 2000; it++ {
		n := rng.Intn(40)
		o := rng.Intn(len(xs) - n)
		x, y := xs[o:o+n], ys[o+rng.Intn(3):][:n]
		oq := rng.Intn(8)
		q, r := make([]int64, n+8)[oq:][:n], make([]int64, n+8)[oq:][:n]
		div(p(q), p(x), p(y), n)
		mod(p(r), p(x), p(y), n)
		check("lengths", x, y, q, r)
	}
	x := append([]int64(nil), xs[:1003]...)
	r = append([]int64(nil), xs[:1003]...)
	div(p(x), p(x), p(ys), len(x))
	mod(p(r), p(r), p(ys), len(r))
	check("in place", xs[:1003], ys[:1003], x, r)
	if !okNT {
		return
	}
	buf := make([]int64, 2*len(xs)+32)
	al := (64 - int(uintptr(unsafe.Pointer(&buf[0]))&63)) % 64 / 8
	for off := 0; off < 8; off++ {
		n := len(xs) - off*7
		q, r := buf[al+off:][:n], buf[al+off+n+8:][:n]
		divNT(p(q), p(xs), p(ys), n)
		modNT(p(r), p(xs), p(ys), n)
		Fence()
		check("streaming", xs[:n], ys[:n], q, r)
	}
}
