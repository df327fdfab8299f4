//go:build amd64 && !noasm

package compute

import (
	"math"
	"sync"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// registerVmath installs the float64 transcendental kernels and the power
// of a vector to a scalar exponent of vmath_amd64.s (vmathgen.go), over the
// Go loops and asmgen's kernels (called at the end of registerAsm).
func registerVmath() {
	if !Asm || !cpu.X86.HasFMA {
		return
	}
	for _, u := range []struct {
		op               Op
		k, knt, k8, k8nt vmKernel
		ks               vmKernel // the form that takes arguments outside the domain too, or nil
	}{
		{Sin, sinF64AVX2, sinF64NTAVX2, sinF64Z8, sinF64NTZ8, nil},
		{Cos, cosF64AVX2, cosF64NTAVX2, cosF64Z8, cosF64NTZ8, nil},
		{Log, logF64AVX2, logF64NTAVX2, nil, nil, logSF64AVX2},
		{Log1p, log1pF64AVX2, log1pF64NTAVX2, nil, nil, log1pSF64AVX2},
		{Arctan, arctanF64AVX2, arctanF64NTAVX2, nil, nil, nil},
		{Expm1, expm1F64AVX2, expm1F64NTAVX2, expm1F64Z8, expm1F64NTZ8, nil},
		{Tanh, tanhF64AVX2, tanhF64NTAVX2, tanhF64Z8, tanhF64NTZ8, nil},
		{Arcsin, arcsinF64AVX2, arcsinF64NTAVX2, nil, nil, arcsinSF64AVX2},
		{Tan, tanF64AVX2, tanF64NTAVX2, tanF64Z8, tanF64NTZ8, nil},
	} {
		k, knt, ks := u.k, u.knt, u.ks
		if hasVmath512 && u.k8 != nil { // (no translated kernel has a domain form)
			k, knt = vmZ8(u.k8, u.k, 0), vmZ8(u.k8nt, u.knt, 64)
		}
		slow := unTable[u.op][Float64]
		unTable[u.op][Float64] = vmUnaryS(k, ks, slow)
		unNTTable[u.op][Float64] = vmUnaryNT(knt, unTable[u.op][Float64], slow)
	}
	if hasVmath512 { // written for AVX-512, they do every element (no streaming form)
		for op, z := range vmathZ {
			unTable[op][Float64] = func(d, x unsafe.Pointer, n int) { z(d, x, n) }
			unNTTable[op][Float64] = nil
		}
		for _, op := range []Op{Log2, Log10, Arccos} {
			unTable[op][Float32] = viaF64(op)
			unNTTable[op][Float32] = nil
		}
	}
	atan2, atan2NT := vmKernel2(atan2F64AVX2), vmKernel2(atan2F64NTAVX2)
	pow, powNT := powF64AVX2, powF64NTAVX2
	var p15, p25, p15NT, p25NT vmKernel = pow15F64AVX2, pow25F64AVX2, pow15F64NTAVX2, pow25F64NTAVX2
	if hasVmath512 {
		atan2, atan2NT = vmZ8Binary(atan2F64Z8, atan2F64AVX2, 0), vmZ8Binary(atan2F64NTZ8, atan2F64NTAVX2, 64)
		pow, powNT = vmZ8Pow(powF64Z8, powF64AVX2, 0), vmZ8Pow(powF64NTZ8, powF64NTAVX2, 64)
		p15, p25 = vmZ8(pow15F64Z8, pow15F64AVX2, 0), vmZ8(pow25F64Z8, pow25F64AVX2, 0)
		p15NT, p25NT = vmZ8(pow15F64NTZ8, pow15F64NTAVX2, 64), vmZ8(pow25F64NTZ8, pow25F64NTAVX2, 64)
	}
	pow, powNT = halfPow(p15, p25, pow), halfPow(p15NT, p25NT, powNT)
	slow2 := binTable[Arctan2][Float64][VV]
	binTable[Arctan2][Float64][VV] = vmBinary(atan2, slow2)
	ntTable[Arctan2][Float64][VV] = vmBinaryNT(atan2NT, binTable[Arctan2][Float64][VV], slow2)
	slowPow := binTable[Power][Float64][VS]
	binTable[Power][Float64][VS] = powVS(8, slowPow, unTable[Square][Float64], pow, cubeF64AVX2)
	if sq := unNTTable[Square][Float64]; sq != nil {
		ntPow := powVS(8, slowPow, sq, powNT, cubeF64AVX2)
		plain := binTable[Power][Float64][VS]
		ntTable[Power][Float64][VS] = func(d, x, y unsafe.Pointer, n int) {
			if a := uintptr(d) & 31; a%8 != 0 || *(*float64)(y) == 3 {
				plain(d, x, y, n) // not element aligned; the cube stores plainly
				return
			} else if a != 0 {
				h := min(n, int(32-a)/8)
				plain(d, x, y, h)
				d, x, n = unsafe.Add(d, 8*h), unsafe.Add(x, 8*h), n-h
			}
			ntPow(d, x, y, n)
		}
	}
	binTable[Power][Float32][VS] = powVS(4, binTable[Power][Float32][VS], unTable[Square][Float32], powF32AVX2, cubeF32AVX2)
}

// vmathZ are the float64 routines written for AVX-512 (vmathgen.go's
// logZKernel): they do all n elements, arguments outside the domain
// included, and replace the AVX2 kernels (log2 and log10: the Go loops)
// where the CPU has AVX-512.
var vmathZ = map[Op]vmKernel{Log: logF64Z, Log1p: log1pF64Z, Log2: log2F64Z, Log10: log10F64Z, Arctan: arctanF64Z,
	Arcsin: arcsinF64Z, Arccos: arccosF64Z}

// viaF64 is float32 op computed by its float64 AVX-512 kernel (vmathZ;
// log2, log10 and arccos, whose float32 forms were Go loops): chunks of
// viaChunk elements widened into a buffer on the stack, computed there in
// place and narrowed into d. The float64 result is within 0.53 ulp (1.02
// for arccos) of the exact value, so the float32 one is within half an
// ulp and about 2^-28 of one. The kernels are called by name, not
// through vmathZ's func values, so that the buffer stays on the stack.
func viaF64(op Op) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		var buf [viaChunk]float64
		b := unsafe.Pointer(&buf[0])
		for i := 0; i < n; i += viaChunk {
			m := min(viaChunk, n-i)
			xs := unsafe.Slice((*float32)(unsafe.Add(x, 4*i)), m)
			w := m &^ 15
			if w > 0 {
				castF32F64AVX2(b, unsafe.Pointer(&xs[0]), w)
			}
			for j := w; j < m; j++ {
				buf[j] = float64(xs[j])
			}
			switch op {
			case Log2:
				log2F64Z(b, b, m)
			case Log10:
				log10F64Z(b, b, m)
			case Arccos:
				arccosF64Z(b, b, m)
			}
			ds := unsafe.Slice((*float32)(unsafe.Add(d, 4*i)), m)
			if w > 0 {
				castF64F32AVX2(unsafe.Pointer(&ds[0]), b, w)
			}
			for j := w; j < m; j++ {
				ds[j] = float32(buf[j])
			}
		}
	}
}

