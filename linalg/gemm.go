package linalg

import (
	"sync"
	"unsafe"

	"github.com/stride0/stride0/array"
)

//go:generate go run gemmgen.go

// gemmKernel computes one mr×nr tile of C (see gemmgen.go): k steps over
// A, element (i, p) at a + i·ars + p·astep bytes, and B, row p of the
// tile's nr columns at b + p·bstep (contiguous); c is the tile's first
// element and ldc the bytes between its rows. mode 0 stores the tile, 1
// adds it to C; for float32 2 stores it widened to float64, 3 adds it
// widened (C is then float64), and 4 (when the shape's round is set)
// widens it, adds the float64 tile at c and stores the sums rounded to
// float32 at c2, rows ldc2 bytes apart.
type gemmKernel func(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int)

// gemmTiled is a gemmKernel over tiles tiles down a panel of B, one after
// the other: each tile's A, C and c2 are apan, cpan and c2pan bytes after
// the previous one's (c2pan 0 when c2 is nil). Every step of k fetches
// into L2 the line at pf, which moves on pfstep bytes a step (the slices
// of the next panel of B). A float32 tiled kernel (gemmShape.one) sums
// each tile in runs of kb > 0 steps by tileRuns' rule, in pairs;
// float64's (gemmShape.tiled) runs all of k at once.
type gemmTiled func(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int, tiles, apan, cpan, c2pan int, pf unsafe.Pointer, pfstep int, kb int)

// tiledOf is kern, a kernel of rows×nr tiles, as a gemmTiled (its
// prefetches left out), its runs paired when pair is set.
func tiledOf(kern gemmKernel, rows, nr int, pair bool) gemmTiled {
	return func(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int, tiles, apan, cpan, c2pan int, pf unsafe.Pointer, pfstep int, kb int) {
		scratch := make([]float32, rows*nr) // a call's own: goroutines share the func
		for t := 0; t < tiles; t++ {
			var c2t unsafe.Pointer
			if c2 != nil {
				c2t = unsafe.Add(c2, t*c2pan)
			}
			r := tileRuns{kb: kb, pair: pair, rows: rows, nr: nr, scratch: scratch}
			r.run(kern, k, unsafe.Add(a, t*apan), ars, astep, b, bstep, unsafe.Add(c, t*cpan), ldc, mode, c2t, ldc2)
		}
	}
}

// tileRuns is how a float32 tile summed in float64 (mode 2 or more) is
// computed, the rule of the float32 tiled kernels: in runs of kb steps
// (kb <= 0: one run), the first run in mode, the others added to it (1,
// or 3 when widened), and the last of a widened tile rounded into c2 (4)
// when c2 is set. With pair, the runs of a widened tile go in pairs: the
// first's float32 tile is kept (in scratch, rows×nr), the second's added
// to it in float32, and the sum goes on as one run (the error of a float32
// sum of kb terms, and one rounding more, at the cost of half the widened
// additions); a last run without a partner goes alone.
type tileRuns struct {
	kb       int
	pair     bool
	rows, nr int
	scratch  []float32
}

func (r tileRuns) run(kern gemmKernel, k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int) {
	kb := r.kb
	if kb <= 0 {
		kb = k
	}
	md, kept := mode, false
	for q := 0; q < k; q += kb {
		kq := min(kb, k-q)
		m := md
		if q+kq == k && m >= 2 && c2 != nil {
			m = 4
		}
		aq, bq := unsafe.Add(a, q*astep), unsafe.Add(b, q*bstep)
		switch {
		case r.pair && md >= 2 && !kept && q+kq < k:
			kern(kq, aq, ars, astep, bq, bstep, unsafe.Pointer(&r.scratch[0]), r.nr*4, 0, nil, 0)
			kept = true
			continue
		case kept:
			kern(kq, aq, ars, astep, bq, bstep, unsafe.Pointer(&r.scratch[0]), r.nr*4, 1, nil, 0)
			kept = false
			r.widen(c, ldc, m, c2, ldc2)
		default:
			kern(kq, aq, ars, astep, bq, bstep, c, ldc, m, c2, ldc2)
		}
		if md < 2 {
			md = 1
		} else {
			md = 3
		}
	}
}

// widen does to the float32 tile in scratch what a kernel's mode 2, 3 or
// 4 does to its registers.
func (r tileRuns) widen(c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int) {
	for i := 0; i < r.rows; i++ {
		src := r.scratch[i*r.nr : (i+1)*r.nr]
		row := unsafe.Slice((*float64)(unsafe.Add(c, i*ldc)), r.nr)
		switch mode {
		case 2:
			for j, v := range src {
				row[j] = float64(v)
			}
		case 3:
			for j, v := range src {
				row[j] += float64(v)
			}
		default:
			out := unsafe.Slice((*float32)(unsafe.Add(c2, i*ldc2)), r.nr)
			for j, v := range src {
				out[j] = float32(float64(v) + row[j])
			}
		}
	}
}

