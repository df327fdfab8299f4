package compute

import (
	"bytes"
	"math/rand"
	"testing"
	"unsafe"
)

func refAcc[T number](op Op) AccumulateFunc {
	return func(acc, x unsafe.Pointer, n int) {
		a, xs := unsafe.Slice((*T)(acc), n), unsafe.Slice((*T)(x), n)
		for i := range a {
			switch op {
			case Add:
				a[i] += xs[i]
			case Mul:
				a[i] *= xs[i]
			case Maximum:
				a[i] = max(a[i], xs[i])
			case Minimum:
				a[i] = min(a[i], xs[i])
			}
		}
	}
}

// TestAccVecKernels checks the integer and bool steps of reductions over
// outer axes (acc op= x), int64 folds and bool not against plain loops,
// every length up to 300 from unaligned starts.
func TestAccVecKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(32))
	type key struct {
		op Op
		t  Type
	}
	ref := map[key]AccumulateFunc{
		{Maximum, Bool}: refAcc[uint8](Maximum), {Minimum, Bool}: refAcc[uint8](Minimum),
		{Maximum, Uint8}: refAcc[uint8](Maximum), {Minimum, Uint8}: refAcc[uint8](Minimum),
		{Maximum, Int8}: refAcc[int8](Maximum), {Minimum, Int8}: refAcc[int8](Minimum),
		{Maximum, Uint16}: refAcc[uint16](Maximum), {Minimum, Uint16}: refAcc[uint16](Minimum),
		{Maximum, Int16}: refAcc[int16](Maximum), {Minimum, Int16}: refAcc[int16](Minimum),
		{Maximum, Uint32}: refAcc[uint32](Maximum), {Minimum, Uint32}: refAcc[uint32](Minimum),
		{Maximum, Int32}: refAcc[int32](Maximum), {Minimum, Int32}: refAcc[int32](Minimum),
		{Add, Int64}: refAcc[int64](Add), {Add, Uint64}: refAcc[uint64](Add),
		{Add, Int32}: refAcc[int32](Add), {Add, Uint32}: refAcc[uint32](Add),
		{Maximum, Int64}: refAcc[int64](Maximum), {Minimum, Int64}: refAcc[int64](Minimum),
		{Maximum, Uint64}: refAcc[uint64](Maximum), {Minimum, Uint64}: refAcc[uint64](Minimum),
		{Mul, Int64}: refAcc[int64](Mul), {Mul, Uint64}: refAcc[uint64](Mul),
	}
	acc0, src := make([]byte, 4096), make([]byte, 4096)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		for k, want := range ref {
			specialBits(rng, src, k.t)
			specialBits(rng, acc0, k.t)
			if k.op == Mul {
				oddWords(src)
				oddWords(acc0)
			}
			got, err := LookupAccumulate(k.op, k.t)
			if err != nil {
				t.Fatal(err)
			}
			sz := k.t.Size()
			a := append([]byte(nil), acc0...)
			b := append([]byte(nil), acc0...)
			got(unsafe.Pointer(&a[off*sz]), unsafe.Pointer(&src[off*sz]), n)
			want(unsafe.Pointer(&b[off*sz]), unsafe.Pointer(&src[off*sz]), n)
			if !bytes.Equal(a, b) {
				t.Fatalf("accumulate %v %v n=%d differs", k.op, k.t, n)
			}
		}
		rng.Read(src)
		for _, tt := range []Type{Int64, Uint64} {
			fold, _ := LookupFold(Add, tt)
			var got, want uint64 = 7, 7
			fold(unsafe.Pointer(&got), unsafe.Pointer(&src[off*8]), n)
			for _, v := range unsafe.Slice((*uint64)(unsafe.Pointer(&src[off*8])), n) {
				want += v
			}
			if got != want {
				t.Fatalf("fold add %v n=%d: %d, want %d", tt, n, got, want)
			}
		}
		specialBits(rng, src, Bool)
		not, _ := LookupUnary(LogicalNot, Bool)
		d := make([]byte, n+1)
		not(unsafe.Pointer(&d[0]), unsafe.Pointer(&src[off]), n)
		for i := 0; i < n; i++ {
			if d[i] != src[off+i]^1 {
				t.Fatalf("not n=%d: element %d is %d for %d", n, i, d[i], src[off+i])
			}
		}
	}
}