// viaChunk is the elements viaF64 widens at a time (4 KiB of float64).
const viaChunk = 512

// powVS is x**y for a scalar y: y = 2 is square (NumPy's x*x), y = 3 the
// cube rounded once (cube), a finite y other than 0 and 1 the routine pow
// (exp(y log x) in double-double, for positive normal x; it stops at the
// first block of 4 it does not do, which the Go loop slow computes), and
// every other y the Go loop.
func powVS(size int, slow BinaryFunc, square UnaryFunc, pow func(d, x unsafe.Pointer, n int, y float64) int, cube func(d, x unsafe.Pointer, n int)) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		var yv float64
		if size == 4 {
			yv = float64(*(*float32)(y))
		} else {
			yv = *(*float64)(y)
		}
		switch {
		case yv == 2:
			square(d, x, n)
			return
		case yv == 3:
			m := n &^ 7
			if m > 0 {
				cube(d, x, m)
			}
			if m < n {
				slow(unsafe.Add(d, m*size), unsafe.Add(x, m*size), y, n-m)
			}
			return
		case yv == 0 || yv == 1 || math.IsInf(yv, 0) || math.IsNaN(yv):
			slow(d, x, y, n)
			return
		}
		var run func(d, x unsafe.Pointer, n int)
		if size == 8 { // the float64 kernel does the last partial block and each element of a block it left
			run = func(d, x unsafe.Pointer, n int) {
				for done := 0; done < n; {
					done += pow(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), n-done, yv)
					for end := min(done+4, n); done < end; done++ {
						if pow(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), 1, yv) == 0 {
							slow(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), y, 1)
						}
					}
				}
			}
		} else { // float32: whole blocks of 4 by the kernel, the rest by the Go loop
			run = func(d, x unsafe.Pointer, n int) {
				for done := 0; done < n; {
					if m := (n - done) &^ 3; m > 0 {
						done += pow(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), m, yv)
					}
					if done < n {
						c := min(4, n-done)
						slow(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), y, c)
						done += c
					}
				}
			}
		}
		done := n
		if n <= 0 {
			return
		} else if size == 8 {
			done = pow(d, x, n, yv)
		} else if m := n &^ 3; m > 0 {
			done = pow(d, x, m, yv)
		} else {
			done = 0
		}
		if done < n {
			powNegChunks(run, size, yv, unsafe.Add(d, size*done), unsafe.Add(x, size*done), n-done)
		}
	}
}