// gemmShape is a micro-kernel and the blocking around it: the tile is
// mr×nr; k is cut into blocks of kc (the packed kc×nr panel of B stays in
// L1), the rows into blocks of mc (the packed mc×kc block of A stays in
// L2) and the columns into blocks of nc. Products whose operands take at
// most direct bytes are read in place when B's rows are contiguous (only
// the edge panels are packed); an A of at most direct bytes whose rows are
// contiguous is read in place also when B is packed.
type gemmShape struct {
	mr, nr, kc, mc, nc int
	direct             int
	kern               gemmKernel
	// tiled, when set, is kern over the tiles down a panel of B
	tiled gemmTiled
	// one, when set (and tiled is not), is kern as a gemmTiled that sums
	// each tile in runs (float32): macro hands it the whole tiles down a
	// panel of B, each tile's whole block of k before the next, and it
	// fetches the next panel of B a line a step of k
	one gemmTiled
	// kb, when set, is for float32 the most terms of k summed in float32
	// (at most 256): a block of kc is then computed kb at a time, each
	// added in float64 to the tile, which stays in L1 (else kb is kc)
	kb int
	// pair: those runs go in pairs, summed in float32 before the float64
	// addition (tileRuns); the AVX2 tiled kernel does it
	pair bool
	// round: the kernels have mode 4, so the last block of k of a float32
	// product summed in float64 is rounded into C by the kernel (else a
	// pass over the column block rounds the float64 sums)
	round bool
	// for a panel of r < mr rows (the last of a matrix), rowKern[r] is the
	// kernel of rowsOf[r] >= r rows to use (kern and mr when none is
	// smaller)
	rowKern []gemmKernel
	rowsOf  []int
	// prefetch: while the micro-kernel goes down the panels of A with one
	// packed panel of B, the next panel of B is fetched into L2, a slice
	// before each tile (the block of B is in L3)
	prefetch bool
	// packRows and packCols, when set, pack six rows of A (mr a multiple
	// of six) read along k (A's rows contiguous) or along the rows (A's
	// columns contiguous), step p's six values to dst + p·dstep bytes;
	// packPanels, when set, packs panels of B whose rows are contiguous
	// (nr·size bytes of 64 or 128). See gemmgen.go.
	packRows, packCols func(dst, src unsafe.Pointer, lda, kc, dstep int)
	packPanels         func(dst, src unsafe.Pointer, ldb, kc, panels, pstride int)
	// packTrans, when set, packs eight columns of a B whose columns are
	// contiguous (nr a multiple of eight), step p's eight values to
	// dst + p·dstep bytes
	packTrans func(dst, src unsafe.Pointer, ld, kc, dstep int)
}

// block is the most terms of k a float32 kernel call sums in float32.
func (s *gemmShape) block() int {
	if s.kb > 0 {
		return min(s.kb, s.kc)
	}
	return s.kc
}

// edges sets rowKern and rowsOf from kernels of fewer rows than mr.
func (s *gemmShape) edges(small map[int]gemmKernel) {
	s.rowKern = make([]gemmKernel, s.mr+1)
	s.rowsOf = make([]int, s.mr+1)
	for r := s.mr; r >= 1; r-- {
		s.rowKern[r], s.rowsOf[r] = s.kern, s.mr
		if r < s.mr {
			s.rowKern[r], s.rowsOf[r] = s.rowKern[r+1], s.rowsOf[r+1]
		}
		if f, ok := small[r]; ok {
			s.rowKern[r], s.rowsOf[r] = f, r
		}
	}
}

// gemmF64 and gemmF32 are set by gemm_amd64.go (AVX-512 or AVX2 with FMA)
// or gemm_other.go (the Go kernel). For float32, kc (or kb) is at most 256: each
// block of k is summed in float32 and, when k has more than one block, the
// blocks are summed in float64 (see gemmCtx.run).
var gemmF64, gemmF32 gemmShape

// The Go micro-kernel's tile.
const goMR, goNR = 4, 4

// goKernel is the micro-kernel in Go, for every machine: the same
// arithmetic as the assembly ones (a float32 tile sums in float32) but
// multiply and add are separate operations where Go does not fuse them.
func goKernel[T float32 | float64](k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int) {
	var acc [goMR][goNR]T
	for p := 0; p < k; p++ {
		bv := (*[goNR]T)(unsafe.Add(b, p*bstep))
		ap := unsafe.Add(a, p*astep)
		for i := range acc {
			x := *(*T)(unsafe.Add(ap, i*ars))
			acc[i][0] += x * bv[0]
			acc[i][1] += x * bv[1]
			acc[i][2] += x * bv[2]
			acc[i][3] += x * bv[3]
		}
	}
	for i := range acc {
		row := unsafe.Add(c, i*ldc)
		switch mode {
		case 0, 1:
			dst := (*[goNR]T)(row)
			for j, v := range acc[i] {
				if mode == 1 {
					v += dst[j]
				}
				dst[j] = v
			}
		case 4:
			src := (*[goNR]float64)(row)
			dst := (*[goNR]T)(unsafe.Add(c2, i*ldc2))
			for j, v := range acc[i] {
				dst[j] = T(float64(v) + src[j])
			}
		default:
			dst := (*[goNR]float64)(row)
			for j, v := range acc[i] {
				w := float64(v)
				if mode == 3 {
					w += dst[j]
				}
				dst[j] = w
			}
		}
	}
}

// mat is one matrix operand: element (i, j) is buf[off+i*rs+j*cs].
type mat[T float32 | float64] struct {
	buf         []T
	off, rs, cs int
}

// gemmCtx is one goroutine's packing buffers, reused from call to call.
type gemmCtx[T float32 | float64] struct {
	s      *gemmShape
	ap, bp []T       // the packed block of A and of B
	c64    []float64 // float32 with k > kc: the float64 sums of a column block
	tile   []T       // an edge tile
	tile64 []float64
	// scratch32 is the first float32 run of a pair (tileRuns), made on
	// first use
	scratch32 []float32
	// ahead is memory the next product reads or writes (a batch's next
	// operands and result), fetched into L2 a slice of aheadPer lines
	// before each tile of this one
	ahead    [3]span
	aheadPer int
}

