package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

func checkDivVS[T signed](t *testing.T, tt Type, xs []T, cs []T) {
	t.Helper()
	div, _ := LookupBinary(FloorDiv, tt, VS)
	mod, _ := LookupBinary(Remainder, tt, VS)
	q := make([]T, len(xs))
	r := make([]T, len(xs))
	for _, c := range cs {
		div(unsafe.Pointer(unsafe.SliceData(q)), unsafe.Pointer(unsafe.SliceData(xs)), unsafe.Pointer(&c), len(xs))
		mod(unsafe.Pointer(unsafe.SliceData(r)), unsafe.Pointer(unsafe.SliceData(xs)), unsafe.Pointer(&c), len(xs))
		for i, x := range xs {
			if wq, wr := floorDivS(x, c), floorModS(x, c); q[i] != wq || r[i] != wr {
				t.Fatalf("%v: %d // %d = %d, %% = %d; want %d, %d", tt, x, c, q[i], r[i], wq, wr)
			}
		}
	}
	// the streaming forms, at every element offset of dst from 32 bytes
	divNT, ok1 := LookupBinaryNT(FloorDiv, tt, VS)
	modNT, ok2 := LookupBinaryNT(Remainder, tt, VS)
	if !ok1 || !ok2 {
		return
	}
	var z T
	buf := make([]T, len(xs)+64/int(unsafe.Sizeof(z)))
	al := (32 - int(uintptr(unsafe.Pointer(&buf[0]))&31)) % 32 / int(unsafe.Sizeof(z))
	for ci, c := range cs {
		off := al + ci%(32/int(unsafe.Sizeof(z)))
		for _, k := range []struct {
			f   BinaryFunc
			mod bool
		}{{divNT, false}, {modNT, true}} {
			d := buf[off : off+len(xs)]
			k.f(unsafe.Pointer(unsafe.SliceData(d)), unsafe.Pointer(unsafe.SliceData(xs)), unsafe.Pointer(&c), len(xs))
			Fence()
			for i, x := range xs {
				w := floorDivS(x, c)
				if k.mod {
					w = floorModS(x, c)
				}
				if d[i] != w {
					t.Fatalf("%v streaming (mod %v, dst offset %d): %d op %d = %d, want %d", tt, k.mod, off-al, x, c, d[i], w)
				}
			}
		}
	}
}

// specialDividends returns the int min/max neighbourhoods, small values and
// random ones for a width of w bits.
func specialDividends[T signed](rng *rand.Rand, w uint, n int) []T {
	lo, hi := int64(-1)<<(w-1), int64(1)<<(w-1)-1
	var xs []T
	for k := int64(0); k < 70; k++ {
		xs = append(xs, T(lo+k), T(hi-k), T(k-35))
	}
	for i := 0; i < n; i++ {
		xs = append(xs, T(rng.Uint64()>>(64-w)), T(int64(rng.Uint64())>>(64-w+uint(rng.Intn(int(w))))))
	}
	return xs
}

func specialDivisors[T signed](rng *rand.Rand, w uint, n int) []T {
	lo, hi := int64(-1)<<(w-1), int64(1)<<(w-1)-1
	cs := []T{0, 1, -1, 2, -2, 3, -3, 7, -7, 10, -10, T(lo), T(lo + 1), T(hi), T(hi - 1), T(hi / 2), T(hi/2 + 1), T(lo / 2)}
	for k := uint(1); k < w-1; k++ {
		cs = append(cs, T(int64(1)<<k), -T(int64(1)<<k), T(int64(1)<<k+1), T(int64(1)<<k-1), -T(int64(1)<<k-1))
	}
	for i := 0; i < n; i++ {
		cs = append(cs, T(int64(rng.Uint64())>>(64-w+uint(rng.Intn(int(w))))))
	}
	return cs
}