// TestFoldIntExtrema checks the integer max and min folds and the 64-bit
// product folds (whole blocks in vectors, foldint_amd64.s) against plain
// loops: every length up to 700, unaligned starts, random starting
// accumulators, each extreme placed anywhere, odd factors for products.
func TestFoldIntExtrema(t *testing.T) {
	rng := rand.New(rand.NewSource(33))
	src := make([]byte, 8192)
	check := func(tt Type, n, off int, got, want func(acc, x unsafe.Pointer, n int)) {
		sz := tt.Size()
		a, b := make([]byte, 8), make([]byte, 8)
		rng.Read(a[:sz])
		copy(b, a)
		got(unsafe.Pointer(&a[0]), unsafe.Pointer(&src[off*sz]), n)
		want(unsafe.Pointer(&b[0]), unsafe.Pointer(&src[off*sz]), n)
		if !bytes.Equal(a, b) {
			t.Fatalf("fold %v n=%d off=%d: % x, want % x", tt, n, off, a[:sz], b[:sz])
		}
	}
	// the plain loops: max, min and (64-bit) product
	ref := map[Type][3]FoldFunc{
		Int8: {foldMax[int8], foldMin[int8]}, Uint8: {foldMax[uint8], foldMin[uint8]},
		Int16: {foldMax[int16], foldMin[int16]}, Uint16: {foldMax[uint16], foldMin[uint16]},
		Int32: {foldMax[int32], foldMin[int32]}, Uint32: {foldMax[uint32], foldMin[uint32]},
		Int64:  {foldMax[int64], foldMin[int64], foldProd[int64]},
		Uint64: {foldMax[uint64], foldMin[uint64], foldProd[uint64]},
	}
	for n := 0; n <= 700; n++ {
		off := rng.Intn(8)
		for _, tt := range []Type{Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64} {
			specialBits(rng, src, tt)
			for i, op := range []Op{Maximum, Minimum, Mul} {
				want := ref[tt][i]
				if want == nil {
					continue
				}
				if op == Mul {
					oddWords(src)
				}
				got, _ := LookupFold(op, tt)
				check(tt, n, off, got, want)
			}
		}
	}
}

// TestArgExtremeInt checks ArgExtremeInt against a plain loop for every
// integer type and bool: every length up to 300, unaligned starts, few
// distinct values (ties) or random bits, the extreme anywhere.
func TestArgExtremeInt(t *testing.T) {
	rng := rand.New(rand.NewSource(35))
	src := make([]byte, 4096)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		for _, tt := range []Type{Bool, Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
			sz := tt.Size()
			rng.Read(src)
			if tt == Bool || rng.Intn(2) == 0 {
				for i := range src { // few distinct values: ties
					src[i] = byte(rng.Intn(2))
					if tt != Bool && rng.Intn(50) == 0 {
						src[i] = 0x80
					}
				}
			}
			for _, isMax := range []bool{false, true} {
				got := ArgExtremeInt(tt, unsafe.Pointer(&src[off*sz]), n, isMax)
				if want := argExtremeRef(src[off*sz:], n, tt, isMax); got != want {
					t.Fatalf("%v isMax=%v n=%d: %d, want %d", tt, isMax, n, got, want)
				}
			}
		}
	}
}

// argExtremeRef is the index of the first maximum (isMax) or minimum of
// the n values of type t in x, by a plain loop (-1 when n is 0).
func argExtremeRef(x []byte, n int, t Type, isMax bool) int {
	sz := t.Size()
	want := -1
	for i := 0; i < n; i++ {
		if want < 0 {
			want = i
			continue
		}
		v, b := intAt(x[i*sz:], t), intAt(x[want*sz:], t)
		c := cmpRef(Greater, v, b, t)
		if !isMax {
			c = cmpRef(Less, v, b, t)
		}
		if c == 1 {
			want = i
		}
	}
	return want
}

// oddWords sets the low bit of every 8-byte word of b: a product of odd
// numbers is never 0 modulo 2^64, so a wrong factor shows.
func oddWords(b []byte) {
	for i := 0; i+8 <= len(b); i += 8 {
		b[i] |= 1
	}
}

