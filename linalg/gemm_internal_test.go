package linalg

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"testing"
	"unsafe"
)

// layout is a matrix's strides in a buffer: row-major with a padded row,
// column-major, rows in reverse, or both axes strided.
type layout int

const (
	rowMajor layout = iota
	colMajor
	reversed
	strided
	numLayouts
)

// place returns a buffer holding the rows×cols matrix vals (row-major) in
// layout l, and its mat.
func place[T float32 | float64](vals []float64, rows, cols int, l layout) mat[T] {
	var rs, cs, off, size int
	switch l {
	case rowMajor:
		rs, cs = cols+3, 1
		size = rows * rs
	case colMajor:
		rs, cs = 1, rows+1
		size = cols * cs
	case reversed:
		rs, cs = -cols, 1
		off = (rows - 1) * cols
		size = rows * cols
	default:
		rs, cs = 3*cols+1, 3
		size = rows * rs
	}
	buf := make([]T, size+5)
	for i := range buf {
		buf[i] = T(math.NaN()) // the gaps must not be read
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			buf[off+i*rs+j*cs] = T(vals[i*cols+j])
		}
	}
	return mat[T]{buf, off, rs, cs}
}

// checkGemm runs g on an m×k by k×n product in the given layouts and
// compares with a float64 triple loop: every term of a float32 product is
// exact in float64, so the error is the float32 sums of at most kc terms
// (k·ε·Σ|a·b| each) and the rounding of the result.
func checkGemm[T float32 | float64](t *testing.T, rng *rand.Rand, s *gemmShape, m, n, k int, la, lb layout) {
	t.Helper()
	checkGemmIn[T](t, rng, s, m, n, k, la, lb, nil, false)
}

// checkGemmIn is checkGemm with A's and B's memory moved by relocate
// (when set) to where the product must read within it, and with ahead
// the tiles computed one call each, as in a batch that fetches the next
// product's operands.
func checkGemmIn[T float32 | float64](t *testing.T, rng *rand.Rand, s *gemmShape, m, n, k int, la, lb layout, relocate func([]T) []T, ahead bool) {
	t.Helper()
	av, bv := make([]float64, m*k), make([]float64, k*n)
	for i := range av {
		av[i] = float64(T(rng.NormFloat64()))
	}
	for i := range bv {
		bv[i] = float64(T(rng.NormFloat64()))
	}
	a, b := place[T](av, m, k, la), place[T](bv, k, n, lb)
	if relocate != nil {
		a.buf, b.buf = relocate(a.buf), relocate(b.buf)
	}
	ldc := n + 2
	c := make([]T, m*ldc)
	for i := range c {
		c[i] = 7 // overwritten, the gaps kept
	}
	g := &gemmCtx[T]{s: s, tile: make([]T, s.mr*s.nr), tile64: make([]float64, s.mr*s.nr)}
	if ahead {
		g.aheadPer = 1 // nothing to fetch: g.ahead is empty
	}
	g.run(m, n, k, a, b, c, ldc)
	var z T
	eps := 0x1p-53
	if any(z) == any(float32(0)) {
		eps = 0x1p-24
	}
	msg := fmt.Sprintf("%T mr %d kc %d mc %d nc %d direct %d: %dx%dx%d layouts %d %d", z, s.mr, s.kc, s.mc, s.nc, s.direct, m, n, k, la, lb)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			want, mag := 0.0, 0.0
			for p := 0; p < k; p++ {
				want += av[i*k+p] * bv[p*n+j]
				mag += math.Abs(av[i*k+p] * bv[p*n+j])
			}
			got := float64(c[i*ldc+j])
			bound := eps*math.Abs(want) + float64(min(k, s.block())+1)*eps*mag
			if !(math.Abs(got-want) <= bound) {
				t.Fatalf("%s: C[%d,%d] = %v, want %v (bound %g)", msg, i, j, got, want, bound)
			}
		}
		for j := n; j < ldc; j++ {
			if c[i*ldc+j] != 7 {
				t.Fatalf("%s: C[%d,%d] past the row written: %v", msg, i, j, c[i*ldc+j])
			}
		}
	}
}