func TestIntDivByScalar(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	// int8: every dividend by every divisor
	var x8, c8 []int8
	for v := math.MinInt8; v <= math.MaxInt8; v++ {
		x8 = append(x8, int8(v))
		c8 = append(c8, int8(v))
	}
	checkDivVS(t, Int8, x8, c8)
	// int16: every dividend by special and random divisors
	var x16 []int16
	for v := math.MinInt16; v <= math.MaxInt16; v++ {
		x16 = append(x16, int16(v))
	}
	checkDivVS(t, Int16, x16, specialDivisors[int16](rng, 16, 30))
	checkDivVS(t, Int32, specialDividends[int32](rng, 32, 3000), specialDivisors[int32](rng, 32, 200))
	checkDivVS(t, Int64, specialDividends[int64](rng, 64, 3000), specialDivisors[int64](rng, 64, 200))
	// lengths 0 and 1, and in place
	// lengths around the vector loops' steps (16 and 8 lanes, then the tail)
	for _, n := range []int{0, 1, 5, 8, 9, 15, 16, 17, 24, 31, 40, 47} {
		x := specialDividends[int32](rng, 32, 0)[:n]
		checkDivVS(t, Int32, x, []int32{7, -7, 2, 3, 1 << 30, math.MaxInt32})
	}
	x := specialDividends[int64](rng, 64, 100)
	want := make([]int64, len(x))
	for i, v := range x {
		want[i] = floorDivS(v, 9)
	}
	div, _ := LookupBinary(FloorDiv, Int64, VS)
	c := int64(9)
	div(unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(unsafe.SliceData(x)), unsafe.Pointer(&c), len(x))
	for i := range x {
		if x[i] != want[i] {
			t.Fatalf("in place: %d, want %d", x[i], want[i])
		}
	}
}

// TestUdivProperty checks the magic constants over random magnitudes and
// divisors of each width against the hardware division.
func TestUdivProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	for i := 0; i < 20000; i++ {
		D := rng.Uint64()>>uint(rng.Intn(64)) | 2
		if i%5 == 0 {
			D = uint64(2 + rng.Intn(100))
		}
		d := newUdiv(D, 64)
		for j := 0; j < 20; j++ {
			u := rng.Uint64() >> uint(rng.Intn(64))
			if j == 0 {
				u = 1 << 63
			} else if j == 1 {
				u = D*uint64(rng.Intn(1000)) - 1
			}
			if got := d.q64(u); got != u/D {
				t.Fatalf("%d / %d = %d, want %d", u, D, got, u/D)
			}
		}
		D32 := D>>32 | 2
		if i%3 == 0 {
			D32 = 1 << 31
		}
		d32 := newUdiv(D32, 32)
		for j := 0; j < 20; j++ {
			u := uint64(rng.Uint32()) >> uint(rng.Intn(32))
			if j == 0 {
				u = 1 << 31
			}
			if got := d32.q32(u); got != u/D32 {
				t.Fatalf("%d / %d = %d (32), want %d", u, D32, got, u/D32)
			}
			if D31 := D32 &^ (1 << 31); D31 >= 2 && u < 1<<31 {
				d31 := newUdiv31(D31)
				if got := d31.q(u); got != u/D31 || d31.m >= 1<<32 {
					t.Fatalf("%d / %d = %d (31, m %d), want %d", u, D31, got, d31.m, u/D31)
				}
			}
		}
	}
}

// TestUdiv31Edges checks the one-multiply constants of the int32 kernels at
// the dividends where a rounded-up reciprocal fails first (just below each
// multiple of the divisor, up to 2^31 - 1) for every divisor up to 5000,
// every power of two and its neighbours, and random divisors below 2^31.
func TestUdiv31Edges(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	var ds []uint64
	for D := uint64(2); D <= 5000; D++ {
		ds = append(ds, D)
	}
	for k := uint(1); k < 31; k++ {
		ds = append(ds, 1<<k, 1<<k+1, 1<<k-1)
	}
	for i := 0; i < 2000; i++ {
		ds = append(ds, rng.Uint64()>>(33+uint(rng.Intn(30)))|2)
	}
	ds = append(ds, 1<<31-1, 1<<31-2, 1<<30+1)
	for _, D := range ds {
		if D < 2 || D >= 1<<31 {
			continue
		}
		d := newUdiv31(D)
		if d.m >= 1<<32 {
			t.Fatalf("D %d: m %d does not fit 32 bits", D, d.m)
		}
		top := (uint64(1<<31-1) / D) * D
		us := []uint64{0, 1, D - 1, D, D + 1, 1<<31 - 1, 1<<31 - 2, top, top - 1, top - D, top - D - 1}
		for j := 0; j < 40; j++ {
			k := rng.Uint64() % (uint64(1<<31-1)/D + 1)
			us = append(us, k*D, k*D-1, rng.Uint64()>>33)
		}
		for _, u := range us {
			if u >= 1<<31 {
				continue
			}
			if got := d.q(u); got != u/D {
				t.Fatalf("%d / %d = %d (one multiply), want %d", u, D, got, u/D)
			}
		}
	}
}

