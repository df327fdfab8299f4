package compute

import (
	"fmt"
	"math/bits"
	"unsafe"
)

// LookupBinary returns the kernel for dst = x op y on elements of type t,
// reading x and y as form says. Comparisons write bool (one byte, 0 or 1);
// everything else writes t. It returns an error for a combination that has no
// kernel (arithmetic on bool, logical connectives on numbers, float16: the
// engine computes those in float32).
func LookupBinary(op Op, t Type, form Form) (BinaryFunc, error) {
	if op >= numOps || t >= numTypes || form >= numForms {
		return nil, fmt.Errorf("compute: no %v kernel for %v (form %d)", op, t, form)
	}
	if f := binTable[op][t][form]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("compute: no %v kernel for %v", op, t)
}

// LookupUnary returns the kernel for dst = op(x) on elements of type t.
func LookupUnary(op Op, t Type) (UnaryFunc, error) {
	if op >= numOps || t >= numTypes {
		return nil, fmt.Errorf("compute: no %v kernel for %v", op, t)
	}
	if f := unTable[op][t]; f != nil {
		return f, nil
	}
	return nil, fmt.Errorf("compute: no %v kernel for %v", op, t)
}

// Gather returns the kernel that reads n elements of the given byte size at
// a stride into a contiguous run. Sizes 1, 2, 4 and 8 are supported.
func Gather(size int) (MoveFunc, error) {
	switch size {
	case 1:
		return gather[uint8], nil
	case 2:
		return gather[uint16], nil
	case 4:
		return gather[uint32], nil
	case 8:
		return gather[uint64], nil
	}
	return nil, fmt.Errorf("compute: no gather for %d-byte elements", size)
}

// Scatter returns the kernel that writes a contiguous run of n elements of
// the given byte size to a strided destination.
func Scatter(size int) (MoveFunc, error) {
	switch size {
	case 1:
		return scatter[uint8], nil
	case 2:
		return scatter[uint16], nil
	case 4:
		return scatter[uint32], nil
	case 8:
		return scatter[uint64], nil
	}
	return nil, fmt.Errorf("compute: no scatter for %d-byte elements", size)
}

func gather[T any](dst, src unsafe.Pointer, n, stride int) {
	d := unsafe.Slice((*T)(dst), n)
	switch stride {
	case 1:
		copy(d, unsafe.Slice((*T)(src), n))
	case 0:
		v := *(*T)(src)
		for i := range d {
			d[i] = v
		}
	case -1:
		reverseCopy(d, src)
	default:
		step := stride * int(unsafe.Sizeof(d[0]))
		for i := range d {
			d[i] = *(*T)(unsafe.Add(src, i*step))
		}
	}
}

// ReverseStream sets the n elements of size sz at dst to the elements
// below src, reversed (dst[i] is the element i places below src, a gather
// at stride -1), writing around the cache: every line of dst it writes is
// stored with non-temporal stores (the part before dst's first 32-byte
// boundary and the last partial vectors through a buffer, StreamPiece's
// four bytes a store), so it suits an output that is large and mapped
// already. Call Fence before another goroutine reads dst. Sizes other
// than 4 and 8, a dst not aligned to its elements, and builds without
// assembly copy plainly.
func ReverseStream(dst, src unsafe.Pointer, n, sz int) {
	if n <= 0 {
		return
	}
	if (sz != 4 && sz != 8) || uintptr(dst)%uintptr(sz) != 0 || !Asm {
		reverseAny(dst, src, n, sz)
		return
	}
	var buf [32 * 4]byte // the head (under 32 bytes) or the tail (under 32 elements)
	i := 0
	if a := int(uintptr(dst) & 31); a != 0 {
		i = min(n, (32-a)/sz)
		reverseAny(unsafe.Pointer(&buf[0]), src, i, sz)
		StreamPiece(dst, unsafe.Pointer(&buf[0]), i*sz)
	}
	i += reverseAsm(unsafe.Add(dst, i*sz), unsafe.Add(src, -i*sz), n-i, sz, true)
	for i < n {
		k := min(n-i, len(buf)/sz)
		reverseAny(unsafe.Pointer(&buf[0]), unsafe.Add(src, -i*sz), k, sz)
		StreamPiece(unsafe.Add(dst, i*sz), unsafe.Pointer(&buf[0]), k*sz)
		i += k
	}
}