// powNegChunks goes on with the power x**y (float64: size 8; float32: 4)
// after its kernel stopped, vmChunk elements at a time, so that data with
// negative bases stays in the vector loop (a stop per block of 4 cost 36
// ns an element). run(d, x, n) is the loop of the kernel and of the Go
// loop for what the kernel leaves. A chunk without a finite negative base
// runs as it is. In one with some, those are replaced by their magnitudes
// in a copy, the chunk runs on the copy, and their results are set after:
// a non-integer exponent has no real power of a negative base (NaN,
// math.Pow's), an odd integer one negates |x|**y, an even one keeps it
// (math.Pow's rule, so a negative base's power is its magnitude's, signed,
// whichever of the kernel and the Go loop computed it).
func powNegChunks(run func(d, x unsafe.Pointer, n int), size int, yv float64, d, x unsafe.Pointer, n int) {
	nonInt := yv != math.Trunc(yv)
	odd := !nonInt && math.Mod(yv, 2) != 0
	sc := vmScratchPool.Get().(*vmScratch)
	defer vmScratchPool.Put(sc)
	tmp := unsafe.Pointer(&sc.tmp[0])
	for done := 0; done < n; {
		c := min(vmChunk, n-done)
		xp, dp := unsafe.Add(x, size*done), unsafe.Add(d, size*done)
		// the copy with the finite negatives' signs cleared, and their
		// places, without a branch on the sign (random signs mispredict)
		negs := 0
		if size == 8 {
			t := unsafe.Slice((*uint64)(tmp), c)
			for i, b := range unsafe.Slice((*uint64)(xp), c) {
				neg := b >> 63 & b2u64((b&^(1<<63))-1 < 0x7fefffffffffffff) // finite, not zero
				t[i] = b ^ neg<<63
				sc.nanIdx[negs] = uint16(i)
				negs += int(neg)
			}
		} else {
			t := unsafe.Slice((*uint32)(tmp), c)
			for i, b := range unsafe.Slice((*uint32)(xp), c) {
				neg := b >> 31 & uint32(b2u64((b&^(1<<31))-1 < 0x7f7fffff))
				t[i] = b ^ neg<<31
				sc.nanIdx[negs] = uint16(i)
				negs += int(neg)
			}
		}
		if negs == 0 {
			run(dp, xp, c)
			done += c
			continue
		}
		run(dp, tmp, c)
		for _, i := range sc.nanIdx[:negs] {
			if size == 8 {
				r := (*float64)(unsafe.Add(dp, 8*int(i)))
				switch {
				case nonInt:
					*r = math.NaN()
				case odd:
					*r = -*r
				}
			} else {
				r := (*float32)(unsafe.Add(dp, 4*int(i)))
				switch {
				case nonInt:
					*r = float32(math.NaN())
				case odd:
					*r = -*r
				}
			}
		}
		done += c
	}
}