// span is a run of cache lines to prefetch: lines lines from p, of which
// done are fetched.
type span struct {
	p           unsafe.Pointer
	done, lines int
}

// fetchAhead prefetches up to n lines of g.ahead into L2.
func (g *gemmCtx[T]) fetchAhead(n int) {
	for i := range g.ahead {
		sp := &g.ahead[i]
		q := min(n, sp.lines-sp.done)
		if q <= 0 {
			continue
		}
		prefetchL2(unsafe.Add(sp.p, sp.done*64), q)
		sp.done += q
		if n -= q; n == 0 {
			return
		}
	}
}

var gemmPools = [2]sync.Pool{}

func getCtx[T float32 | float64]() *gemmCtx[T] {
	var z T
	wide := unsafe.Sizeof(z) == 8
	pool := &gemmPools[0]
	if wide {
		pool = &gemmPools[1]
	}
	if g, ok := pool.Get().(*gemmCtx[T]); ok {
		return g
	}
	g := &gemmCtx[T]{s: &gemmF32}
	if wide {
		g.s = &gemmF64
	}
	g.tile = make([]T, g.s.mr*g.s.nr)
	g.tile64 = make([]float64, g.s.mr*g.s.nr)
	return g
}

func putCtx[T float32 | float64](g *gemmCtx[T]) {
	var z T
	if unsafe.Sizeof(z) == 8 {
		gemmPools[1].Put(g)
	} else {
		gemmPools[0].Put(g)
	}
}

// aligned returns a slice of n elements starting on a 64-byte boundary,
// reusing buf when it is large enough.
func aligned[T float32 | float64](buf []T, n int) []T {
	if cap(buf) >= n && uintptr(unsafe.Pointer(unsafe.SliceData(buf)))%64 == 0 {
		return buf[:n]
	}
	var z T
	sz := int(unsafe.Sizeof(z))
	raw := make([]T, n+64/sz)
	skip := 0
	if r := int(uintptr(unsafe.Pointer(&raw[0])) % 64); r != 0 {
		skip = (64 - r) / sz
	}
	return raw[skip : skip+n : skip+n]
}

func roundUp(x, m int) int { return (x + m - 1) / m * m }

// sumsStride is the row stride, in elements, of the float64 sums of a
// float32 product's column block of nc columns: nc, or nc+24 when rows
// nc apart would be a multiple of 1 KiB apart. A tile's rows then fall in
// different sets of the L1 cache: with rows 16 KiB apart (2048 columns)
// the twelve lines of a 6×16 tile of sums shared two sets with the panels
// streaming past them, and the macro-kernel lost 1.6 points of the FMA
// peak (TestTuneMacro, "pad").
func sumsStride(nc int) int {
	if nc*8%1024 == 0 {
		return nc + 24
	}
	return nc
}

// run computes C = A·B: A is m×k, B k×n, C m×n at c with rows ldc apart.
// m, n and k are positive.
func (g *gemmCtx[T]) run(m, n, k int, a, b mat[T], c []T, ldc int) {
	s := g.s
	var z T
	esz := int(unsafe.Sizeof(z))
	wide := esz == 4 && k > s.block() // float32 blocks summed in float64
	direct := b.cs == 1 && (m*k+k*n)*esz <= s.direct
	directA := direct || a.cs == 1 && m*k*esz <= s.direct
	g.ap = aligned(g.ap, roundUp(min(m, s.mc), s.mr)*min(k, s.kc))
	g.bp = aligned(g.bp, roundUp(min(n, s.nc), s.nr)*min(k, s.kc))
	mac := g.macro
	if s.tiled != nil {
		mac = g.macroT
	}
	for jc := 0; jc < n; jc += s.nc {
		nc := min(s.nc, n-jc)
		ld64 := sumsStride(nc) // the float64 sums' rows
		if wide {
			if cap(g.c64) < m*ld64 {
				g.c64 = make([]float64, m*ld64)
			}
			g.c64 = g.c64[:m*ld64]
		}
		for pc := 0; pc < k; pc += s.kc {
			kc := min(s.kc, k-pc)
			switch {
			case !direct:
				g.packB(b, pc, jc, kc, nc, g.bp)
			case nc%s.nr != 0: // the edge panel only
				j := nc / s.nr * s.nr
				g.packB(b, pc, jc+j, kc, nc-j, g.bp)
			}
			for ic := 0; ic < m; ic += s.mc {
				mc := min(s.mc, m-ic)
				switch {
				case !directA:
					g.packA(a, ic, pc, mc, kc, g.ap)
				case mc%s.mr != 0 && s.rowsOf[mc%s.mr] != mc%s.mr: // a padded edge panel
					i := mc / s.mr * s.mr
					g.packA(a, ic+i, pc, mc-i, kc, g.ap)
				}
				cij := unsafe.Pointer(&c[ic*ldc+jc])
				if !wide {
					mode := 1
					if pc == 0 {
						mode = 0
					}
					mac(a, b, directA, direct, ic, jc, pc, mc, nc, kc, cij, ldc, esz, mode, nil, 0)
					continue
				}
				mode := 3
				if pc == 0 {
					mode = 2
				}
				var c2 unsafe.Pointer // the last block of k: rounded into C
				if pc+kc == k && s.round {
					c2 = cij
				}
				mac(a, b, directA, direct, ic, jc, pc, mc, nc, kc, unsafe.Pointer(&g.c64[ic*ld64]), ld64, 8, mode, c2, ldc)
			}
		}
		if wide && !s.round {
			for i := 0; i < m; i++ {
				src := g.c64[i*ld64 : i*ld64+nc]
				dst := c[i*ldc+jc : i*ldc+jc+nc]
				for j, v := range src {
					dst[j] = T(v)
				}
			}
		}
	}
}