// shapesFor are the kernels' blockings as used (also of the kernels this
// CPU has but does not use, and of the Go kernel), the same with blocks small
// enough that small products cross every block edge (for float32, the
// float64 sums of blocks of k, also of blocks shorter than kc, rounded by
// the kernel or by a pass of their own), each read in place and packed.
func shapesFor(s gemmShape, others []gemmShape, goKern gemmKernel) []gemmShape {
	var out, base []gemmShape
	for _, x := range append([]gemmShape{s, goShape(goKern)}, others...) {
		tiny := x
		tiny.kc, tiny.mc, tiny.nc, tiny.kb = 7, 2*x.mr, 2*x.nr, 0
		chunked := tiny // float32: blocks of k of 12 summed 5 terms at a time
		chunked.kc, chunked.kb = 12, 5
		base = append(base, x, tiny, chunked)
		if x.round { // also the float64 sums rounded by a pass of their own
			for _, y := range []gemmShape{tiny, chunked} {
				y.round = false
				base = append(base, y)
			}
		}
	}
	for _, x := range base {
		for _, d := range []int{0, math.MaxInt} {
			x.direct = d
			out = append(out, x)
		}
	}
	return out
}

// dimsFor are the sizes tried: 1 to 300 with the tile's multiples, their
// neighbours, primes, and sizes that end in 4 or 8 rows (the smaller
// kernels without padding).
func dimsFor(tile int) []int {
	d := []int{1, 2, 3, 4, 5, 8, 13, 31, 64, 67, 127, 257, 260, 293}
	for _, q := range []int{1, 2, 5} {
		d = append(d, q*tile-1, q*tile, q*tile+1)
	}
	return d
}

func pick(rng *rand.Rand, d []int) int { return d[rng.Intn(len(d))] }

// raceIters is n, or a quarter of it under the race detector.
func raceIters(n int) int {
	if raceOn {
		return max(1, n/4)
	}
	return n
}

func TestGemmKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(20))
	o64, o32 := otherShapes()
	for _, s := range shapesFor(gemmF64, o64, goKernel[float64]) {
		for it := 0; it < raceIters(30); it++ {
			m := pick(rng, dimsFor(s.mr))
			n := pick(rng, dimsFor(s.nr))
			k := pick(rng, dimsFor(s.kc))
			checkGemm[float64](t, rng, &s, m, n, k, layout(rng.Intn(int(numLayouts))), layout(rng.Intn(int(numLayouts))))
		}
	}
	for _, s := range shapesFor(gemmF32, o32, goKernel[float32]) {
		for it := 0; it < raceIters(30); it++ {
			m := pick(rng, dimsFor(s.mr))
			n := pick(rng, dimsFor(s.nr))
			k := pick(rng, dimsFor(s.kc))
			checkGemm[float32](t, rng, &s, m, n, k, layout(rng.Intn(int(numLayouts))), layout(rng.Intn(int(numLayouts))))
		}
	}
}

// TestGemmLarge: products past one block of every kind with the blocking
// in use, every layout of A and B.
func TestGemmLarge(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("large products")
	}
	rng := rand.New(rand.NewSource(21))
	for la := layout(0); la < numLayouts; la++ {
		lb := (la + 1) % numLayouts
		checkGemm[float64](t, rng, &gemmF64, 2*gemmF64.mc+int(la)+5, 300+int(lb), gemmF64.kc+int(la)+100, la, lb)
		checkGemm[float32](t, rng, &gemmF32, 2*gemmF32.mc+int(lb)+3, 290, 3*gemmF32.kc+int(la), la, lb)
	}
	// past a block of columns
	checkGemm[float64](t, rng, &gemmF64, 30, gemmF64.nc+30, 300, rowMajor, colMajor)
	checkGemm[float32](t, rng, &gemmF32, 29, gemmF32.nc+33, 300, rowMajor, rowMajor)
}

// TestGemmAInPlace: products whose A (rows contiguous, at most direct
// bytes) is read in place while B is packed (B too large to be read in
// place, or its rows not contiguous), with the blocking in use: the vocab
// harness's 256×256 float32, neighbours with edge tiles, k past kc.
func TestGemmAInPlace(t *testing.T) {
	rng := rand.New(rand.NewSource(24))
	for _, la := range []layout{rowMajor, reversed} {
		for _, lb := range []layout{rowMajor, colMajor, strided} {
			checkGemm[float32](t, rng, &gemmF32, 256, 256, 256, la, lb)
			checkGemm[float32](t, rng, &gemmF32, 253, 301, 250, la, lb)
			checkGemm[float32](t, rng, &gemmF32, 5, 700, 100, la, lb)
			checkGemm[float64](t, rng, &gemmF64, 127, 261, 250, la, lb)
			checkGemm[float64](t, rng, &gemmF64, 7, 520, 33, la, lb)
			// k past a block of kc
			checkGemm[float32](t, rng, &gemmF32, 101, 70, 600, la, lb)
			checkGemm[float64](t, rng, &gemmF64, 100, 90, 300, la, lb)
		}
	}
}