// vmKernel is a float64 routine of vmath_amd64.s (vmathgen.go's kernel):
// it does blocks of 4 from the start, the last n%4 elements under a mask,
// and stops at the first block with an argument outside its range,
// returning how many elements it did.
type vmKernel func(d, x unsafe.Pointer, n int) int

// vmUnary runs k over the whole vector; each element of a block k leaves
// is done by k alone (n = 1) where it is in k's range, by the Go loop slow
// otherwise. So every element in range is k's, whatever the length,
// offset or neighbours: a vector's elements are the same bits alone, in
// the streaming variant and in any slice.
func vmUnary(k vmKernel, slow UnaryFunc) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) { vmRun(k, slow, d, x, x, n) }
}

// vmUnaryS is vmUnary for data with values outside k's range. With ks,
// the form of k that also takes the arguments outside the function's
// domain (zeros, negatives, NaN and infinities for the logarithms), the
// rest of the call after k's first stop is ks's, which gives the lanes k
// takes the same bits. Without, the rest goes in chunks whose NaNs are
// replaced by an argument in k's range for k and computed by slow after
// (vmNaNChunks). Either way data with such values (NaN for a missing
// value, 1% of them: sin of 4M float64 2.2 ns an element with a stop at
// each) runs in the vector loop instead of a few calls an element.
func vmUnaryS(k, ks vmKernel, slow UnaryFunc) UnaryFunc {
	if ks == nil {
		run := func(d, kin, xin unsafe.Pointer, n int) { vmRun(k, slow, d, kin, xin, n) }
		return func(d, x unsafe.Pointer, n int) {
			if done := k(d, x, n); done < n {
				vmNaNChunks(run, slow, 8, unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), n-done)
			}
		}
	}
	rest := vmUnary(ks, slow)
	return func(d, x unsafe.Pointer, n int) {
		if done := k(d, x, n); done < n {
			rest(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), n-done)
		}
	}
}

// vmChunk is how many elements vmNaNChunks takes at a time.
const vmChunk = 512

// vmScratch is vmNaNChunks's copy of a chunk, its NaN mask and its NaNs
// (their bits, float32 in the low half), from a pool: on the stack it
// would escape (k is a function value) and a fresh heap block a call cost
// more than the chunk's arithmetic.
type vmScratch struct {
	tmp    [vmChunk]float64 // float64 or, in its first half, float32 values
	nanVal [vmChunk]uint64
	mask   [vmChunk]bool
	nanIdx [vmChunk]uint16
}

var vmScratchPool = sync.Pool{New: func() any { return new(vmScratch) }}

// vmHalves and vmHalves32 are a chunk of 0.5s, what vmNaNChunks puts in
// place of a NaN.
var vmHalves = func() (h [vmChunk]float64) {
	for i := range h {
		h[i] = 0.5
	}
	return
}()

var vmHalves32 = func() (h [vmChunk]float32) {
	for i := range h {
		h[i] = 0.5
	}
	return
}()