// macroT runs the micro-kernel over the mc×kc block of A at (ic, pc) and
// the kc×nc block of B at (pc, jc), packed in g.ap and g.bp or (directA,
// direct) read in place but for the edge panels, packed first in g.ap and
// g.bp.
// c is C's element (ic, jc), rows ldc elements of csz bytes apart; mode is
// the kernel's (0 or 1, or for float32 summed in float64 2 or 3). c2, when
// set, is C's element (ic, jc) when c is the float64 sums: this block of k
// is the last, and the sums are rounded into C (rows ldc2 elements apart).
//
// For each panel of B, the tiles of a kernel of their own rows (all but a
// padded last one, when the panel is full width) are computed in place:
// the whole ones by the shape's tiled kernel when it has one, one call
// for the panel. A float32 block of k longer than a kernel's sum (mode 2
// or 3) is computed s.block() steps at a time, each run over every one of
// those tiles before the next, so that the panel's run of B stays in L1
// and the panel's float64 sums (mc×nr) in L2 (no shape in use does this
// today: the float32 shapes have no tiled kernel and go through macro,
// whose runs pair as tileRuns says; these runs do not pair, so a float32
// shape given one would sum in another order). The other tiles go through
// a scratch tile (g.tile, g.tile64), all of k at once.
func (g *gemmCtx[T]) macroT(a, b mat[T], directA, direct bool, ic, jc, pc, mc, nc, kc int, c unsafe.Pointer, ldc, csz, mode int, c2 unsafe.Pointer, ldc2 int) {
	s := g.s
	mr, nr := s.mr, s.nr
	var z T
	esz := int(unsafe.Sizeof(z))
	k0 := kc // the steps of a run
	if mode >= 2 {
		k0 = s.block()
	}
	runs := (kc + k0 - 1) / k0
	tiles := (mc + mr - 1) / mr
	// the whole tiles go to the tiled kernel unless the tiles are to fetch
	// the next product's memory (a batch), a slice before each
	tiled := s.tiled
	if g.aheadPer > 0 {
		tiled = nil
	}
	for jr := 0; jr < nc; jr += nr {
		nrr := min(nr, nc-jr)
		var bp unsafe.Pointer
		bstep := nr * esz
		switch {
		case !direct:
			bp = unsafe.Pointer(&g.bp[jr*kc])
		case nrr < nr:
			bp = unsafe.Pointer(&g.bp[0])
		default:
			bp = unsafe.Pointer(&b.buf[b.off+pc*b.rs+jc+jr])
			bstep = b.rs * esz
		}
		// rows [0, own) are computed in place
		own := 0
		if nrr == nr {
			own = mc
			if r := mc % mr; r != 0 && s.rowsOf[r] != r {
				own = mc - r
			}
		}
		ownTiles := (own + mr - 1) / mr
		// the next panel of B, a slice of per lines before each call
		var next unsafe.Pointer
		lines, per, done := 0, 0, 0
		if s.prefetch && !direct && jr+nr < nc {
			next = unsafe.Pointer(&g.bp[(jr+nr)*kc])
			lines = kc * nr * esz / 64
			calls := ownTiles*runs + tiles - ownTiles
			per = (lines + calls - 1) / calls
		}
		for q := 0; q < kc && own > 0; q += k0 {
			kq := min(k0, kc-q)
			md, last := mode, c2
			if q > 0 {
				md = 3
			}
			if q+kq < kc {
				last = nil
			} else if last != nil {
				md = 4
			}
			ir := 0
			if whole := own / mr; tiled != nil && whole > 0 {
				ap, ars, astep, apan := unsafe.Pointer(&g.ap[0]), esz, mr*esz, mr*kc*esz
				if directA {
					ap = unsafe.Pointer(&a.buf[a.off+ic*a.rs+pc*a.cs])
					ars, astep, apan = a.rs*esz, a.cs*esz, mr*a.rs*esz
				}
				var dst2 unsafe.Pointer
				c2pan := 0 // c2 stays nil
				if last != nil {
					dst2, c2pan = unsafe.Add(last, jr*esz), mr*ldc2*esz
				}
				// these tiles' share of the next panel, spread over their
				// steps (without one, the line at B is fetched again)
				pf, pfstep := unsafe.Add(bp, q*bstep), 0
				if n := min(per*whole, lines-done); n > 0 {
					pf, pfstep = unsafe.Add(next, done*64), (n*64+whole*kq-1)/(whole*kq)
					done += n
				}
				tiled(kq, unsafe.Add(ap, q*astep), ars, astep, unsafe.Add(bp, q*bstep), bstep, unsafe.Add(c, jr*csz), ldc*csz, md, dst2, ldc2*esz,
					whole, apan, mr*ldc*csz, c2pan, pf, pfstep, kq)
				ir = whole * mr
			}
			for ; ir < own; ir += mr {
				if q == 0 && g.aheadPer > 0 {
					g.fetchAhead(g.aheadPer)
				}
				if n := min(per, lines-done); n > 0 {
					prefetchL2(unsafe.Add(next, done*64), n)
					done += n
				}
				kern := s.kern
				if mrr := mc - ir; mrr < mr {
					kern = s.rowKern[mrr]
				}
				ap, ars, astep := g.panelA(a, directA, ic, ir, pc, kc, false)
				var dst2 unsafe.Pointer
				if last != nil {
					dst2 = unsafe.Add(last, (ir*ldc2+jr)*esz)
				}
				kern(kq, unsafe.Add(ap, q*astep), ars, astep, unsafe.Add(bp, q*bstep), bstep, unsafe.Add(c, (ir*ldc+jr)*csz), ldc*csz, md, dst2, ldc2*esz)
			}
		}
		// the padded tiles, through a scratch tile
		for ir := own; ir < mc; ir += mr {
			if g.aheadPer > 0 {
				g.fetchAhead(g.aheadPer)
			}
			if n := min(per, lines-done); n > 0 {
				prefetchL2(unsafe.Add(next, done*64), n)
				done += n
			}
			mrr := min(mr, mc-ir)
			kern, rows := s.kern, mr
			if mrr < mr {
				kern, rows = s.rowKern[mrr], s.rowsOf[mrr]
			}
			ap, ars, astep := g.panelA(a, directA, ic, ir, pc, kc, rows > mrr)
			dst := unsafe.Add(c, (ir*ldc+jr)*csz)
			var dst2 unsafe.Pointer
			if c2 != nil {
				dst2 = unsafe.Add(c2, (ir*ldc2+jr)*esz)
			}
			g.scratchTile(kern, rows, kc, ap, ars, astep, bp, bstep, dst, ldc, csz, mode, dst2, ldc2, mrr, nrr)
		}
	}
}

