package expr

import (
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/stride0/stride0/array"
)

// Worker scratch is pooled across passes, plans and calls: a worker taken
// for a pass is refitted to it (registers pointed into its scratch, which
// is reused when large enough), and put back when the pass ends. A plain
// expr.Eval then allocates no scratch once the pool holds a worker, where
// each call used to make its own (44 KB for a small expression).
var workerPool sync.Pool // *worker

// maxPooledScratch bounds the scratch a pooled worker keeps: a worker
// fitted to a larger pass (long tiles, many registers) is dropped after it,
// so that one huge pass does not pin its scratch.
const maxPooledScratch = 4 << 20

// getWorker returns a worker fitted to g, from the pool when it has one.
// A worker that was last fitted to g (the same pass, run again: a Plan
// evaluated in a loop) is not refitted: putWorker left it as fitWorker
// does.
func (g *group) getWorker() *worker {
	w, _ := workerPool.Get().(*worker)
	if w == nil {
		w = &worker{}
	}
	id := g.fitID.Load()
	if id == 0 {
		g.fitID.CompareAndSwap(0, groupIDs.Add(1))
		id = g.fitID.Load()
	}
	if w.fitted != id {
		g.fitWorker(w)
		w.fitted = id
	}
	return w
}

// groupIDs numbers the groups that have been run (group.fitID).
var groupIDs atomic.Uint64

// putWorker returns w to the pool, dropping every reference it holds to
// this call's arrays and output. What points into the worker's own scratch
// stays, as fitWorker set it (the registers of leaves read in place are
// cleared, the others point at their buffers again), so that the next run
// of the same group can skip fitWorker.
func (g *group) putWorker(w *worker) {
	clear(w.arrs)
	w.arrs = w.arrs[:0]
	copy(w.regs, w.bufs)
	clear(w.base)
	clear(w.mbase)
	held := cap(w.scratch)
	for _, b := range w.keep {
		held += cap(b)
	}
	if held > maxPooledScratch {
		return
	}
	workerPool.Put(w)
}

// resize returns s with length n, reusing its array when large enough.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}

// fitWorker points w's registers at scratch for g: every register that is
// not a leaf read in place gets a tile of the pass's widest elements (from
// a cache line boundary: regBytes), and three more
// tiles hold the mask accumulator, a mask temporary and a value temporary.
// buildGroup checked the size (checkScratch). Periodic leaves get a buffer
// each for their expanded row.
func (g *group) fitWorker(w *worker) {
	t, nphys := g.tile, g.nphys
	w.regs = resize(w.regs, nphys)
	w.bufs = resize(w.bufs, nphys)
	n, _ := scratchBytes(g.scratchBuffers(nphys), t, g.wide)
	if cap(w.scratch) < n {
		w.scratch = make([]byte, n)
	}
	w.scratch = w.scratch[:n]
	p := unsafe.Pointer(unsafe.SliceData(w.scratch))
	p = unsafe.Add(p, (64-uintptr(p)%64)%64)
	next := func() unsafe.Pointer {
		q := p
		p = unsafe.Add(p, regBytes(t, g.wide))
		return q
	}
	for r := 0; r < nphys; r++ {
		if r >= len(g.leaves) || g.leaves[r].gather != nil {
			w.bufs[r] = next()
			w.regs[r] = w.bufs[r]
		}
	}
	w.maskAcc, w.maskTmp, w.valTmp = next(), next(), next()
	w.one = nil
	if g.count {
		w.oneBuf = identity(redProd, g.rootT)
		w.one = unsafe.Pointer(&w.oneBuf)
	}
	nl := len(g.leaves)
	w.exp = resize(w.exp, nl)
	w.expOff = resize(w.expOff, nl)
	w.expRows = resize(w.expRows, nl)
	np := 0
	for k, l := range g.leaves {
		if !l.periodic {
			continue
		}
		if np == len(w.keep) {
			w.keep = append(w.keep, nil)
		}
		if cap(w.keep[np]) < regBytes(t, g.wide)+64 {
			w.keep[np] = make([]byte, regBytes(t, g.wide)+64)
		}
		q := unsafe.Pointer(unsafe.SliceData(w.keep[np]))
		w.exp[k] = unsafe.Add(q, (64-uintptr(q)%64)%64)
		np++
	}
	w.off = resize(w.off, nl+1)
	w.idx = resize(w.idx, len(g.cshape))
	if cap(w.arrs) < nl {
		w.arrs = make([]*array.Array, 0, nl)
	}
	w.arrs = w.arrs[:0]
	w.base = resize(w.base, nl)
	w.mbase = resize(w.mbase, nl)
	w.size = resize(w.size, nl)
}