// reverseAny is reverseCopy for elements of sz bytes.
func reverseAny(dst, src unsafe.Pointer, n, sz int) {
	switch sz {
	case 1:
		reverseCopy(unsafe.Slice((*uint8)(dst), n), src)
	case 2:
		reverseCopy(unsafe.Slice((*uint16)(dst), n), src)
	case 4:
		reverseCopy(unsafe.Slice((*uint32)(dst), n), src)
	case 8:
		reverseCopy(unsafe.Slice((*uint64)(dst), n), src)
	default:
		for i := 0; i < n; i++ {
			copy(unsafe.Slice((*byte)(unsafe.Add(dst, i*sz)), sz), unsafe.Slice((*byte)(unsafe.Add(src, -i*sz)), sz))
		}
	}
}

// reverseCopy sets d[i] to the element i places before src (a gather at
// stride -1, as a flipped axis reads). 4- and 8-byte elements go through
// the AVX2 kernels (reverseAsm) where the build has them, whole steps of
// 32 and 16 elements. Without them, four-byte elements move in pairs: two
// of them read as one uint64 and rotated by 32 bits are the pair reversed
// (where both sides can be 8-byte aligned); the rest four at a time.
func reverseCopy[T any](d []T, src unsafe.Pointer) {
	n := len(d)
	if n == 0 {
		return
	}
	sz := int(unsafe.Sizeof(d[0]))
	dst := unsafe.Pointer(&d[0])
	i := reverseAsm(dst, src, n, sz, false)
	// the pairs' loads and stores are 8-byte aligned (as checkptr wants)
	// when dst+src+4 is; then one element first aligns the stores
	if i == 0 && sz == 4 && (uintptr(dst)+uintptr(src)+4)%8 == 0 {
		if uintptr(dst)%8 != 0 {
			d[0] = *(*T)(src)
			i = 1
		}
		for ; i+8 <= n; i += 8 {
			p := unsafe.Add(src, -4*(i+7)) // the lowest of the eight read
			a := *(*uint64)(p)
			b := *(*uint64)(unsafe.Add(p, 8))
			c := *(*uint64)(unsafe.Add(p, 16))
			e := *(*uint64)(unsafe.Add(p, 24))
			q := unsafe.Add(dst, 4*i)
			*(*uint64)(q) = bits.RotateLeft64(e, 32)
			*(*uint64)(unsafe.Add(q, 8)) = bits.RotateLeft64(c, 32)
			*(*uint64)(unsafe.Add(q, 16)) = bits.RotateLeft64(b, 32)
			*(*uint64)(unsafe.Add(q, 24)) = bits.RotateLeft64(a, 32)
		}
	}
	for ; i+4 <= n; i += 4 {
		s := unsafe.Slice((*T)(unsafe.Add(src, -sz*(i+3))), 4)
		o := d[i : i+4 : i+4]
		o[0], o[1], o[2], o[3] = s[3], s[2], s[1], s[0]
	}
	for ; i < n; i++ {
		d[i] = *(*T)(unsafe.Add(src, -sz*i))
	}
}

func scatter[T any](dst, src unsafe.Pointer, n, stride int) {
	s := unsafe.Slice((*T)(src), n)
	if stride == 1 {
		copy(unsafe.Slice((*T)(dst), n), s)
		return
	}
	step := stride * int(unsafe.Sizeof(s[0]))
	for i := range s {
		*(*T)(unsafe.Add(dst, i*step)) = s[i]
	}
}

// whereTable holds select kernels by element size that replace the Go ones
// (the AVX2 kernels for 4- and 8-byte elements).
var whereTable [9]WhereFunc

// LookupWhere returns the select kernel for elements of the given byte size.
func LookupWhere(size int) (WhereFunc, error) {
	if size > 0 && size < len(whereTable) && whereTable[size] != nil {
		return whereTable[size], nil
	}
	switch size {
	case 1:
		return where[uint8], nil
	case 2:
		return where[uint16], nil
	case 4:
		return where[uint32], nil
	case 8:
		return where[uint64], nil
	}
	return nil, fmt.Errorf("compute: no where for %d-byte elements", size)
}