// macro is macroT for a shape without a tiled kernel (float32): tile by
// tile, each tile's whole block of k before the next (a float32 tile
// summed in float64 stays in L1). It runs the micro-kernel over the mc×kc
// block of A at (ic, pc) and
// the kc×nc block of B at (pc, jc), packed in g.ap and g.bp or (directA,
// direct) read in place but for the edge panels, packed first in g.ap and
// g.bp.
// c is C's element (ic, jc), rows ldc elements of csz bytes apart; mode is
// the kernel's (0 or 1, or for float32 summed in float64 2 or 3). c2, when
// set, is C's element (ic, jc) when c is the float64 sums: this block of k
// is the last, and the sums are rounded into C (rows ldc2 elements apart).
func (g *gemmCtx[T]) macro(a, b mat[T], directA, direct bool, ic, jc, pc, mc, nc, kc int, c unsafe.Pointer, ldc, csz, mode int, c2 unsafe.Pointer, ldc2 int) {
	s := g.s
	mr, nr := s.mr, s.nr
	var z T
	esz := int(unsafe.Sizeof(z))
	for jr := 0; jr < nc; jr += nr {
		nrr := min(nr, nc-jr)
		var bp unsafe.Pointer
		bstep := nr * esz
		switch {
		case !direct:
			bp = unsafe.Pointer(&g.bp[jr*kc])
		case nrr < nr:
			bp = unsafe.Pointer(&g.bp[0])
		default:
			bp = unsafe.Pointer(&b.buf[b.off+pc*b.rs+jc+jr])
			bstep = b.rs * esz
		}
		// the next panel of B, a slice of per lines before each tile
		var next unsafe.Pointer
		lines, per, done := 0, 0, 0
		if s.prefetch && !direct && jr+nr < nc {
			next = unsafe.Pointer(&g.bp[(jr+nr)*kc])
			lines = kc * nr * esz / 64
			tiles := (mc + mr - 1) / mr
			per = (lines + tiles - 1) / tiles
		}
		ir := 0
		// the whole tiles down the panel: one call of s.one, each tile
		// summed in runs of s.block() steps when widened, while the
		// tiles fetch their share of the next panel a line a step of k
		// (a burst before each tile stalls); unless the tiles are to
		// fetch the next product's memory (a batch), a slice before each
		if whole := mc / mr; s.one != nil && g.aheadPer == 0 && nrr == nr && whole > 0 {
			ap, ars, astep := g.panelA(a, directA, ic, 0, pc, kc, false)
			apan := mr * kc * esz
			if directA {
				apan = mr * a.rs * esz
			}
			pf, pfstep := bp, 0
			if n := min(per*whole, lines-done); n > 0 {
				pf, pfstep = unsafe.Add(next, done*64), (n*64+whole*kc-1)/(whole*kc)
				done += n
			}
			var dst2 unsafe.Pointer
			c2pan := 0 // c2 stays nil
			if c2 != nil {
				dst2, c2pan = unsafe.Add(c2, jr*esz), mr*ldc2*esz
			}
			kb := kc
			if mode >= 2 {
				kb = s.block()
			}
			s.one(kc, ap, ars, astep, bp, bstep, unsafe.Add(c, jr*csz), ldc*csz, mode, dst2, ldc2*esz, whole, apan, mr*ldc*csz, c2pan, pf, pfstep, kb)
			ir = whole * mr
		}
		for ; ir < mc; ir += mr {
			if g.aheadPer > 0 {
				g.fetchAhead(g.aheadPer)
			}
			mrr := min(mr, mc-ir)
			kern, rows := s.kern, mr
			if mrr < mr {
				kern, rows = s.rowKern[mrr], s.rowsOf[mrr]
			}
			if n := min(per, lines-done); n > 0 {
				prefetchL2(unsafe.Add(next, done*64), n)
				done += n
			}
			ap, ars, astep := g.panelA(a, directA, ic, ir, pc, kc, rows > mrr)
			dst := unsafe.Add(c, (ir*ldc+jr)*csz)
			var dst2 unsafe.Pointer
			if c2 != nil {
				dst2 = unsafe.Add(c2, (ir*ldc2+jr)*esz)
			}
			if rows == mrr && nrr == nr {
				if mode < 2 { // the common case, without a call between
					kern(kc, ap, ars, astep, bp, bstep, dst, ldc*csz, mode, nil, 0)
					continue
				}
				g.call(kern, rows, kc, ap, ars, astep, bp, bstep, dst, ldc*csz, mode, dst2, ldc2*esz)
				continue
			}
			g.scratchTile(kern, rows, kc, ap, ars, astep, bp, bstep, dst, ldc, csz, mode, dst2, ldc2, mrr, nrr)
		}
	}
}

