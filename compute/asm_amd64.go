//go:build amd64 && !noasm

package compute

import (
	"encoding/binary"
	"sync"
	"unsafe"

	"golang.org/x/sys/cpu"
)

// Asm reports whether the AVX2 assembly kernels are in use (amd64 with
// AVX2, built without the noasm tag).
var Asm = cpu.X86.HasAVX2

// hasAVX512 selects the 512-bit row-looped kernels for data in cache.
var hasAVX512 = cpu.X86.HasAVX2 && cpu.X86.HasAVX512F && cpu.X86.HasAVX512VL

// whereAsm[size][y is one repeated element] selects 1-, 2-, 4- or 8-byte
// elements with a bool vector c and a vector x.
var whereAsm [9][2]func(dst, c, x, y unsafe.Pointer, n int)

func registerAsm() {
	if !Asm {
		return
	}
	registerAsmKernels()
	registerAccExtrema()
	if cpu.X86.HasFMA {
		unTable[Exp][Float32] = asmMathF32(expF32AVX2, unTable[Exp][Float32])
		// log: the domain form (zeros, negatives, NaNs, infinities) from
		// the plain kernel's first stop on
		logRest := asmMathF32(logSF32AVX2, unTable[Log][Float32])
		unTable[Log][Float32] = func(d, x unsafe.Pointer, n int) {
			done := 0
			if m := n &^ 7; m > 0 {
				done = logF32AVX2(d, x, m)
			}
			if done < n {
				logRest(unsafe.Add(d, 4*done), unsafe.Add(x, 4*done), n-done)
			}
		}
		unTable[Tanh][Float32] = asmMathF32(tanhF32AVX2, unTable[Tanh][Float32])
		unTable[Sin][Float32] = asmMathF32(sinF32AVX2, unTable[Sin][Float32])
		unTable[Cos][Float32] = asmMathF32(cosF32AVX2, unTable[Cos][Float32])
		exp := expF64AVX2
		if hasVmath512 { // 8 lanes a step (vmathgen.go's translation), the same bits
			exp = vmZ8(expF64Z8, expF64AVX2, 0)
		}
		unTable[Exp][Float64] = asmMathF64(exp, unTable[Exp][Float64])
	}
	registerVmath()
	registerVmath32()
	// x op y[i] for commutative operators: the VS kernel with x and y swapped.
	for _, op := range []Op{Add, Mul} {
		for t := Bool; t < numTypes; t++ {
			for _, tbl := range []*[numOps][numTypes][numForms]Binary2D{&table2D, &table2DNT, &table2DZ} {
				if vs := tbl[op][t][VS]; vs.Func != nil {
					f := vs.Func
					tbl[op][t][SV] = Binary2D{Lanes: vs.Lanes, Func: func(d, x, y unsafe.Pointer, n, rows, ds, xs, ys int) { f(d, y, x, n, rows, ds, ys, xs) }}
				}
			}
			if vs := binTable[op][t][VS]; vs != nil {
				binTable[op][t][SV] = func(d, x, y unsafe.Pointer, n int) { vs(d, y, x, n) }
			}
			if vs := ntTable[op][t][VS]; vs != nil {
				ntTable[op][t][SV] = func(d, x, y unsafe.Pointer, n int) { vs(d, y, x, n) }
			}
		}
	}
	for _, size := range []int{1, 2, 4, 8} {
		goWhere, _ := LookupWhere(size)
		v, sc := whereAsm[size][0], whereAsm[size][1]
		L := 32 / size
		whereTable[size] = func(dst, c, x, y unsafe.Pointer, n, cs, xs, ys int) {
			if cs == 1 && xs == 0 && ys == 1 && n >= L {
				// where(c, s, y) as where(!c, y, s) (Nansum's
				// where(isnan(x), 0, x)): the scalar kernel on the
				// negated conditions, a chunk at a time
				m := n &^ (L - 1)
				whereScalarX(dst, c, x, y, m, size)
				if m < n {
					goWhere(unsafe.Add(dst, m*size), unsafe.Add(c, m), x, unsafe.Add(y, m*size), n-m, cs, xs, ys)
				}
				return
			}
			if cs != 1 || xs != 1 || ys > 1 || ys < 0 || n < L {
				goWhere(dst, c, x, y, n, cs, xs, ys)
				return
			}
			m := n &^ (L - 1)
			if ys == 1 {
				v(dst, c, x, y, m)
			} else {
				sc(dst, c, x, y, m)
			}
			if m < n {
				goWhere(unsafe.Add(dst, m*size), unsafe.Add(c, m), unsafe.Add(x, m*size), unsafe.Add(y, m*size*ys), n-m, cs, xs, ys)
			}
		}
	}
}