// TestIntDiv64SmallMagnitudes covers the int64 kernel's one-multiply path:
// runs of dividends whose magnitudes are below 2^31 (whole vectors take
// it), vectors mixing them with the boundary values ±2^31, -2^31-1 and
// large ones (the vector falls back), by divisors below and above 2^31.
func TestIntDiv64SmallMagnitudes(t *testing.T) {
	rng := rand.New(rand.NewSource(64))
	edges := []int64{1<<31 - 1, -(1 << 31), 1 << 31, -(1 << 31) - 1, -(1<<31 - 1), 0, -1, 1, math.MinInt64, math.MaxInt64}
	var xs []int64
	for i := 0; i < 4000; i++ {
		switch {
		case i%97 == 0:
			xs = append(xs, edges[rng.Intn(len(edges))])
		case i%2 == 0:
			xs = append(xs, int64(rng.Intn(2001))-1000)
		default:
			xs = append(xs, int64(rng.Uint32())-1<<31+int64(rng.Intn(2)))
		}
	}
	cs := []int64{2, 3, 7, 10, 1000, 1<<31 - 1, 1 << 31, 1<<31 + 1, 1 << 40, -7, 1<<30 + 3}
	for i := 0; i < 30; i++ {
		cs = append(cs, int64(rng.Uint32()>>uint(rng.Intn(31)))|2)
	}
	checkDivVS(t, Int64, xs, cs)
}

// TestUnsignedSmallDivByScalar checks uint8 floor division and remainder
// by every divisor over every dividend, and uint16 over every dividend by
// special and random divisors, against Go's / and % (unsigned floor
// division is truncation), at several lengths and offsets so that the
// widened blocks and the tail both run.
func TestUnsignedSmallDivByScalar(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	x8 := make([]uint8, 0, 300)
	for i := 0; i < 300; i++ {
		x8 = append(x8, uint8(i))
	}
	var c8 []uint8
	for c := 0; c < 256; c++ {
		c8 = append(c8, uint8(c))
	}
	checkDivVSU(t, Uint8, x8, c8)
	x16 := make([]uint16, 0, 1<<16+37)
	for v := 0; v < 1<<16+37; v++ {
		x16 = append(x16, uint16(v))
	}
	c16 := []uint16{0, 1, 2, 3, 7, 255, 256, 1000, 32767, 32768, 65535}
	for i := 0; i < 20; i++ {
		c16 = append(c16, uint16(rng.Intn(1<<16)))
	}
	checkDivVSU(t, Uint16, x16, c16)
	for _, n := range []int{0, 1, 31, 32, 33, 63, 255, 256, 257, 600} {
		off := rng.Intn(5)
		checkDivVSU(t, Uint8, x8[off:off+min(n, len(x8)-off)], []uint8{7, 200})
	}
}

func checkDivVSU[T uint8 | uint16](t *testing.T, tt Type, xs []T, cs []T) {
	t.Helper()
	div, _ := LookupBinary(FloorDiv, tt, VS)
	mod, _ := LookupBinary(Remainder, tt, VS)
	q := make([]T, len(xs)+1)
	r := make([]T, len(xs)+1)
	for _, c := range cs {
		if len(xs) == 0 {
			continue
		}
		div(unsafe.Pointer(unsafe.SliceData(q)), unsafe.Pointer(unsafe.SliceData(xs)), unsafe.Pointer(&c), len(xs))
		mod(unsafe.Pointer(unsafe.SliceData(r)), unsafe.Pointer(unsafe.SliceData(xs)), unsafe.Pointer(&c), len(xs))
		for i, x := range xs {
			var wq, wr T // NumPy: division by zero gives 0 for integers
			if c != 0 {
				wq, wr = x/c, x%c
			}
			if q[i] != wq || r[i] != wr {
				t.Fatalf("%v: %d // %d = %d, %% = %d; want %d, %d", tt, x, c, q[i], r[i], wq, wr)
			}
		}
	}
}