// TestPackAsm: the assembly packing routines (when this build has them)
// give the Go loops' panels bit for bit, for panels of 6 and 12 rows and
// of 64 and 128 bytes, every layout (row- and column-major A and B), every k from 1 to 41 and block
// offsets that leave elements before and after unread.
func TestPackAsm(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	if gemmF64.packRows == nil && len(panelPackers) == 0 {
		t.Skip("no assembly packing in this build")
	}
	testPackAsm[float64](t, rng, gemmF64, 8)
	testPackAsm[float32](t, rng, gemmF32, 4)
}

func testPackAsm[T float32 | float64](t *testing.T, rng *rand.Rand, base gemmShape, esz int) {
	bits := func(v []T) []uint64 {
		out := make([]uint64, len(v))
		for i, x := range v {
			if esz == 8 {
				out[i] = math.Float64bits(float64(x))
			} else {
				out[i] = uint64(math.Float32bits(float32(x)))
			}
		}
		return out
	}
	for _, mr := range []int{6, 12} {
		for _, width := range []int{64, 128} {
			nr := width / esz
			fast := gemmShape{mr: mr, nr: nr, packRows: base.packRows, packCols: base.packCols, packPanels: panelPackers[width], packTrans: base.packTrans}
			slow := gemmShape{mr: mr, nr: nr}
			for it := 0; it < 60; it++ {
				kc := 1 + rng.Intn(41)
				mc := mr*(1+rng.Intn(3)) + rng.Intn(mr) // full panels and an edge one
				nc := nr*(1+rng.Intn(3)) + rng.Intn(nr)
				ic, pc, jc := rng.Intn(3), rng.Intn(3), rng.Intn(3)
				rows, cols := ic+mc+2, pc+kc+2
				av := make([]float64, rows*cols)
				for i := range av {
					av[i] = rng.NormFloat64()
				}
				if it%7 == 0 {
					av[rng.Intn(len(av))] = math.NaN()
					av[rng.Intn(len(av))] = math.Copysign(0, -1)
					av[rng.Intn(len(av))] = 5e-324
				}
				la, lb := layout(rng.Intn(int(numLayouts))), layout(rng.Intn(int(numLayouts)))
				a := place[T](av, rows, cols, la)
				bv := make([]float64, (pc+kc+2)*(jc+nc+2))
				for i := range bv {
					bv[i] = rng.NormFloat64()
				}
				b := place[T](bv, pc+kc+2, jc+nc+2, lb)
				msg := fmt.Sprintf("%T mr %d nr %d: mc %d kc %d nc %d at %d,%d,%d layouts %d %d", T(0), mr, nr, mc, kc, nc, ic, pc, jc, la, lb)
				gf, gs := &gemmCtx[T]{s: &fast}, &gemmCtx[T]{s: &slow}
				want, got := make([]T, roundUp(mc, mr)*kc), make([]T, roundUp(mc, mr)*kc)
				for i := range got {
					got[i], want[i] = 9, 9
				}
				gs.packA(a, ic, pc, mc, kc, want)
				gf.packA(a, ic, pc, mc, kc, got)
				if !slices.Equal(bits(got), bits(want)) {
					t.Fatalf("packA %s:\ngot  %v\nwant %v", msg, got, want)
				}
				want, got = make([]T, roundUp(nc, nr)*kc+3), make([]T, roundUp(nc, nr)*kc+3)
				for i := range got {
					got[i], want[i] = 9, 9
				}
				gs.packB(b, pc, jc, kc, nc, want)
				gf.packB(b, pc, jc, kc, nc, got)
				if !slices.Equal(bits(got), bits(want)) {
					t.Fatalf("packB %s:\ngot  %v\nwant %v", msg, got, want)
				}
			}
		}
	}
}

// TestGemmTiled: a shape's tiled kernel (tiled, or one, when it has one)
// gives what its kernel gives tile by tile (float32: run by run, in runs
// of any length, tiledOf's order), bit for bit, in every mode, over 1 to 7 tiles
// of packed panels and of panels read in place (A's rows or columns
// contiguous), C and c2 with rows apart, and leaves the memory around the
// tiles alone; its prefetches are of lines inside B.
func TestGemmTiled(t *testing.T) {
	rng := rand.New(rand.NewSource(25))
	if gemmF64.tiled == nil && gemmF32.tiled == nil && gemmF64.one == nil && gemmF32.one == nil {
		t.Skip("no tiled kernel")
	}
	testGemmTiled[float64](t, rng, gemmF64)
	testGemmTiled[float32](t, rng, gemmF32)
}