// whereScalarX sets dst[i] = c[i] != 0 ? *x : y[i] for m elements of
// size 1, 2, 4 or 8 (m a multiple of the vector's lanes): the negated
// conditions of a chunk on the stack, then the AVX2 kernel with x as the
// repeated element.
func whereScalarX(dst, c, x, y unsafe.Pointer, m, size int) {
	var nc [512]byte
	cc := unsafe.Slice((*byte)(c), m)
	for at := 0; at < m; at += len(nc) {
		k := min(len(nc), m-at)
		src := cc[at : at+k]
		i := 0
		for ; i+8 <= k; i += 8 {
			// per byte, bit 7 set when the byte is nonzero (no carry
			// crosses a byte: (b & 0x7f) + 0x7f <= 0xfe); then 1 per zero byte
			w := binary.LittleEndian.Uint64(src[i:])
			nz := ((w & 0x7f7f7f7f7f7f7f7f) + 0x7f7f7f7f7f7f7f7f | w) & 0x8080808080808080
			binary.LittleEndian.PutUint64(nc[i:], (nz^0x8080808080808080)>>7)
		}
		for ; i < k; i++ {
			nc[i] = zeroByte(src[i])
		}
		d, yy := unsafe.Add(dst, at*size), unsafe.Add(y, at*size)
		switch size { // static calls: nc stays on the stack
		case 1:
			where1SAVX2(d, unsafe.Pointer(&nc[0]), yy, x, k)
		case 2:
			where2SAVX2(d, unsafe.Pointer(&nc[0]), yy, x, k)
		case 4:
			where4SAVX2(d, unsafe.Pointer(&nc[0]), yy, x, k)
		default:
			where8SAVX2(d, unsafe.Pointer(&nc[0]), yy, x, k)
		}
	}
}

// zeroByte is 1 for a zero byte and 0 for any other.
func zeroByte(b byte) uint8 {
	if b == 0 {
		return 1
	}
	return 0
}

// steps gives the element steps of x and y for a binary form.
func steps(size int, form string) (int, int) {
	switch form {
	case "vs":
		return size, 0
	case "sv":
		return 0, size
	}
	return size, size
}

// asmBinary runs whole vectors in assembly and the rest with the Go loop.
func asmBinary(k func(d, x, y unsafe.Pointer, n int), tail BinaryFunc, size, lanes int, form string) BinaryFunc {
	xs, ys := steps(size, form)
	return func(d, x, y unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			k(d, x, y, m)
		}
		if m < n {
			tail(unsafe.Add(d, m*size), unsafe.Add(x, m*xs), unsafe.Add(y, m*ys), n-m)
		}
	}
}

// asmMathF32 runs a float32 math routine that stops at the first block of
// 8 it does not handle (special values, extreme arguments): each element
// of that block, and of the last n%8, is the routine's on a vector of its
// copies where the routine takes it and the Go loop's otherwise, and the
// routine goes on after the block. So an element's bits do not depend on
// its neighbours or its position.
func asmMathF32(k func(d, x unsafe.Pointer, n int) int, slow UnaryFunc) UnaryFunc {
	return asmMath(k, slow, 4)
}

// asmMathF64 is asmMathF32 for float64 routines (blocks of 4).
func asmMathF64(k func(d, x unsafe.Pointer, n int) int, slow UnaryFunc) UnaryFunc {
	return asmMath(k, slow, 8)
}

// oneScratch holds an element's vector of copies and the routine's
// result, each 64-byte aligned (a streaming routine's stores need it),
// from a pool: on the stack it would escape (k is a function value), and
// a heap block an element cost more than the routine.
type oneScratch [24]float64