// vmNaNChunks runs a float64 routine (size 8; float32: size 4) over n
// elements a chunk at a time: run(d, kin, xin, n) is the routine's loop
// with its kernel reading kin and slow (the Go loop, for an element the
// kernel leaves) reading xin. A chunk with no NaN runs as it is; in one
// with NaNs (found by the isnan kernel) they are replaced by 0.5, in the
// range of every routine here (the where kernel, into a copy), the kernel
// runs on the copy, and slow computes each NaN from its own value, kept
// aside (d may be x).
func vmNaNChunks(run func(d, kin, xin unsafe.Pointer, n int), slow UnaryFunc, size int, d, x unsafe.Pointer, n int) {
	sc := vmScratchPool.Get().(*vmScratch)
	defer vmScratchPool.Put(sc)
	isnan, where, halves := unTable[IsNaN][Float64], whereTable[8], unsafe.Pointer(&vmHalves[0])
	if size == 4 {
		isnan, where, halves = unTable[IsNaN][Float32], whereTable[4], unsafe.Pointer(&vmHalves32[0])
	}
	for done := 0; done < n; {
		c := min(vmChunk, n-done)
		xp, dp := unsafe.Add(x, size*done), unsafe.Add(d, size*done)
		isnan(unsafe.Pointer(&sc.mask[0]), xp, c)
		nans := 0
		for i := 0; i < c; i += 8 {
			if i+8 <= c && *(*uint64)(unsafe.Pointer(&sc.mask[i])) == 0 {
				continue
			}
			for j := i; j < min(i+8, c); j++ {
				if sc.mask[j] {
					sc.nanIdx[nans] = uint16(j)
					if size == 4 {
						sc.nanVal[nans] = uint64(*(*uint32)(unsafe.Add(xp, 4*j)))
					} else {
						sc.nanVal[nans] = *(*uint64)(unsafe.Add(xp, 8*j))
					}
					nans++
				}
			}
		}
		if nans == 0 {
			run(dp, xp, xp, c)
		} else {
			where(unsafe.Pointer(&sc.tmp[0]), unsafe.Pointer(&sc.mask[0]), halves, xp, c, 1, 1, 1)
			run(dp, unsafe.Pointer(&sc.tmp[0]), xp, c)
			for j := 0; j < nans; j++ {
				slow(unsafe.Add(dp, size*int(sc.nanIdx[j])), unsafe.Pointer(&sc.nanVal[j]), 1)
			}
		}
		done += c
	}
}

// vmRun is vmUnary's loop with k reading kin and slow reading xin (the
// same values but where vmNaNChunks replaced a NaN).
func vmRun(k vmKernel, slow UnaryFunc, d, kin, xin unsafe.Pointer, n int) {
	for done := 0; done < n; {
		done += k(unsafe.Add(d, 8*done), unsafe.Add(kin, 8*done), n-done)
		for end := min(done+4, n); done < end; done++ {
			if k(unsafe.Add(d, 8*done), unsafe.Add(kin, 8*done), 1) == 0 {
				slow(unsafe.Add(d, 8*done), unsafe.Add(xin, 8*done), 1)
			}
		}
	}
}

// vmUnaryNT is vmUnary with knt, the variant of the kernel with
// non-temporal stores of whole blocks, which must be 32-byte aligned:
// plain (vmUnary of the plain kernel) does the elements before the first
// 32-byte boundary of d, or all of them when d is not 8-byte aligned.
func vmUnaryNT(knt vmKernel, plain, slow UnaryFunc) UnaryFunc {
	nt := vmUnary(knt, slow)
	return func(d, x unsafe.Pointer, n int) {
		a := uintptr(d) & 31
		if a%8 != 0 {
			plain(d, x, n)
			return
		}
		if a != 0 {
			h := min(n, int(32-a)/8)
			plain(d, x, h)
			d, x, n = unsafe.Add(d, 8*h), unsafe.Add(x, 8*h), n-h
		}
		nt(d, x, n)
	}
}

// vmKernel2 is vmKernel for binary routines of two float64 vectors.
type vmKernel2 func(d, x, y unsafe.Pointer, n int) int

// vmBinary is vmUnary for a binary routine.
func vmBinary(k vmKernel2, slow BinaryFunc) BinaryFunc {
	return func(d, x, y unsafe.Pointer, n int) {
		for done := 0; done < n; {
			done += k(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), n-done)
			for end := min(done+4, n); done < end; done++ {
				if k(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), 1) == 0 {
					slow(unsafe.Add(d, 8*done), unsafe.Add(x, 8*done), unsafe.Add(y, 8*done), 1)
				}
			}
		}
	}
}

// vmBinaryNT is vmUnaryNT for a binary routine.
func vmBinaryNT(knt vmKernel2, plain, slow BinaryFunc) BinaryFunc {
	nt := vmBinary(knt, slow)
	return func(d, x, y unsafe.Pointer, n int) {
		a := uintptr(d) & 31
		if a%8 != 0 {
			plain(d, x, y, n)
			return
		}
		if a != 0 {
			h := min(n, int(32-a)/8)
			plain(d, x, y, h)
			d, x, y, n = unsafe.Add(d, 8*h), unsafe.Add(x, 8*h), unsafe.Add(y, 8*h), n-h
		}
		nt(d, x, y, n)
	}
}