// TestFirstSearches checks the searches behind bool any/all/argmax and the
// integer argmax (firstNonzero, firstEq of every size) and the bool folds
// against plain loops: lengths up to 700 bytes and a few longer ones,
// unaligned starts, one or two hits anywhere (every position for short
// lengths, through the blocks of 128 bytes and the last vectors), and
// bytes other than 0 and 1 counting as true.
func TestFirstSearches(t *testing.T) {
	rng := rand.New(rand.NewSource(37))
	src := make([]byte, 20000)
	lengths := []int{}
	for n := 0; n <= 700; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 4096, 4096+31, 8192+97, 19000)
	for _, nb := range lengths {
		off := rng.Intn(8)
		positions := []int{-1}
		for p := 0; p < nb; p++ {
			if nb <= 300 || rng.Intn(nb/50) == 0 {
				positions = append(positions, p)
			}
		}
		for _, p := range positions {
			clear(src)
			x := src[off : off+nb]
			if p >= 0 {
				x[p] = []byte{1, 0x80, 0xff, 2}[rng.Intn(4)]
				if q := p + 1 + rng.Intn(200); q < nb {
					x[q] = 1
				}
			}
			want := -1
			for i, b := range x {
				if b != 0 {
					want = i
					break
				}
			}
			var xp unsafe.Pointer
			if nb > 0 {
				xp = unsafe.Pointer(&x[0])
			} else {
				xp = unsafe.Pointer(&src[0])
			}
			if got := firstNonzero(xp, nb); got != want {
				t.Fatalf("firstNonzero n=%d off=%d hit %d: %d, want %d", nb, off, p, got, want)
			}
			var any, all uint8 = 0, 1
			foldAnyBool(unsafe.Pointer(&any), xp, nb)
			if wantAny := b2u8(want >= 0); any != wantAny {
				t.Fatalf("foldAnyBool n=%d hit %d: %d, want %d", nb, p, any, wantAny)
			}
			// all over the complement: 1 everywhere but the hits, which are 0
			for i := range x {
				x[i] = b2u8(x[i] == 0)
			}
			foldAllBool(unsafe.Pointer(&all), xp, nb)
			if wantAll := b2u8(want < 0); all != wantAll {
				t.Fatalf("foldAllBool n=%d hit %d: %d, want %d", nb, p, all, wantAll)
			}
			// firstEq of every size: the first element equal to v in a
			// background of other values
			for _, sz := range []int{1, 2, 4, 8} {
				n := nb / sz
				var v [8]byte
				rng.Read(v[:sz])
				for i := 0; i < n*sz; i++ {
					x[i] = v[i%sz] ^ 0x10
				}
				wantEq := -1
				if p >= 0 && p/sz < n {
					copy(x[p/sz*sz:], v[:sz])
					wantEq = p / sz
				}
				if got := firstEq[sz](xp, n, unsafe.Pointer(&v[0])); got != wantEq {
					t.Fatalf("firstEq[%d] n=%d off=%d hit %d: %d, want %d", sz, n, off, p/sz, got, wantEq)
				}
			}
		}
	}
}

// TestArgExtremeIntLong checks ArgExtremeInt over long inputs (expr hands
// it up to 65536 values) against a plain loop: ties far apart (the first
// wins), the type's own extremes placed anywhere, larger values at
// multiples of 16 KiB, unaligned starts.
func TestArgExtremeIntLong(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	for _, tt := range []Type{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64} {
		sz := tt.Size()
		chunk := 16384 / sz
		src := make([]byte, (3*chunk+100)*sz+8)
		for iter := 0; iter < 60; iter++ {
			off := rng.Intn(8)
			n := 1 + rng.Intn(3*chunk+90)
			x := src[off : off+n*sz]
			for i := range x { // small values of either sign: many ties
				x[i] = 0
			}
			for i := 0; i < n; i++ {
				x[i*sz] = byte(rng.Intn(8))
				if tt == Int8 || tt == Int16 || tt == Int32 || tt == Int64 {
					if rng.Intn(2) == 0 { // negative: all high bytes 0xff
						for j := 0; j < sz; j++ {
							x[i*sz+j] = 0xff
						}
						x[i*sz] = byte(0xf8 + rng.Intn(8))
					}
				}
			}
			for k := rng.Intn(4); k > 0; k-- { // a few larger or the type's extremes
				i := rng.Intn(n)
				switch rng.Intn(3) {
				case 0:
					e := typeExtreme(tt, rng.Intn(2) == 0)
					copy(x[i*sz:], e[:sz])
				case 1:
					x[i*sz] = 0x20
				default:
					i = rng.Intn(4) * chunk // a chunk's first element
					if i < n {
						x[i*sz] = 0x10
					}
				}
			}
			for _, isMax := range []bool{false, true} {
				got := ArgExtremeInt(tt, unsafe.Pointer(&x[0]), n, isMax)
				if want := argExtremeRef(x, n, tt, isMax); got != want {
					t.Fatalf("%v isMax=%v n=%d off=%d: %d, want %d", tt, isMax, n, off, got, want)
				}
			}
		}
	}
}

// typeExtreme is the bytes of integer type t's largest value (isMax) or
// smallest, little-endian.
func typeExtreme(t Type, isMax bool) (b [8]byte) {
	sz := t.Size()
	signed := t == Int8 || t == Int16 || t == Int32 || t == Int64
	for i := 0; i < sz; i++ {
		if isMax {
			b[i] = 0xff
		}
	}
	if signed { // flip the sign bit
		b[sz-1] ^= 0x80
	}
	return b
}