var oneScratchPool = sync.Pool{New: func() any { return new(oneScratch) }}

// asmMath is asmMathF32 (size 4, blocks of 8) and asmMathF64 (size 8,
// blocks of 4).
func asmMath(k func(d, x unsafe.Pointer, n int) int, slow UnaryFunc, size int) UnaryFunc {
	lanes := 32 / size
	one := func(sc *oneScratch, d, kx, x unsafe.Pointer) {
		base := unsafe.Pointer(sc)
		in := unsafe.Add(base, (64-int(uintptr(base)&63))&63)
		out := unsafe.Add(in, 64)
		for i := 0; i < lanes; i++ {
			copy(unsafe.Slice((*byte)(unsafe.Add(in, i*size)), size), unsafe.Slice((*byte)(kx), size))
		}
		if k(out, in, lanes) == lanes {
			copy(unsafe.Slice((*byte)(d), size), unsafe.Slice((*byte)(out), size))
		} else {
			slow(d, x, 1)
		}
	}
	// run is the loop with k reading kin and slow reading xin
	run := func(d, kin, xin unsafe.Pointer, n int) {
		var sc *oneScratch
		for done := 0; done < n; {
			if m := (n - done) &^ (lanes - 1); m > 0 {
				done += k(unsafe.Add(d, size*done), unsafe.Add(kin, size*done), m)
			}
			if done < n && sc == nil {
				sc = oneScratchPool.Get().(*oneScratch)
			}
			for end := min(done+lanes, n); done < end; done++ {
				one(sc, unsafe.Add(d, size*done), unsafe.Add(kin, size*done), unsafe.Add(xin, size*done))
			}
		}
		if sc != nil {
			oneScratchPool.Put(sc)
		}
	}
	// data with NaNs in chunks (vmNaNChunks)
	return func(d, x unsafe.Pointer, n int) {
		done := 0
		if m := n &^ (lanes - 1); m > 0 {
			done = k(d, x, m)
		}
		if done < n {
			vmNaNChunks(run, slow, size, unsafe.Add(d, size*done), unsafe.Add(x, size*done), n-done)
		}
	}
}

// asmUnary runs whole vectors in assembly and the rest with the Go loop.
func asmUnary(k func(d, x unsafe.Pointer, n int), tail UnaryFunc, size, lanes int) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			k(d, x, m)
		}
		if m < n {
			tail(unsafe.Add(d, m*size), unsafe.Add(x, m*size), n-m)
		}
	}
}

// asmCompare is asmBinary for comparisons, whose results are bytes.
func asmCompare(k func(d, x, y unsafe.Pointer, n int), tail BinaryFunc, size, lanes int, form string) BinaryFunc {
	xs, ys := steps(size, form)
	return func(d, x, y unsafe.Pointer, n int) {
		m := n &^ (lanes - 1)
		if m > 0 {
			k(d, x, y, m)
		}
		if m < n {
			tail(unsafe.Add(d, m), unsafe.Add(x, m*xs), unsafe.Add(y, m*ys), n-m)
		}
	}
}

// asmBinaryNT streams the result with non-temporal stores: the Go loop
// writes up to the first 32-byte boundary of dst, assembly the aligned
// whole vectors, the Go loop the rest. Call Fence before the result is read
// by another goroutine.
func asmBinaryNT(k func(d, x, y unsafe.Pointer, n int), tail BinaryFunc, size, lanes int, form string) BinaryFunc {
	xs, ys := steps(size, form)
	return func(d, x, y unsafe.Pointer, n int) {
		h := 0
		if a := int(uintptr(d) & 31); a != 0 {
			if a%size != 0 { // not element aligned: no streaming
				tail(d, x, y, n)
				return
			}
			h = min(n, (32-a)/size)
			tail(d, x, y, h)
		}
		m := (n - h) &^ (lanes - 1)
		if m > 0 {
			k(unsafe.Add(d, h*size), unsafe.Add(x, h*xs), unsafe.Add(y, h*ys), m)
		}
		if h+m < n {
			tail(unsafe.Add(d, (h+m)*size), unsafe.Add(x, (h+m)*xs), unsafe.Add(y, (h+m)*ys), n-h-m)
		}
	}
}

