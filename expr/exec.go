package expr

import (
	"fmt"
	"sync"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// target is where a group's values go: an output array (store) or an
// accumulator (fold or accumulate along the inner axis).
type target struct {
	base  unsafe.Pointer // element 0 of the buffer
	off   int            // element offset of index (0, 0, ...)
	size  int            // element size
	mask  unsafe.Pointer // validity of the output, nil if none
	fold  compute.FoldFunc
	accum compute.AccumulateFunc
	ident unsafe.Pointer // reductions: the identity that null elements become
	// accurate float sums (fold and accum unused): float64 accumulators at
	// base with their compensations at comp, element i of the accumulator
	// (offset off+i) having its compensation at comp+8i.
	sum  *compute.SumKernels
	comp unsafe.Pointer
}

// compAt returns the compensation of the accumulator element at offset e.
func (t *target) compAt(e int) unsafe.Pointer { return unsafe.Add(t.comp, (e-t.off)*8) }

// worker holds one goroutine's registers and scratch buffers.
type worker struct {
	regs    []unsafe.Pointer
	scratch []byte
	bufs    []unsafe.Pointer // per register: its scratch buffer (nil for leaves read in place)
	maskAcc unsafe.Pointer
	maskTmp unsafe.Pointer
	valTmp  unsafe.Pointer
	arrs    []*array.Array   // the leaf arrays of this call
	keep    [][]byte         // scratch referenced only through pointers
	off     []int            // per leaf, then the target: element offset of the current row
	one     unsafe.Pointer   // the value 1 in the root's type (counting passes)
	exp     []unsafe.Pointer // per leaf: scratch holding a periodic leaf's row repeated
	expOff  []int            // the row offset the expansion was made from (-1: none)
	expRows []int
	idx     []int
	base    []unsafe.Pointer
	mbase   []unsafe.Pointer
	size    []int
	oneBuf  [8]byte // what one points at
	fitted  uint64  // the group.fitID of the group fitWorker fitted the worker to (0: none)
}

var (
	gather1, _  = compute.Gather(1)
	scatter1, _ = compute.Scatter(1)
	andVV, _    = compute.LookupBinary(compute.LogicalAnd, compute.Bool, compute.VV)
)

// passTile is the tile a pass over n elements uses: the option's tile
// (already within [minTile, MaxTile]), but never more than the pass has
// elements, so that scratch is sized by what the pass needs.
func passTile(opt, n int) int {
	return max(1, min(opt, MaxTile, n))
}

// scratchBytes is the size of a worker's scratch: nbuf registers that are
// buffers, plus three (the mask accumulator, a mask temporary and a value
// temporary), each a tile of t elements of up to wide bytes (1 to 8)
// rounded up to 64 bytes, plus 64 bytes of alignment. It reports false when
// the size overflows int or exceeds maxScratch.
func scratchBytes(nbuf, t, wide int) (int, bool) {
	if nbuf < 0 || t < 1 || wide < 1 || wide > 8 || nbuf > maxScratch/(8*t+64)-3 {
		return 0, false
	}
	return (nbuf+3)*regBytes(t, wide) + 64, true
}

// regBytes is the scratch one register takes: t elements of wide bytes,
// rounded up to a cache line so that every register starts on one.
func regBytes(t, wide int) int { return (t*wide + 63) &^ 63 }

// maxScratch bounds one worker's scratch (1 GiB): a pass needing more has
// more registers than any real expression.
const maxScratch = 1 << 30

// scratchBuffers counts the registers of a pass with nphys physical
// registers that need a scratch buffer (everything but leaves read in place).
func (g *group) scratchBuffers(nphys int) int {
	nbuf := 0
	for r := 0; r < nphys; r++ {
		if r >= len(g.leaves) || g.leaves[r].gather != nil {
			nbuf++
		}
	}
	return nbuf
}

// checkScratch reports an error when a worker's scratch for the built pass
// would not fit (see scratchBytes); buildGroup calls it, so fitWorker's
// sizes are known to be sound.
func (g *group) checkScratch() error {
	if _, ok := scratchBytes(g.scratchBuffers(g.nphys), g.tile, g.wide); !ok {
		return fmt.Errorf("expr: %w: a pass over %v with %d registers of %d elements needs more than %d bytes of scratch",
			ErrArgument, g.shape, g.nphys, g.tile, maxScratch)
	}
	return nil
}

// bind points the worker at this call's leaf arrays.
func (g *group) bind(w *worker, arrs []*array.Array) {
	w.arrs = w.arrs[:0]
	for k, l := range g.leaves {
		a := arrs[k]
		w.arrs = append(w.arrs, a)
		w.base[k] = a.DataPointer()
		w.expOff[k] = -1
		w.mbase[k] = a.ValidityPointer()
		w.size[k] = l.dt.Size()
	}
}

// runRange evaluates flat positions [lo, hi) of the coalesced space.
func (g *group) runRange(w *worker, t *target, lo, hi int) {
	if g.runs && t.sum != nil && len(g.cshape) == 2 && g.dstCS[0] != 0 && g.cshape[1] >= minFold4 {
		lo = g.fold4(w, t, lo, hi)
	}
	if lo >= hi {
		return
	}
	nl := len(g.leaves)
	r := len(g.cshape)
	inner := g.cshape[r-1]
	row, col := lo/inner, lo%inner
	// offsets of the first row
	for k := range g.leaves {
		w.off[k] = w.arrs[k].Offset()
	}
	w.off[nl] = t.off
	rem := row
	for j := r - 2; j >= 0; j-- {
		i := rem % g.cshape[j]
		rem /= g.cshape[j]
		w.idx[j] = i
		for k, l := range g.leaves {
			w.off[k] += i * l.cs[j]
		}
		w.off[nl] += i * g.dstCS[j]
	}
	if g.nt {
		defer compute.Fence()
	}
	for pos := lo; pos < hi; {
		if g.k2d.Func != nil && col == 0 && t.mask == nil { // the row-looped kernels write no validity
			if k := min(g.cshape[r-2]-w.idx[r-2], (hi-pos)/inner); k >= 1 {
				g.rows2D(w, t, k, inner)
				pos += k * inner
				if pos < hi {
					g.advance(w, k)
				}
				continue
			}
		}
		if g.rowsOK && col == 0 {
			if k := min(rowsPerCall, g.cshape[r-2]-w.idx[r-2], (hi-pos)/inner); k >= 2 {
				p := unsafe.Add(w.base[0], w.off[0]*w.size[0])
				if t.sum != nil {
					t.sum.Rows(unsafe.Add(t.base, w.off[nl]*t.size), t.compAt(w.off[nl]), p, inner, k, g.leaves[0].cs[r-2])
				} else {
					g.rows(unsafe.Add(t.base, w.off[nl]*t.size), p, inner, k, g.leaves[0].cs[r-2])
				}
				pos += k * inner
				if pos < hi {
					g.advance(w, k)
				}
				continue
			}
		}
		if g.batch > 1 && col == 0 {
			if k := min(g.batch, g.cshape[r-2]-w.idx[r-2], (hi-pos)/inner); k >= 2 {
				g.batchAt(w, t, k, inner)
				pos += k * inner
				if pos < hi {
					g.advance(w, k)
				}
				continue
			}
		}
		n := min(inner-col, hi-pos)
		if g.runs {
			g.reduceTile(w, t, unsafe.Add(w.base[0], (w.off[0]+col)*w.size[0]), 1, w.off[nl], 0, n)
		} else {
			for c := col; c < col+n; c += g.tile {
				g.tileAt(w, t, c, min(g.tile, col+n-c))
			}
		}
		pos += n
		col = 0
		if pos < hi {
			g.nextRow(w)
		}
	}
}

// minFold4 is the shortest row that fold4 takes four at a time.
const minFold4 = 256

// fold4 sums the whole rows of [lo, hi) (a pass with useRuns over [rows,
// inner], each row into its own accumulator) four at a time, rows a
// quarter of the range apart, with the sum's Fold4: four streams that each
// run on through consecutive rows, where one row after another is one
// stream (and quarters of each row, Fold's own split, restart the
// prefetchers every row). It returns where the rows it left start.
func (g *group) fold4(w *worker, t *target, lo, hi int) int {
	inner := g.cshape[1]
	r0 := (lo + inner - 1) / inner
	if r0*inner != lo {
		return lo // a partial first row: the tile loop's
	}
	m := (hi/inner - r0) / 4
	if m == 0 {
		return lo
	}
	l := g.leaves[0]
	a := w.arrs[0]
	base := unsafe.Add(a.DataPointer(), a.Offset()*w.size[0])
	var acc, comp, x [4]unsafe.Pointer
	for i := 0; i < m; i++ {
		for k := range x {
			r := r0 + k*m + i
			e := t.off + r*g.dstCS[0]
			x[k] = unsafe.Add(base, r*l.cs[0]*w.size[0])
			acc[k], comp[k] = unsafe.Add(t.base, e*t.size), t.compAt(e)
		}
		t.sum.Fold4(&acc, &comp, &x, inner)
	}
	return (r0 + 4*m) * inner
}

// rowsPerCall is how many rows a multi-row sum adds per kernel call: the
// kernel reads them one after another (one sequential stream, which the
// prefetchers follow), and one call per many rows removes the per-row
// overhead.
const rowsPerCall = 64

// nextRow advances the worker's offsets to the next row: an odometer over
// the outer axes.
func (g *group) nextRow(w *worker) {
	nl := len(g.leaves)
	for j := len(g.cshape) - 2; j >= 0; j-- {
		w.idx[j]++
		for k, l := range g.leaves {
			w.off[k] += l.cs[j]
		}
		w.off[nl] += g.dstCS[j]
		if w.idx[j] < g.cshape[j] {
			return
		}
		for k, l := range g.leaves {
			w.off[k] -= w.idx[j] * l.cs[j]
		}
		w.off[nl] -= w.idx[j] * g.dstCS[j]
		w.idx[j] = 0
	}
}

// rows2D runs the pass's one binary kernel over k whole rows of c elements
// (see plan2D), streaming when the output rows are 32-byte aligned.
func (g *group) rows2D(w *worker, t *target, k, c int) {
	in := &g.prog[0]
	j := len(g.cshape) - 2
	nl := len(g.leaves)
	dp := unsafe.Add(t.base, w.off[nl]*t.size)
	xp := unsafe.Add(w.base[in.a], w.off[in.a]*w.size[in.a])
	yp := unsafe.Add(w.base[in.b], w.off[in.b]*w.size[in.b])
	ds := g.dstCS[j] * t.size
	kern := g.k2d
	if g.k2dNT.Func != nil && uintptr(dp)%32 == 0 && ds%32 == 0 {
		kern = g.k2dNT
	}
	kern.Func(dp, xp, yp, c, k, ds, g.leaves[in.a].cs[j]*w.size[in.a], g.leaves[in.b].cs[j]*w.size[in.b])
}

// advance moves the worker's offsets k rows on.
func (g *group) advance(w *worker, k int) {
	j := len(g.cshape) - 2
	if w.idx[j]+k < g.cshape[j] {
		w.idx[j] += k
		for i, l := range g.leaves {
			w.off[i] += k * l.cs[j]
		}
		w.off[len(g.leaves)] += k * g.dstCS[j]
		return
	}
	for ; k > 0; k-- {
		g.nextRow(w)
	}
}

// batchAt evaluates rows whole rows of c elements as one tile (see
// planBatch).
func (g *group) batchAt(w *worker, t *target, rows, c int) {
	n := rows * c
	for k, l := range g.leaves {
		s := l.inner()
		p := unsafe.Add(w.base[k], w.off[k]*w.size[k])
		switch {
		case l.periodic:
			if w.expOff[k] != w.off[k] || w.expRows[k] < rows {
				for i := 0; i < rows; i++ {
					l.expand(unsafe.Add(w.exp[k], i*c*w.size[k]), p, c, s)
				}
				w.expOff[k], w.expRows[k] = w.off[k], rows
			}
			w.regs[k] = w.exp[k]
		case l.gather != nil:
			l.gather(w.bufs[k], p, n, s)
			w.regs[k] = w.bufs[k]
		default:
			w.regs[k] = p
		}
	}
	g.finish(w, t, 0, w.off[len(g.leaves)], n) // batches have no masks (planBatch)
}

// tileAt evaluates n elements starting at column c of the current row.
func (g *group) tileAt(w *worker, t *target, c, n int) {
	nl := len(g.leaves)
	for k, l := range g.leaves {
		s := l.inner()
		e := w.off[k] + c*s
		p := unsafe.Add(w.base[k], e*w.size[k])
		if l.gather != nil {
			// a periodic leaf's register may still point at its expansion
			// (batchAt): read the tile just gathered
			l.gather(w.bufs[k], p, n, s)
			w.regs[k] = w.bufs[k]
		} else {
			w.regs[k] = p
			if l.prefetch {
				compute.Prefetch(unsafe.Add(p, n*w.size[k]), n*w.size[k])
			}
		}
	}
	g.finish(w, t, c, w.off[nl]+c*g.dstCS[len(g.dstCS)-1], n)
}

// finish runs the program on a loaded tile of n elements starting at column
// c of the current row and stores (or folds) its value at output element de.
func (g *group) finish(w *worker, t *target, c, de, n int) {
	ds := g.dstCS[len(g.dstCS)-1]
	if g.direct {
		w.regs[g.root] = unsafe.Add(t.base, de*t.size)
	}
	for i := range g.prog {
		in := &g.prog[i]
		m := n
		if in.scalar {
			m = 1
		}
		if g.seams && i == len(g.prog)-1 {
			g.rootSeams(w, in, n)
			break
		}
		switch in.code {
		case iBinary:
			in.bin(w.regs[in.dst], w.regs[in.a], w.regs[in.b], m)
		case iUnary:
			in.un(w.regs[in.dst], w.regs[in.a], m)
		case iWhere:
			in.wh(w.regs[in.dst], w.regs[in.a], w.regs[in.b], w.regs[in.c], m, in.as, in.bs, in.cs)
		case iSelCmp:
			in.sel(w.regs[in.dst], w.regs[in.a], w.regs[in.b], w.regs[in.c], w.regs[in.d], m)
		case iChain:
			in.chain(w.regs[in.dst], w.regs[in.a], w.regs[in.b], w.regs[in.c], m)
		}
	}
	if g.masked {
		g.combineMasks(w, c, n)
	}
	val, vstep := w.regs[g.root], 1
	if g.rootS {
		vstep = 0
	}
	if t.fold != nil || t.accum != nil {
		g.reduceTile(w, t, val, vstep, de, ds, n)
		return
	}
	if g.masked {
		// null slots hold zero
		wh := g.whereZero
		if g.direct {
			wh(val, w.maskAcc, val, zeroPtr, n, 1, 1, 0)
		} else {
			wh(w.valTmp, w.maskAcc, val, zeroPtr, n, 1, vstep, 0)
			val, vstep = w.valTmp, 1
		}
	}
	if !g.direct {
		dp := unsafe.Add(t.base, de*t.size)
		switch {
		case vstep == 1 && g.nt && ds == 1:
			compute.CopyNT(dp, val, n*t.size)
		case vstep == 1:
			g.scatter(dp, val, n, ds)
		case ds == 1:
			g.gatherOut(dp, val, n, 0)
		default:
			g.gatherOut(w.valTmp, val, n, 0)
			g.scatter(dp, w.valTmp, n, ds)
		}
	}
	if t.mask != nil {
		mp := unsafe.Add(t.mask, de)
		if g.masked {
			scatter1(mp, w.maskAcc, n, ds)
		} else {
			gather1(w.maskTmp, unsafe.Pointer(&one), n, 0)
			scatter1(mp, w.maskTmp, n, ds)
		}
	}
}

var one byte = 1

// seamLanes is the element count the streaming body of a run is cut to:
// a multiple of every streaming kernel's vector, so that the kernel,
// given a 32-byte aligned destination, stores nothing plainly.
const seamLanes = 32

// rootSeams runs the root instruction in (a binary or unary kernel that
// streams into the output, g.direct) over a run of n elements whose
// destination need not start or end on a 32-byte boundary: the head up to
// the first boundary and the tail after the last whole seamLanes elements
// are computed by the plain kernel into the tile buffer and stored with
// compute.StreamPiece, the body by the streaming kernel in place. Every
// store into the output is then non-temporal, so a line shared with the
// neighbouring run is never read from memory for a plain store.
func (g *group) rootSeams(w *worker, in *instr, n int) {
	osz := g.rootT.Size()
	isz := in.kt.Size()
	d := w.regs[in.dst]
	h := 0
	if off := int(uintptr(d) & 31); off != 0 {
		h = n
		if off%osz == 0 {
			h = min(n, (32-off)/osz)
		}
	}
	m := (n - h) &^ (seamLanes - 1)
	if in.code == iUnary {
		a := w.regs[in.a]
		if h > 0 {
			in.plainUn(w.valTmp, a, h)
			compute.StreamPiece(d, w.valTmp, h*osz)
		}
		if m > 0 {
			in.un(unsafe.Add(d, h*osz), unsafe.Add(a, h*isz), m)
		}
		if t := n - h - m; t > 0 {
			in.plainUn(w.valTmp, unsafe.Add(a, (h+m)*isz), t)
			compute.StreamPiece(unsafe.Add(d, (h+m)*osz), w.valTmp, t*osz)
		}
		return
	}
	a, b := w.regs[in.a], w.regs[in.b]
	as, bs := isz, isz
	switch in.form {
	case compute.VS:
		bs = 0
	case compute.SV:
		as = 0
	}
	if h > 0 {
		in.plainBin(w.valTmp, a, b, h)
		compute.StreamPiece(d, w.valTmp, h*osz)
	}
	if m > 0 {
		in.bin(unsafe.Add(d, h*osz), unsafe.Add(a, h*as), unsafe.Add(b, h*bs), m)
	}
	if t := n - h - m; t > 0 {
		in.plainBin(w.valTmp, unsafe.Add(a, (h+m)*as), unsafe.Add(b, (h+m)*bs), t)
		compute.StreamPiece(unsafe.Add(d, (h+m)*osz), w.valTmp, t*osz)
	}
}

// combineMasks ANDs the validity of every masked leaf into w.maskAcc.
func (g *group) combineMasks(w *worker, c, n int) {
	first := true
	for k, l := range g.leaves {
		if !l.mask {
			continue
		}
		s := l.inner()
		p := unsafe.Add(w.mbase[k], w.off[k]+c*s)
		if first {
			gather1(w.maskAcc, p, n, s)
			first = false
			continue
		}
		gather1(w.maskTmp, p, n, s)
		andVV(w.maskAcc, w.maskAcc, w.maskTmp, n)
	}
}

// reduceTile folds a tile of values into the accumulator.
func (g *group) reduceTile(w *worker, t *target, val unsafe.Pointer, vstep, de, ds, n int) {
	if g.count {
		val, vstep = w.one, 0
	}
	if g.masked {
		g.whereZero(w.valTmp, w.maskAcc, val, t.ident, n, 1, vstep, 0)
		val, vstep = w.valTmp, 1
	} else if vstep == 0 {
		g.gatherOut(w.valTmp, val, n, 0)
		val = w.valTmp
	}
	ap := unsafe.Add(t.base, de*t.size)
	if t.sum != nil {
		if ds == 0 {
			t.sum.Fold(ap, t.compAt(de), val, n)
		} else {
			t.sum.Accum(ap, t.compAt(de), val, n)
		}
		return
	}
	if ds == 0 {
		t.fold(ap, val, n)
	} else {
		t.accum(ap, val, n)
	}
}

// execute runs the group over its whole space with up to workers
// goroutines. With outerOnly the space is split only between whole blocks
// of the outermost axis (a reduction whose accumulator must not be shared);
// with private, worker i > 0 folds into private(i) instead of t.
func (g *group) execute(t target, arrs []*array.Array, workers int, outerOnly bool, private func(i int) target) {
	total := size(g.cshape)
	if total == 0 {
		return
	}
	if workers < 2 || total < minParallel {
		w := g.getWorker()
		g.bind(w, arrs)
		g.runRange(w, &t, 0, total)
		g.putWorker(w)
		return
	}
	block := 1
	if outerOnly && len(g.cshape) > 1 {
		block = total / g.cshape[0]
	}
	units := total / block
	workers = clampWorkers(workers, total, units)
	var wg sync.WaitGroup
	for i := 0; i < workers; i++ {
		lo := units * i / workers * block
		hi := units * (i + 1) / workers * block
		tt := t
		if private != nil && i > 0 {
			tt = private(i)
		}
		run := func() {
			w := g.getWorker()
			g.bind(w, arrs)
			g.runRange(w, &tt, lo, hi)
			g.putWorker(w)
		}
		if i == workers-1 {
			run()
			continue
		}
		wg.Add(1)
		go func() { defer wg.Done(); run() }()
	}
	wg.Wait()
}

// clampWorkers bounds the goroutines of a pass over total elements split
// into units: no more than requested, than maxWorkers (GOMAXPROCS, at least
// oversubscribe), than units, or than one per minPerWorker elements; at
// least one.
func clampWorkers(requested, total, units int) int {
	return max(1, min(requested, maxWorkers(), units, total/minPerWorker))
}
