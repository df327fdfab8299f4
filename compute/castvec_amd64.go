//go:build amd64 && !noasm

package compute

import (
	"unsafe"

	"github.com/stride0/stride0/internal/half"
)

// The vector casts and the integer and bool reduction steps of
// castvec_amd64.s, each standing in for a Go loop of the tables for the
// whole blocks of a call (the loop takes the rest).

//go:noescape
func castF32F64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI32F64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castF64F32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castF16F32F16C(d, s unsafe.Pointer, n int)

//go:noescape
func castF32F16F16C(d, s unsafe.Pointer, n int)

//go:noescape
func castF16F64F16C(d, s unsafe.Pointer, n int) (nan bool)

//go:noescape
func accMulF64F32AVX2(acc, x unsafe.Pointer, n int)

// castF16F64 converts float16 to float64 by F16C, then converts again in
// Go the NaNs of a call that had any: F16C quiets a signalling NaN, which
// the Go loop (as NumPy's npy_half_to_double) keeps. n is a multiple of 16.
func castF16F64(d, s unsafe.Pointer, n int) {
	if castF16F64F16C(d, s, n) {
		dd, ss := unsafe.Slice((*float64)(d), n), unsafe.Slice((*uint16)(s), n)
		for i, h := range ss {
			if h&0x7fff > 0x7c00 {
				dd[i] = half.ToFloat64(h)
			}
		}
	}
}

// castFloatNarrow converts float32 (f64: float64) to 8- or 16-bit integers
// (ds bytes) as Go's conversion compiles on amd64: to int32 by truncation
// (CVTTSS2SL, CVTTSD2SL: 0x80000000 for NaN and out of range), then the
// low bits; blocks of 256 through the stack, the vector truncation
// (castF32I32AVX2, castF64I32AVX2) then the narrowing (castN32to8AVX2,
// castN32to16AVX2). n is a multiple of 32.
func castFloatNarrow(d, s unsafe.Pointer, n int, f64 bool, ds int) {
	var buf [256]int32
	b := unsafe.Pointer(&buf[0])
	ss := 4
	if f64 {
		ss = 8
	}
	for n > 0 {
		k := min(n, len(buf))
		if f64 {
			castF64I32AVX2(b, s, k)
		} else {
			castF32I32AVX2(b, s, k)
		}
		if ds == 1 {
			castN32to8AVX2(d, b, k)
		} else {
			castN32to16AVX2(d, b, k)
		}
		d, s, n = unsafe.Add(d, k*ds), unsafe.Add(s, k*ss), n-k
	}
}

// castF16ViaF32 converts float16 to an integer type in blocks on the stack:
// to float32 by F16C (exact: every float16 is a float32), then from float32
// by the Go conversion, which gives what the Go loop's conversion from
// float64 gives for the same value (TestCastFloat16Sweep checks all 65536
// for every target).
func castF16ViaF32[D number](d []D, s []uint16) {
	var buf [512]float32
	for len(s) > 0 {
		m := min(len(s), len(buf))
		b := buf[:m]
		k := m &^ 31
		if k > 0 {
			castF16F32F16C(unsafe.Pointer(&b[0]), unsafe.Pointer(&s[0]), k)
		}
		castFromF16(b[k:], s[k:m])
		castNum(d[:m], b)
		d, s = d[m:], s[m:]
	}
}

//go:noescape
func castU8I64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI8I64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU16I64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI16I64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU8I32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI8I32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castF32BoolAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castF64BoolAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI32F32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI8F32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU8F32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI16F32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU16F32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI8BoolAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI16BoolAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI32BoolAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI64BoolAVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI8F64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU8F64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castI16F64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castU16F64AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castN16to8AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castN32to16AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castN32to8AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castN64to32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castF32I32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func castF64I32AVX2(d, s unsafe.Pointer, n int)

//go:noescape
func accMaxU8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinU8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxI8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinI8AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxU16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinU16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxI16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinI16AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxU32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinU32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMaxI32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accMinI32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accAddI64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func accAddI32AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func foldAddI64AVX2(acc, x unsafe.Pointer, n int)