// asmUnaryNT is asmBinaryNT for unary kernels: the Go loop up to the first
// 32-byte boundary of dst, streaming stores for the aligned whole vectors,
// the Go loop for the rest.
func asmUnaryNT(k func(d, x unsafe.Pointer, n int), tail UnaryFunc, size, lanes int) UnaryFunc {
	return func(d, x unsafe.Pointer, n int) {
		h := 0
		if a := int(uintptr(d) & 31); a != 0 {
			if a%size != 0 { // not element aligned: no streaming
				tail(d, x, n)
				return
			}
			h = min(n, (32-a)/size)
			tail(d, x, h)
		}
		m := (n - h) &^ (lanes - 1)
		if m > 0 {
			k(unsafe.Add(d, h*size), unsafe.Add(x, h*size), m)
		}
		if h+m < n {
			tail(unsafe.Add(d, (h+m)*size), unsafe.Add(x, (h+m)*size), n-h-m)
		}
	}
}

//go:noescape
func copyNTAVX2(dst, src unsafe.Pointer, n int)

//go:noescape
func copyNT4(dst, src unsafe.Pointer, n int)

func sfence()

// CopyNT copies n bytes from src to dst with non-temporal stores (plain
// copies below 256 bytes). Where dst is 4-byte aligned every store is
// non-temporal, the pieces before and after the 32-byte aligned body too,
// so that consecutive calls (the rows of a result whose rows are not a
// multiple of a cache line) fill each line with non-temporal stores alone:
// a line written partly by plain stores is read from memory first. Call
// Fence before another goroutine reads dst.
func CopyNT(dst, src unsafe.Pointer, n int) {
	if !Asm || n < 256 {
		copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
		return
	}
	streamCopy(dst, src, n)
}

// StreamPiece stores n bytes from src at dst with non-temporal stores
// only, whatever n (CopyNT without its plain copy of short pieces): for the
// pieces around a streamed run's aligned body, which must not be written by
// plain stores into lines the body's neighbours stream into. Call Fence
// before another goroutine reads dst.
func StreamPiece(dst, src unsafe.Pointer, n int) {
	if !Asm || n <= 0 {
		copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
		return
	}
	streamCopy(dst, src, n)
}

// streamCopy is CopyNT's and StreamPiece's copy: four bytes a store
// (MOVNTI) up to dst's first 32-byte boundary and after the last whole 32
// bytes, 32 a store between; where dst is not 4-byte aligned its head
// (up to the boundary) and the bytes after the body are copied plainly.
func streamCopy(dst, src unsafe.Pointer, n int) {
	by4 := uintptr(dst)&3 == 0
	at := 0
	if a := int(uintptr(dst) & 31); a != 0 {
		at = min(n, 32-a)
		if by4 {
			at &^= 3
			copyNT4(dst, src, at)
		} else {
			copy(unsafe.Slice((*byte)(dst), at), unsafe.Slice((*byte)(src), at))
		}
	}
	// dst+at is 32-byte aligned unless fewer than 4 bytes are left
	if m := (n - at) &^ 31; m > 0 {
		copyNTAVX2(unsafe.Add(dst, at), unsafe.Add(src, at), m)
		at += m
	}
	if r := (n - at) &^ 3; r > 0 && by4 {
		copyNT4(unsafe.Add(dst, at), unsafe.Add(src, at), r)
		at += r
	}
	if r := n - at; r > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(dst, at)), r), unsafe.Slice((*byte)(unsafe.Add(src, at)), r))
	}
}

// Fence orders this goroutine's non-temporal stores before its later
// stores (SFENCE), so that a result written with NT kernels is complete
// when the goroutine signals that it is done.
func Fence() {
	if Asm {
		sfence()
	}
}

//go:noescape
func accRowsF32AVX2(acc, x unsafe.Pointer, n, rows, stride int)

//go:noescape
func accRowsF64AVX2(acc, x unsafe.Pointer, n, rows, stride int)