// vmZ8 is the vmKernel that runs k8, the AVX-512 form of k (vmathgen.go's
// z8Kernel: the same instructions a lane, so the same bits), over whole
// vectors of 8 and k over the rest: k8 stops at the first vector with an
// argument outside the range, which k does (or stops at) as it would
// alone, and k8 goes on after it. align is the alignment k8's stores need
// (64 for the streaming form, whose dst is 32-byte aligned: k does the
// elements up to the first 64-byte boundary), or 0.
func vmZ8(k8, k vmKernel, align int) vmKernel { return vmWide(k8, k, 8, 8, align) }

// vmWide is vmZ8 for elements of size bytes and wide vectors of lanes
// elements (float32 tan: 4 and 16).
func vmWide(kw, k vmKernel, size, lanes, align int) vmKernel {
	return func(d, x unsafe.Pointer, n int) int {
		return wideRun(d, n, size, lanes, align,
			func(i, m int) int { return kw(unsafe.Add(d, size*i), unsafe.Add(x, size*i), m) },
			func(i, m int) int { return k(unsafe.Add(d, size*i), unsafe.Add(x, size*i), m) })
	}
}

// wideRun is the loop of vmWide over n elements at d: wide(i, m) and
// narrow(i, m) run the wide and the narrow kernel on the m elements from
// i, returning how many they did.
func wideRun(d unsafe.Pointer, n, size, lanes, align int, wide, narrow func(i, m int) int) int {
	done := 0
	if a := int(uintptr(d)) & (align - 1); align != 0 && a != 0 {
		h := min(n, (align-a)/size)
		if done = narrow(0, h); done < h {
			return done
		}
	}
	for n-done >= lanes {
		done += wide(done, n-done)
		if n-done < lanes {
			break
		}
		m := narrow(done, lanes)
		if done += m; m < lanes {
			return done
		}
	}
	if done == n { // (a pointer past the end would fail checkptr)
		return done
	}
	return done + narrow(done, n-done)
}

// vmZ8Binary is vmZ8 for routines of two vectors.
func vmZ8Binary(k8, k vmKernel2, align int) vmKernel2 {
	return func(d, x, y unsafe.Pointer, n int) int {
		return wideRun(d, n, 8, 8, align,
			func(i, m int) int { return k8(unsafe.Add(d, 8*i), unsafe.Add(x, 8*i), unsafe.Add(y, 8*i), m) },
			func(i, m int) int { return k(unsafe.Add(d, 8*i), unsafe.Add(x, 8*i), unsafe.Add(y, 8*i), m) })
	}
}

// halfPow is pow with the exponents 1.5 and 2.5 done by their own
// kernels, x sqrt x and x^2 sqrt x (vmathgen.go's halfPowBody: rounded
// once, no log or exp); an element outside their range (2^-300 to 2^300)
// is pow's.
func halfPow(k15, k25 vmKernel, pow powKernel) powKernel {
	return func(d, x unsafe.Pointer, n int, y float64) int {
		var k vmKernel
		switch y {
		case 1.5:
			k = k15
		case 2.5:
			k = k25
		default:
			return pow(d, x, n, y)
		}
		if m := k(d, x, n); m > 0 || n > 1 {
			return m
		}
		return pow(d, x, 1, y)
	}
}

// powKernel is the power routine of a float64 vector to a scalar exponent
// (vmKernel's contract, y the exponent).
type powKernel func(d, x unsafe.Pointer, n int, y float64) int

// vmZ8Pow is vmZ8 for the power routine.
func vmZ8Pow(k8, k powKernel, align int) powKernel {
	return func(d, x unsafe.Pointer, n int, y float64) int {
		return wideRun(d, n, 8, 8, align,
			func(i, m int) int { return k8(unsafe.Add(d, 8*i), unsafe.Add(x, 8*i), m, y) },
			func(i, m int) int { return k(unsafe.Add(d, 8*i), unsafe.Add(x, 8*i), m, y) })
	}
}