// panelA is the rows of A at row ir of the block (ic, pc) that the
// micro-kernel reads, with their row and step strides in bytes: the packed
// panel in g.ap, or (directA) A itself, except for the padded panel of a
// tile with fewer rows than its kernel reads (padded), packed at g.ap[0].
func (g *gemmCtx[T]) panelA(a mat[T], directA bool, ic, ir, pc, kc int, padded bool) (ap unsafe.Pointer, ars, astep int) {
	var z T
	esz := int(unsafe.Sizeof(z))
	switch {
	case !directA:
		return unsafe.Pointer(&g.ap[ir*kc]), esz, g.s.mr * esz
	case padded:
		return unsafe.Pointer(&g.ap[0]), esz, g.s.mr * esz
	}
	return unsafe.Pointer(&a.buf[a.off+(ic+ir)*a.rs+pc*a.cs]), a.rs * esz, a.cs * esz
}

// scratchTile runs kern, a kernel of rows rows, over a tile that does
// not fill the mr×nr tile (an edge: mrr rows, nrr columns) into a scratch
// tile, then copies or adds
// (mode) its mrr×nrr part into dst; a float32 tile summed in float64
// (mode 2 or 3) goes through g.tile64 and, with dst2, is rounded into it.
func (g *gemmCtx[T]) scratchTile(kern gemmKernel, rows, kc int, ap unsafe.Pointer, ars, astep int, bp unsafe.Pointer, bstep int, dst unsafe.Pointer, ldc, csz, mode int, dst2 unsafe.Pointer, ldc2, mrr, nrr int) {
	var z T
	esz, nr := int(unsafe.Sizeof(z)), g.s.nr
	if mode < 2 {
		t := g.tile
		kern(kc, ap, ars, astep, bp, bstep, unsafe.Pointer(&t[0]), nr*esz, 0, nil, 0)
		for i := 0; i < mrr; i++ {
			row := unsafe.Slice((*T)(unsafe.Add(dst, i*ldc*csz)), nrr)
			src := t[i*nr : i*nr+nrr]
			if mode == 0 {
				copy(row, src)
				continue
			}
			for j, v := range src {
				row[j] += v
			}
		}
		return
	}
	t := g.tile64
	g.call(kern, rows, kc, ap, ars, astep, bp, bstep, unsafe.Pointer(&t[0]), nr*8, 2, nil, 0)
	for i := 0; i < mrr; i++ {
		row := unsafe.Slice((*float64)(unsafe.Add(dst, i*ldc*8)), nrr)
		src := t[i*nr : i*nr+nrr]
		switch {
		case dst2 != nil:
			out := unsafe.Slice((*T)(unsafe.Add(dst2, i*ldc2*esz)), nrr)
			for j, v := range src {
				if mode == 3 {
					v += row[j]
				}
				out[j] = T(v)
			}
		case mode == 2:
			copy(row, src)
		default:
			for j, v := range src {
				row[j] += v
			}
		}
	}
}

// call runs kern, a kernel of rows rows, over kc steps. A float32 tile
// summed in float64 (mode 2 or 3) is computed s.block() steps at a time
// (tileRuns, the runs paired when the shape's pair is set), the first
// block with mode and the next ones added (3); when c2 is set, the last
// is rounded into c2 (4). (Mode 2 is never the last block's: a product is
// summed in float64 only when k is longer than a block, so the first
// block of k is not the last.)
func (g *gemmCtx[T]) call(kern gemmKernel, rows, kc int, ap unsafe.Pointer, ars, astep int, bp unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int) {
	if mode < 2 {
		kern(kc, ap, ars, astep, bp, bstep, c, ldc, mode, nil, 0)
		return
	}
	if g.s.one != nil && rows == g.s.mr {
		// kern is the shape's (a kernel of fewer rows reads fewer rows of
		// A): the tiled kernel over this one tile, the same runs and pairs
		g.s.one(kc, ap, ars, astep, bp, bstep, c, ldc, mode, c2, ldc2, 1, 0, 0, 0, bp, 0, g.s.block())
		return
	}
	if g.scratch32 == nil {
		g.scratch32 = make([]float32, g.s.mr*g.s.nr)
	}
	r := tileRuns{kb: g.s.block(), pair: g.s.pair, rows: rows, nr: g.s.nr, scratch: g.scratch32}
	r.run(kern, kc, ap, ars, astep, bp, bstep, c, ldc, mode, c2, ldc2)
}