func testGemmTiled[T float32 | float64](t *testing.T, rng *rand.Rand, s gemmShape) {
	tiled := s.tiled
	if tiled == nil {
		tiled = s.one
	}
	if tiled == nil {
		return
	}
	var z T
	esz := int(unsafe.Sizeof(z))
	mr, nr := s.mr, s.nr
	for it := 0; it < raceIters(200); it++ {
		k := 1 + rng.Intn(40)
		if rng.Intn(4) == 0 {
			k = 1 + rng.Intn(1100) // runs of the shapes' kb (256, 512) and more
		}
		tiles := 1 + rng.Intn(7)
		mode := rng.Intn(2)
		if esz == 4 {
			mode = rng.Intn(5)
		}
		// A: packed panels, or in place with rows (or columns) contiguous
		var ars, astep, apan int
		switch rng.Intn(3) {
		case 0:
			ars, astep, apan = 1, mr, mr*k
		case 1:
			lda := k + rng.Intn(3)
			ars, astep, apan = lda, 1, mr*lda
		default:
			lda := tiles*mr + rng.Intn(3)
			ars, astep, apan = 1, lda, mr
		}
		abuf := make([]T, tiles*apan+k*astep+mr*ars)
		for i := range abuf {
			abuf[i] = T(rng.NormFloat64())
		}
		bstep := nr + rng.Intn(2)*(3+rng.Intn(5))
		bbuf := make([]T, k*bstep+nr)
		for i := range bbuf {
			bbuf[i] = T(rng.NormFloat64())
		}
		// C (float64 sums for the widening modes) and c2, rows apart
		csz := esz
		if mode >= 2 {
			csz = 8
		}
		ldc, ldc2 := nr+rng.Intn(4), nr+rng.Intn(4)
		rows := tiles*mr + 1
		fill := func(n int) []byte {
			b := make([]byte, n)
			for i := 0; i < n; i += 8 {
				v := math.Float64bits(rng.NormFloat64())
				for j := 0; j < 8 && i+j < n; j++ {
					b[i+j] = byte(v >> (8 * j))
				}
			}
			return b
		}
		c0, c20 := fill(rows*ldc*csz), fill(rows*ldc2*esz)
		want, got := slices.Clone(c0), slices.Clone(c0)
		want2, got2 := slices.Clone(c20), slices.Clone(c20)
		var pw2, pg2 unsafe.Pointer
		if mode == 4 {
			pw2, pg2 = unsafe.Pointer(&want2[0]), unsafe.Pointer(&got2[0])
		}
		ap, bp := unsafe.Pointer(&abuf[0]), unsafe.Pointer(&bbuf[0])
		// float32 sums each tile in runs of kb steps (float64: all of k)
		kb := k
		if esz == 4 && rng.Intn(3) > 0 {
			kb = 1 + rng.Intn(k+2)
		}
		c2pan := 0
		if pw2 != nil {
			c2pan = mr * ldc2 * esz
		}
		// the reference: the kernel tile by tile, run by run
		tiledOf(s.kern, s.mr, s.nr, s.pair)(k, ap, ars*esz, astep*esz, bp, bstep*esz, unsafe.Pointer(&want[0]), ldc*csz, mode, pw2, ldc2*esz,
			tiles, apan*esz, mr*ldc*csz, c2pan, nil, 0, kb)
		pfstep := rng.Intn(len(bbuf) * esz / max(1, tiles*k))
		tiled(k, ap, ars*esz, astep*esz, bp, bstep*esz, unsafe.Pointer(&got[0]), ldc*csz, mode, pg2, ldc2*esz,
			tiles, apan*esz, mr*ldc*csz, c2pan, bp, pfstep, kb)
		if !slices.Equal(got, want) || !slices.Equal(got2, want2) {
			t.Fatalf("%T tiled kernel: k %d in runs of %d, %d tiles, mode %d, A steps %d %d %d, bstep %d, ldc %d %d: not the kernel's tiles", z, k, kb, tiles, mode, ars, astep, apan, bstep, ldc, ldc2)
		}
	}
}