func where[T any](dst, c, x, y unsafe.Pointer, n, cs, xs, ys int) {
	if n <= 0 {
		return
	}
	d := unsafe.Slice((*T)(dst), n)
	if cs == 1 && xs == 1 && ys == 1 {
		cc, xx, yy := unsafe.Slice((*uint8)(c), n), unsafe.Slice((*T)(x), n), unsafe.Slice((*T)(y), n)
		for i := range d {
			if cc[i] != 0 {
				d[i] = xx[i]
			} else {
				d[i] = yy[i]
			}
		}
		return
	}
	if cs == 1 && xs == 1 && ys == 0 {
		cc, xx, yv := unsafe.Slice((*uint8)(c), n), unsafe.Slice((*T)(x), n), *(*T)(y)
		for i := range d {
			if cc[i] != 0 {
				d[i] = xx[i]
			} else {
				d[i] = yv
			}
		}
		return
	}
	if cs == 1 && xs == 0 && ys == 1 {
		cc, xv, yy := unsafe.Slice((*uint8)(c), n), *(*T)(x), unsafe.Slice((*T)(y), n)
		for i := range d {
			if cc[i] != 0 {
				d[i] = xv
			} else {
				d[i] = yy[i]
			}
		}
		return
	}
	cc := unsafe.Slice((*uint8)(c), (n-1)*cs+1)
	xx := unsafe.Slice((*T)(x), (n-1)*xs+1)
	yy := unsafe.Slice((*T)(y), (n-1)*ys+1)
	for i := range d {
		if cc[i*cs] != 0 {
			d[i] = xx[i*xs]
		} else {
			d[i] = yy[i*ys]
		}
	}
}

// The tables are filled once, in this order: generated Go loops first, then
// the vek kernels that replace some of them, then the reductions built on
// both, and the casts.
func init() {
	registerGenerated()
	trimToLoops()
	registerVek()
	registerIntDiv()
	registerReductions() // before the assembly: accumulations alias acc and x, which the NT and vek paths must not see
	registerSums()
	registerAsm()
	registerCasts()
	registerWiden() // over the Go casts and loops
	registerCastVec()
	registerFoldInt()
	registerCmpInt()
	registerIntVec()
	registerRemVec()
	registerPowInt() // over the vector multiplies
	registerClassify()
	registerHalfBits() // over the 16-bit bitwise kernels
}

// ntTable holds binary kernels that stream their result with non-temporal
// stores (where the CPU and build have them).
var ntTable [numOps][numTypes][numForms]BinaryFunc

// unNTTable holds unary kernels that stream their result with
// non-temporal stores (where the CPU and build have them).
var unNTTable [numOps][numTypes]UnaryFunc

// LookupUnaryNT returns a kernel like LookupUnary's whose stores bypass the
// cache (non-temporal); ok is false when there is none for op and t. Call
// Fence after the last such kernel of a goroutine.
func LookupUnaryNT(op Op, t Type) (UnaryFunc, bool) {
	if op >= numOps || t >= numTypes {
		return nil, false
	}
	f := unNTTable[op][t]
	return f, f != nil
}

// LookupBinaryNT returns a kernel like LookupBinary's whose stores bypass
// the cache (non-temporal), for results far larger than the cache that are
// not read again soon. ok is false when there is none for op and t; call
// Fence after the last such kernel of a goroutine.
func LookupBinaryNT(op Op, t Type, form Form) (BinaryFunc, bool) {
	if op >= numOps || t >= numTypes || form >= numForms {
		return nil, false
	}
	f := ntTable[op][t][form]
	return f, f != nil
}

// trimToLoops drops the generated loops of types an op has no NumPy loop
// for: the generator writes one per type of a category (float32 and
// float64), but float_power has only float64's, so that a float32 operand
// is computed, and returned, in float64 as NumPy does.
func trimToLoops() {
	for o := Op(1); o < numOps; o++ {
		for t := Type(0); t < numTypes; t++ {
			if !opTable[o].Loops.Has(t) {
				binTable[o][t] = [numForms]BinaryFunc{}
				unTable[o][t] = nil
			}
		}
	}
}