// packA copies the mc×kc block of A at (ic, pc) into dst as panels of mr
// rows, each a run of kc steps of mr values; rows past mc are zero.
func (g *gemmCtx[T]) packA(a mat[T], ic, pc, mc, kc int, dst []T) {
	mr := g.s.mr
	var z T
	esz := uintptr(unsafe.Sizeof(z))
	for ir := 0; ir < mc; ir += mr {
		rows := min(mr, mc-ir)
		pan := dst[ir*kc : ir*kc+mr*kc]
		base := a.off + (ic+ir)*a.rs + pc*a.cs
		if rows == mr && mr%6 == 0 && (a.cs == 1 && g.s.packRows != nil || a.rs == 1 && g.s.packCols != nil) {
			// the corners of the block: every element read lies between them
			_, _ = a.buf[base], a.buf[base+(mr-1)*a.rs+(kc-1)*a.cs]
			_, _ = a.buf[base+(mr-1)*a.rs], a.buf[base+(kc-1)*a.cs]
			step := mr * int(esz)
			for h := 0; h < mr; h += 6 {
				if a.cs == 1 {
					g.s.packRows(unsafe.Pointer(&pan[h]), unsafe.Pointer(&a.buf[base+h*a.rs]), a.rs*int(esz), kc, step)
				} else {
					g.s.packCols(unsafe.Pointer(&pan[h]), unsafe.Pointer(&a.buf[base+h]), a.cs*int(esz), kc, step)
				}
			}
			continue
		}
		if rows < mr {
			clear(pan)
		}
		// the rows (or for column-major A the steps) are read in order
		if a.cs == 1 && rows > 1 || kc == 1 {
			_ = a.buf[base+(rows-1)*a.rs+kc-1] // every row's kc values
			_ = a.buf[base]
			for i := 0; i < rows; i++ {
				src := unsafe.Pointer(&a.buf[base+i*a.rs])
				d := unsafe.Pointer(&pan[i])
				for p := 0; p < kc; p++ {
					*(*T)(unsafe.Add(d, uintptr(p*mr)*esz)) = *(*T)(unsafe.Add(src, uintptr(p)*esz))
				}
			}
			continue
		}
		for p := 0; p < kc; p++ {
			e := base + p*a.cs
			d := pan[p*mr : p*mr+rows]
			for i := range d {
				d[i] = a.buf[e+i*a.rs]
			}
		}
	}
}

// packB copies the kc×nc block of B at (pc, jc) into dst as panels of nr
// columns, each a run of kc steps of nr values; columns past nc are zero.
// B is read row by row.
func (g *gemmCtx[T]) packB(b mat[T], pc, jc, kc, nc int, dst []T) {
	nr := g.s.nr
	if nc%nr != 0 {
		last := nc / nr * nr
		clear(dst[last*kc : last*kc+nr*kc])
	}
	if full := nc / nr; b.cs == 1 && full > 0 && g.s.packPanels != nil {
		var z T
		esz := int(unsafe.Sizeof(z))
		e := b.off + pc*b.rs + jc
		w := full*nr - 1
		// the corners of the block: every element read lies between them
		_, _ = b.buf[e], b.buf[e+(kc-1)*b.rs+w]
		_, _ = b.buf[e+w], b.buf[e+(kc-1)*b.rs]
		_ = dst[full*nr*kc-1]
		g.s.packPanels(unsafe.Pointer(&dst[0]), unsafe.Pointer(&b.buf[e]), b.rs*esz, kc, full, kc*nr*esz)
		if nc == full*nr {
			return
		}
		// the edge panel
		jc, nc, dst = jc+full*nr, nc-full*nr, dst[full*nr*kc:]
	}
	if full := nc / nr; b.cs != 1 && b.rs == 1 && full > 0 && nr%8 == 0 && g.s.packTrans != nil {
		var z T
		esz := int(unsafe.Sizeof(z))
		e := b.off + pc + jc*b.cs
		w := (full*nr - 1) * b.cs
		// the corners of the block: every element read lies between them
		_, _ = b.buf[e], b.buf[e+w+kc-1]
		_, _ = b.buf[e+w], b.buf[e+kc-1]
		_ = dst[full*nr*kc-1]
		for q := 0; q < full; q++ {
			for h := 0; h < nr; h += 8 {
				g.s.packTrans(unsafe.Pointer(&dst[q*nr*kc+h]), unsafe.Pointer(&b.buf[e+(q*nr+h)*b.cs]), b.cs*esz, kc, nr*esz)
			}
		}
		if nc == full*nr {
			return
		}
		// the edge panel
		jc, nc, dst = jc+full*nr, nc-full*nr, dst[full*nr*kc:]
	}
	if b.cs != 1 && b.rs == 1 {
		for j := 0; j < nc; j++ {
			e := b.off + pc + (jc+j)*b.cs
			pan := dst[j/nr*nr*kc+j%nr:]
			for p, v := range b.buf[e : e+kc] {
				pan[p*nr] = v
			}
		}
		return
	}
	for p := 0; p < kc; p++ {
		e := b.off + (pc+p)*b.rs + jc*b.cs
		for jr := 0; jr < nc; jr += nr {
			cols := min(nr, nc-jr)
			d := dst[jr*kc+p*nr : jr*kc+p*nr+cols]
			if b.cs == 1 {
				copy(d, b.buf[e+jr:e+jr+cols])
				continue
			}
			for j := range d {
				d[j] = b.buf[e+(jr+j)*b.cs]
			}
		}
	}
}