//go:noescape
func notBoolAVX2(d, x unsafe.Pointer, n int)

func hasF16C() bool

// permIdx puts the dwords of a twice-packed vector back in order (see
// castN32to8AVX2).
var permIdx = [8]uint32{0, 4, 1, 5, 2, 6, 3, 7}

// boolBytes[m] is the eight bools (bytes of 0 or 1) whose bit i of m is
// byte i: the kernels casting to bool turn a lane mask into bytes with it.
var boolBytes = func() (t [256]uint64) {
	for m := range t {
		for i := 0; i < 8; i++ {
			t[m] |= uint64(m>>i&1) << (8 * i)
		}
	}
	return t
}()

// registerCastVec installs the vector casts over the Go ones (F16C's for
// float16 where the CPU has it) and the vector steps of integer and bool
// reductions over outer axes and of int64 sums.
func registerCastVec() {
	if !Asm {
		return
	}
	type cast struct {
		from, to Type
		k        func(d, s unsafe.Pointer, n int)
		block    int
	}
	casts := []cast{
		{Float32, Float64, castF32F64AVX2, 16}, {Int32, Float64, castI32F64AVX2, 16}, {Float64, Float32, castF64F32AVX2, 16},
		{Uint8, Int64, castU8I64AVX2, 16}, {Uint8, Uint64, castU8I64AVX2, 16}, {Bool, Int64, castU8I64AVX2, 16}, {Bool, Uint64, castU8I64AVX2, 16},
		{Int8, Int64, castI8I64AVX2, 16},
		{Uint16, Int64, castU16I64AVX2, 16}, {Uint16, Uint64, castU16I64AVX2, 16}, {Int16, Int64, castI16I64AVX2, 16},
		{Uint8, Int32, castU8I32AVX2, 32}, {Uint8, Uint32, castU8I32AVX2, 32}, {Bool, Int32, castU8I32AVX2, 32}, {Bool, Uint32, castU8I32AVX2, 32},
		{Int8, Int32, castI8I32AVX2, 32},
		{Float32, Bool, castF32BoolAVX2, 8}, {Float64, Bool, castF64BoolAVX2, 8},
		{Int8, Bool, castI8BoolAVX2, 64}, {Uint8, Bool, castI8BoolAVX2, 64},
		{Int16, Bool, castI16BoolAVX2, 32}, {Uint16, Bool, castI16BoolAVX2, 32},
		{Int32, Bool, castI32BoolAVX2, 8}, {Uint32, Bool, castI32BoolAVX2, 8},
		{Int64, Bool, castI64BoolAVX2, 8}, {Uint64, Bool, castI64BoolAVX2, 8},
		{Int32, Float32, castI32F32AVX2, 32}, {Int8, Float32, castI8F32AVX2, 32}, {Uint8, Float32, castU8F32AVX2, 32},
		{Bool, Float32, castU8F32AVX2, 32}, {Int16, Float32, castI16F32AVX2, 32}, {Uint16, Float32, castU16F32AVX2, 32},
		{Int8, Float64, castI8F64AVX2, 16}, {Uint8, Float64, castU8F64AVX2, 16}, {Bool, Float64, castU8F64AVX2, 16},
		{Int16, Float64, castI16F64AVX2, 16}, {Uint16, Float64, castU16F64AVX2, 16},
		{Float32, Int32, castF32I32AVX2, 32}, {Float64, Int32, castF64I32AVX2, 16},
	}
	accMulWidenVec = accMulF64F32AVX2
	if hasF16C() {
		casts = append(casts, cast{Float16, Float32, castF16F32F16C, 32}, cast{Float32, Float16, castF32F16F16C, 32}, cast{Float16, Float64, castF16F64, 16})
		castTable[Float16][Int8] = wrapUnary(castF16ViaF32[int8])
		castTable[Float16][Int16] = wrapUnary(castF16ViaF32[int16])
		castTable[Float16][Int32] = wrapUnary(castF16ViaF32[int32])
		castTable[Float16][Int64] = wrapUnary(castF16ViaF32[int64])
		castTable[Float16][Uint8] = wrapUnary(castF16ViaF32[uint8])
		castTable[Float16][Uint16] = wrapUnary(castF16ViaF32[uint16])
		castTable[Float16][Uint32] = wrapUnary(castF16ViaF32[uint32])
		castTable[Float16][Uint64] = wrapUnary(castF16ViaF32[uint64])
	}
	for _, from := range []Type{Float32, Float64} {
		for _, to := range []Type{Int8, Uint8, Int16, Uint16} {
			f64, ds := from == Float64, to.Size()
			k := func(d, s unsafe.Pointer, n int) { castFloatNarrow(d, s, n, f64, ds) }
			casts = append(casts, cast{from, to, k, 32})
		}
	}
	// truncating casts keep the low bits whatever the signedness
	for _, from := range [][2]Type{{Int16, Uint16}, {Int32, Uint32}, {Int64, Uint64}} {
		for _, f := range from {
			for _, to := range []Type{Int8, Uint8, Int16, Uint16, Int32, Uint32} {
				switch {
				case f.Size() == 2 && to.Size() == 1:
					casts = append(casts, cast{f, to, castN16to8AVX2, 32})
				case f.Size() == 4 && to.Size() == 2:
					casts = append(casts, cast{f, to, castN32to16AVX2, 16})
				case f.Size() == 4 && to.Size() == 1:
					casts = append(casts, cast{f, to, castN32to8AVX2, 32})
				case f.Size() == 8 && to.Size() == 4:
					casts = append(casts, cast{f, to, castN64to32AVX2, 8})
				}
			}
		}
	}
	for _, c := range casts {
		castTable[c.from][c.to] = widenHeadTail(c.k, castTable[c.from][c.to], c.block, c.from.Size(), c.to.Size())
	}
	// a change of signedness is a copy
	for _, p := range [][2]Type{{Int8, Uint8}, {Int16, Uint16}, {Int32, Uint32}, {Int64, Uint64}} {
		castTable[p[0]][p[1]] = copyKernel(p[0].Size())
		castTable[p[1]][p[0]] = copyKernel(p[0].Size())
	}
	// an accumulating step has a unary kernel's shape: (acc, x, n); 64
	// bytes a step
	for _, c := range []struct {
		op Op
		t  Type
		k  func(acc, x unsafe.Pointer, n int)
	}{
		{Maximum, Bool, accMaxU8AVX2}, {Minimum, Bool, accMinU8AVX2},
		{Maximum, Uint8, accMaxU8AVX2}, {Minimum, Uint8, accMinU8AVX2},
		{Maximum, Int8, accMaxI8AVX2}, {Minimum, Int8, accMinI8AVX2},
		{Maximum, Uint16, accMaxU16AVX2}, {Minimum, Uint16, accMinU16AVX2},
		{Maximum, Int16, accMaxI16AVX2}, {Minimum, Int16, accMinI16AVX2},
		{Maximum, Uint32, accMaxU32AVX2}, {Minimum, Uint32, accMinU32AVX2},
		{Maximum, Int32, accMaxI32AVX2}, {Minimum, Int32, accMinI32AVX2},
		{Add, Int64, accAddI64AVX2}, {Add, Uint64, accAddI64AVX2},
		{Add, Int32, accAddI32AVX2}, {Add, Uint32, accAddI32AVX2},
	} {
		sz := c.t.Size()
		accTable[c.op][c.t] = AccumulateFunc(asmUnary(c.k, UnaryFunc(accTable[c.op][c.t]), sz, 64/sz))
	}
	registerIntRows() // over the accumulations above
	for _, t := range []Type{Int64, Uint64} {
		tail := foldTable[Add][t]
		foldTable[Add][t] = func(acc, x unsafe.Pointer, n int) {
			m := n &^ 15
			if m > 0 {
				foldAddI64AVX2(acc, x, m)
			}
			if m < n {
				tail(acc, unsafe.Add(x, m*8), n-m)
			}
		}
	}
	unTable[LogicalNot][Bool] = asmUnary(notBoolAVX2, unTable[LogicalNot][Bool], 1, 64)
}