func init() {
	if !Asm {
		return
	}
	rowsTable[Float32] = func(acc, x unsafe.Pointer, n, rows, stride int) {
		m := n &^ 7
		if m > 0 && rows > 0 {
			accRowsF32AVX2(acc, x, m, rows, stride*4)
		}
		if m < n && rows > 0 {
			accRowsGo[float32](unsafe.Add(acc, m*4), unsafe.Add(x, m*4), n-m, rows, stride)
		}
	}
	rowsTable[Float64] = func(acc, x unsafe.Pointer, n, rows, stride int) {
		m := n &^ 3
		if m > 0 && rows > 0 {
			accRowsF64AVX2(acc, x, m, rows, stride*8)
		}
		if m < n && rows > 0 {
			accRowsGo[float64](unsafe.Add(acc, m*8), unsafe.Add(x, m*8), n-m, rows, stride)
		}
	}
}

// asmSelect runs whole vectors of a fused select in assembly and the rest
// (and, streaming, the head up to 32-byte alignment) in Go.
func asmSelect[T float](k func(d, a, b, x, y unsafe.Pointer, n int), op Op, lanes int, bs, ys, nt bool) SelectCompareFunc {
	var z T
	size := int(unsafe.Sizeof(z))
	bstep, ystep := size, size
	if bs {
		bstep = 0
	}
	if ys {
		ystep = 0
	}
	return func(d, a, b, x, y unsafe.Pointer, n int) {
		h := 0
		if nt {
			if al := int(uintptr(d) & 31); al != 0 {
				if al%size != 0 {
					selectGo[T](op, d, a, b, x, y, n, bs, ys)
					return
				}
				h = min(n, (32-al)/size)
				selectGo[T](op, d, a, b, x, y, h, bs, ys)
			}
		}
		m := (n - h) &^ (lanes - 1)
		if m > 0 {
			k(unsafe.Add(d, h*size), unsafe.Add(a, h*size), unsafe.Add(b, h*bstep), unsafe.Add(x, h*size), unsafe.Add(y, h*ystep), m)
		}
		if r := n - h - m; r > 0 {
			o := h + m
			selectGo[T](op, unsafe.Add(d, o*size), unsafe.Add(a, o*size), unsafe.Add(b, o*bstep), unsafe.Add(x, o*size), unsafe.Add(y, o*ystep), r, bs, ys)
		}
	}
}

//go:noescape
func prefetchAVX2(p unsafe.Pointer, n int)

// Prefetch asks the CPU to bring the n bytes at p into cache (a hint: it
// never faults, even on addresses past an array's end).
func Prefetch(p unsafe.Pointer, n int) {
	if Asm {
		prefetchAVX2(p, n)
	}
}

// asmChain runs whole vectors of a fused two-op kernel in assembly and the
// rest (and, streaming, the head up to 32-byte alignment) in Go.
func asmChain[T float](k func(d, a, b, c unsafe.Pointer, n int), op1, op2 Op, lanes int, bs, cs, nt bool) ChainFunc {
	var z T
	size := int(unsafe.Sizeof(z))
	bstep, cstep := size, size
	if bs {
		bstep = 0
	}
	if cs {
		cstep = 0
	}
	return func(d, a, b, c unsafe.Pointer, n int) {
		h := 0
		if nt {
			if al := int(uintptr(d) & 31); al != 0 {
				if al%size != 0 {
					chainGo[T](op1, op2, d, a, b, c, n, bs, cs)
					return
				}
				h = min(n, (32-al)/size)
				chainGo[T](op1, op2, d, a, b, c, h, bs, cs)
			}
		}
		m := (n - h) &^ (lanes - 1)
		if m > 0 {
			k(unsafe.Add(d, h*size), unsafe.Add(a, h*size), unsafe.Add(b, h*bstep), unsafe.Add(c, h*cstep), m)
		}
		if r := n - h - m; r > 0 {
			o := h + m
			chainGo[T](op1, op2, unsafe.Add(d, o*size), unsafe.Add(a, o*size), unsafe.Add(b, o*bstep), unsafe.Add(c, o*cstep), r, bs, cs)
		}
	}
}