// useGemm reports whether a float product goes to the packed kernels: every
// product but a matrix times a vector (one row or one column), which gonum
// does without padding a tile.
func useGemm(p *product) bool { return p.n > 1 && p.m > 1 }

// runGemm computes every batch element with the packed kernels. A batch of
// at least as many matrices as workers is split by batch element; a
// smaller one computes its matrices one after the other, each split into
// workers column (or row) blocks of whole tiles.
func runGemm[T float32 | float64](p *product, ac, bc, out *array.Array, workers int) {
	abuf, _ := array.Values[T](ac)
	bbuf, _ := array.Values[T](bc)
	cbuf, _ := array.Values[T](out)
	cbuf = cbuf[out.Offset():] // contiguous: a fresh array or MatmulInto's dst
	nm := p.n * p.m
	m, n, k := p.n, p.m, p.k
	nb := p.batches()
	if nb >= workers {
		parallel(nb, workers, func(lo, hi int) {
			g := getCtx[T]()
			defer putCtx(g)
			// each product runs when the next one's offsets are known, so
			// that its operands are fetched while this one is computed
			prev, paoff, pboff := -1, 0, 0
			p.eachIn(lo, hi, func(t, aoff, boff int) {
				if prev >= 0 {
					g.setAhead(m, n, k, mat[T]{abuf, aoff, p.a.rs, p.a.cs}, mat[T]{bbuf, boff, p.b.rs, p.b.cs}, cbuf[t*nm:(t+1)*nm])
					g.run(m, n, k, mat[T]{abuf, paoff, p.a.rs, p.a.cs}, mat[T]{bbuf, pboff, p.b.rs, p.b.cs}, cbuf[prev*nm:(prev+1)*nm], n)
				}
				prev, paoff, pboff = t, aoff, boff
			})
			g.ahead, g.aheadPer = [3]span{}, 0
			if prev >= 0 { // the last
				g.run(m, n, k, mat[T]{abuf, paoff, p.a.rs, p.a.cs}, mat[T]{bbuf, pboff, p.b.rs, p.b.cs}, cbuf[prev*nm:(prev+1)*nm], n)
			}
		})
		return
	}
	s := &gemmF32
	var z T
	if unsafe.Sizeof(z) == 8 {
		s = &gemmF64
	}
	p.each(func(t, aoff, boff int) {
		c := cbuf[t*nm : (t+1)*nm]
		if n >= m {
			parallel((n+s.nr-1)/s.nr, workers, func(lo, hi int) {
				j0, j1 := lo*s.nr, min(hi*s.nr, n)
				g := getCtx[T]()
				defer putCtx(g)
				g.run(m, j1-j0, k, mat[T]{abuf, aoff, p.a.rs, p.a.cs}, mat[T]{bbuf, boff + j0*p.b.cs, p.b.rs, p.b.cs}, c[j0:], n)
			})
			return
		}
		parallel((m+s.mr-1)/s.mr, workers, func(lo, hi int) {
			i0, i1 := lo*s.mr, min(hi*s.mr, m)
			g := getCtx[T]()
			defer putCtx(g)
			g.run(i1-i0, n, k, mat[T]{abuf, aoff + i0*p.a.rs, p.a.rs, p.a.cs}, mat[T]{bbuf, boff, p.b.rs, p.b.cs}, c[i0*n:], n)
		})
	})
}

// aheadMax is the most bytes setAhead fetches (the next product's
// operands and result), a share of L2 that leaves room for the current
// one's.
const aheadMax = 1 << 18

// setAhead sets g.ahead to the next product's operands a (m×k) and b
// (k×n) and its result c (m×n, contiguous), each when it is one run of
// memory (rows or columns contiguous and adjacent), and g.aheadPer so that
// the lines are spread over the tiles of a product of the same shape;
// nothing when they take more than aheadMax bytes.
func (g *gemmCtx[T]) setAhead(m, n, k int, a, b mat[T], c []T) {
	g.ahead, g.aheadPer = [3]span{}, 0
	var z T
	esz := int(unsafe.Sizeof(z))
	if (m*k+k*n+m*n)*esz > aheadMax {
		return
	}
	run := func(x mat[T], rows, cols int) span {
		if !(x.cs == 1 && x.rs == cols || x.rs == 1 && x.cs == rows) {
			return span{}
		}
		_ = x.buf[x.off+rows*cols-1]
		// every line fetched starts inside the run
		return span{p: unsafe.Pointer(&x.buf[x.off]), lines: (rows*cols*esz + 63) / 64}
	}
	g.ahead = [3]span{run(a, m, k), run(b, k, n), run(mat[T]{c, 0, n, 1}, m, n)}
	total := g.ahead[0].lines + g.ahead[1].lines + g.ahead[2].lines
	tiles := (m + g.s.mr - 1) / g.s.mr * ((n + g.s.nr - 1) / g.s.nr)
	g.aheadPer = (total + tiles - 1) / tiles
}

// goShape is the blocking of the Go kernel.
func goShape(k gemmKernel) gemmShape {
	s := gemmShape{mr: goMR, nr: goNR, kc: 256, mc: 128, nc: 2048, direct: 1 << 18, kern: k, round: true}
	s.edges(nil)
	return s
}
