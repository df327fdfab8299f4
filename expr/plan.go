package expr

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/linalg"
)

// Plan is an expression prepared for evaluation: checked once, evaluated
// many times with different variable bindings. A Plan is safe for
// concurrent use.
//
// A Plan keeps the fused passes it built for up to 8 recent layouts of its
// inputs (each leaf's dtype, shape, strides and null-ness, and the output's
// strides), least recently used out first: a call that repeats a layout,
// such as a stream whose batches alternate between two sizes, runs the
// built pass again without planning, and with EvalInto allocates nothing.
// Evaluations with temporaries (reductions, hoisted subexpressions) plan
// each call.
type Plan struct {
	root *Node
	opts options
	fast layoutCache // built fused passes, one per recent layout (layout_cache.go)
	once bool        // made by the package's Eval or EvalInto: nothing to cache
}

// Compile checks e and prepares it for evaluation with the given options.
// Variables stay unbound: each Eval binds them.
func Compile(e *Node, opts ...Option) (*Plan, error) {
	if err := e.Err(); err != nil {
		return nil, err
	}
	dts := map[string]*Node{}
	var err error
	e.walk(func(n *Node) {
		if n.kind != kVar || err != nil {
			return
		}
		if prev, ok := dts[n.name]; ok && (prev.dtype != n.dtype) {
			err = fmt.Errorf("expr.Compile: %w: variable %q declared as %v and %v", ErrBinding, n.name, prev.dtype, n.dtype)
		}
		dts[n.name] = n
	})
	if err != nil {
		return nil, err
	}
	return &Plan{root: e, opts: makeOptions(opts)}, nil
}

// Root returns the expression the plan evaluates (nil for a nil Plan).
func (p *Plan) Root() *Node {
	if p == nil {
		return nil
	}
	return p.root
}

// Eval evaluates the plan with the variables bound by b and returns a new
// contiguous array, which the caller releases.
func (p *Plan) Eval(b Bindings) (*array.Array, error) {
	if p == nil {
		return nil, fmt.Errorf("expr: nil plan: %w", ErrNilNode)
	}
	return p.run(nil, b)
}

// EvalInto evaluates the plan into dst, whose dtype and shape must be the
// expression's. dst may be any writable view, and may share memory with the
// inputs: an overlap is detected and evaluated through a temporary, never
// silently wrong. If the result has nulls and dst has no validity mask, one
// is added to dst (see array.EnsureValidity).
func (p *Plan) EvalInto(dst *array.Array, b Bindings) error {
	if p == nil {
		return fmt.Errorf("expr: nil plan: %w", ErrNilNode)
	}
	if err := array.Check(dst); err != nil {
		return fmt.Errorf("expr.EvalInto: %w: %w", ErrOutput, err)
	}
	_, err := p.run(dst, b)
	return err
}

// Eval evaluates e and returns a new contiguous array that the caller
// releases. Options set the allocator, workers, tile size and bindings.
// Worker scratch is pooled across calls, so a small Eval allocates little
// beyond its result; to evaluate one expression many times, Compile it
// once.
func Eval(e *Node, opts ...Option) (*array.Array, error) {
	p, err := Compile(e, opts...)
	if err != nil {
		return nil, err
	}
	p.once = true
	return p.run(nil, p.opts.bind)
}

// EvalInto evaluates e into dst (see Plan.EvalInto).
func EvalInto(dst *array.Array, e *Node, opts ...Option) error {
	p, err := Compile(e, opts...)
	if err != nil {
		return err
	}
	p.once = true
	return p.EvalInto(dst, p.opts.bind)
}

// evaluation is the state of one run: options and the temporaries to
// release at the end.
type evaluation struct {
	o      *options
	temps  []*array.Array
	root   *rnode
	single *group // the root's fused pass, when it was the whole evaluation

	explain *strings.Builder  // Explain: describe each pass as it is built
	roles   map[*rnode]string // Explain: the role of a pass a structural node runs
	dry     bool              // Explain: build the root's pass but do not run it
	passes  int
	dstOff  int // bytes from a 32-byte boundary to the output's first element (EvalInto)
}

func (p *Plan) run(dst *array.Array, b Bindings) (*array.Array, error) {
	if out, ok, err := p.fast.run(&p.opts, dst, b); ok {
		return out, err
	}
	if dst != nil {
		if ok, err := p.matmulInto(dst); ok {
			return dst, err
		}
	}
	r, err := resolve(p.root, b)
	if err != nil {
		return nil, err
	}
	ev := &evaluation{o: &p.opts, root: r}
	defer ev.release()
	out, err := ev.eval(r, dst)
	if err == nil && ev.single != nil && !p.once {
		p.fast.add(newFastGroup(ev.single, r, dst, p.opts.workers))
	}
	return out, err
}

// matmulInto is the product of two array leaves into dst, for a plan that
// is only that product (a small product repeated in a loop), without
// resolving the tree: what the full path would do (the product straight
// into dst through linalg.MatmulInto) when nothing needs resolving, that
// is when both leaves are live and of the product's dtype and dst has its
// dtype and shape. ok is false, and nothing was done, in any other case
// (the full path then checks and reports everything).
func (p *Plan) matmulInto(dst *array.Array) (ok bool, err error) {
	n := p.root
	if n == nil || n.kind != kMatmul || len(n.args) != 2 || n.args[0].kind != kLeaf || n.args[1].kind != kLeaf {
		return false, nil
	}
	x, y := n.args[0].arr, n.args[1].arr
	if array.Check(x) != nil || array.Check(y) != nil || x.DType() != n.dtype || y.DType() != n.dtype || dst.DType() != n.dtype || dst.ReadOnly() {
		return false, nil
	}
	shape, static := n.shape.Static()
	if !static || dst.Rank() != len(shape) {
		return false, nil
	}
	for i, d := range shape {
		if dst.Dim(i) != d {
			return false, nil
		}
	}
	if ok, err = linalg.MatmulInto(dst, x, y, p.opts.workers); err != nil {
		return true, fmt.Errorf("expr.Matmul: %w", err)
	}
	return ok, nil
}

func (ev *evaluation) release() {
	for _, t := range ev.temps {
		t.Release()
	}
	ev.temps = nil
}

// eval evaluates the tree at r into dst (allocated when nil).
func (ev *evaluation) eval(r *rnode, dst *array.Array) (*array.Array, error) {
	if isStructural(r.n.kind) {
		return ev.structural(r, dst, false)
	}
	if err := ev.hoist(r, r.n.kind == kReduce); err != nil {
		return nil, err
	}
	if r.n.kind == kReduce {
		return ev.reduce(r, dst)
	}
	return ev.elementwise(r, dst)
}

// hoist evaluates, once and ahead of the fused pass, every subexpression
// that the pass would otherwise recompute: an operation whose result is
// smaller than the space it is broadcast over, and every reduction below the
// root. Each becomes a temporary leaf, computed once per evaluation however
// many paths reach it (see cse.go).
//
// A shared elementwise subexpression that a fused pass would reach through
// more than maxSharedVisits leaf visits (e = e + e nested d times reaches
// its leaf by 2^d paths) is evaluated once into a temporary too, so that
// the cost of an evaluation follows the distinct nodes, not the paths. A
// node is hoisted once per evaluation (rnode.hoisted), whatever the number
// of paths to it.
func (ev *evaluation) hoist(r *rnode, isReduceRoot bool) error {
	if !isReduceRoot {
		if r.hoisted {
			return nil
		}
		r.hoisted = true
	}
	if err := ev.checkIntPower(r); err != nil {
		return err
	}
	for i, a := range r.args {
		if a.isLeaf() {
			continue
		}
		if a.once != nil { // a shared node already evaluated: read its temporary
			r.args[i] = a.once
			continue
		}
		if a.n.kind == kReduce || isStructural(a.n.kind) || (!isReduceRoot && size(a.shape) < size(r.shape)) {
			t, err := ev.temporary(a) // once, however many paths reach a
			if err != nil {
				return err
			}
			r.args[i] = t
			continue
		}
		if err := ev.hoist(a, false); err != nil {
			return err
		}
		if a.shared && a.leafVisits() > maxSharedVisits {
			t, err := ev.temporary(a)
			if err != nil {
				return err
			}
			r.args[i] = t
		}
	}
	return nil
}

// checkIntPower refuses, as NumPy does, a Power (not PowerTruncating) of a
// signed integer result dtype whose exponent has a negative element: the
// exponent is evaluated first (into a temporary unless it is a leaf) and
// read. Null elements are not read.
func (ev *evaluation) checkIntPower(r *rnode) error {
	n := r.n
	if n.kind != kBinary || n.op != compute.Power || !n.strictPow || !n.ctype.IsSigned() || len(r.args) != 2 {
		return nil
	}
	e := r.args[1]
	if !e.isLeaf() {
		if e.once == nil {
			if _, err := ev.temporary(e); err != nil {
				return err
			}
		}
		e = e.once
		r.args[1] = e
	}
	if !e.arr.DType().IsSigned() {
		return nil // unsigned and bool exponents are never negative
	}
	vals, err := array.ToSlice[int64](e.arr) // nulls read as 0
	if err != nil {
		return err
	}
	for _, v := range vals {
		if v < 0 {
			return fmt.Errorf("expr.Power: %w: integers to negative integer powers are not allowed (an exponent is %d, the result %v; PowerTruncating gives 0 instead)", ErrArgument, v, n.ctype)
		}
	}
	return nil
}

// maxSharedVisits is the most leaf visits (leaves counted once per path) a
// shared subexpression may have and still be fused into the pass that
// reads it (see hoist).
const maxSharedVisits = 64

// leafVisits counts the leaves under r once per path, saturating at
// math.MaxInt32; the count of each node is kept (r.visits), so a node
// reached by several paths is counted once. Call it on a node whose args
// are final (after hoist).
func (r *rnode) leafVisits() int {
	if r.isLeaf() {
		return 1
	}
	if r.visits > 0 {
		return r.visits
	}
	n := 0
	for _, a := range r.args {
		n = min(n+a.leafVisits(), math.MaxInt32)
	}
	r.visits = max(n, 1)
	return r.visits
}

// checkOutput validates a caller's output array.
func checkOutput(dst *array.Array, dt array.DType, shape []int) error {
	if dst.DType() != dt {
		return fmt.Errorf("expr.EvalInto: %w: output is %v, expression is %v", ErrOutput, dst.DType(), dt)
	}
	if !slices.Equal(dst.Shape(), shape) {
		return fmt.Errorf("expr.EvalInto: %w: output shape %v, expression shape %v", ErrOutput, dst.Shape(), shape)
	}
	if dst.ReadOnly() {
		return fmt.Errorf("expr.EvalInto: %w: output %#v: %w", ErrOutput, dst, array.ErrReadOnly)
	}
	return nil
}

// span is the byte range [lo, hi) of a buffer an array can reach.
func span(a *array.Array) (lo, hi uintptr) {
	b := a.Data().Bytes()
	if len(b) == 0 {
		return 0, 0
	}
	lo = uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return lo, lo + uintptr(len(b))
}

// overlaps reports whether dst's buffer overlaps any leaf's buffer.
func overlaps(dst *array.Array, r *rnode) bool {
	dlo, dhi := span(dst)
	if dlo == dhi {
		return false
	}
	hit := false
	var walk func(*rnode)
	walk = func(x *rnode) {
		if hit {
			return
		}
		if x.isLeaf() {
			lo, hi := span(x.arr)
			if lo < dhi && dlo < hi {
				hit = true
			}
			return
		}
		for _, a := range x.args {
			walk(a)
		}
	}
	walk(r)
	return hit
}

// newOutput allocates a contiguous result array.
func (ev *evaluation) newOutput(dt array.DType, shape []int) (*array.Array, error) {
	return array.Empty(ev.o.mem, dt, shape...)
}

// buildGroup prepares the fused pass of the tree at r over shape, with the
// output strides dstStrides (in the same index space), converting the
// root's value to want (when valid).
//
// stream allows non-temporal stores of the output. The output's pages must
// be mapped already: an output that exists (EvalInto), a reused buffer, or
// a fresh one whose pages array.EmptyTouched faulted in. A fault under a
// streaming store costs several times what the store saves (measured: a
// 128 MiB result took 64 ms streamed into new pages, 12.6 ms with plain
// stores, 4.1 ms streamed into pages already mapped).
func (ev *evaluation) buildGroup(r *rnode, shape, dstStrides []int, want array.DType, storeDirect, stream bool) (*group, error) {
	g := &group{shape: shape, tile: passTile(ev.o.tile, size(shape))}
	path := make([]int, len(r.shape))
	for i := range path {
		path[i] = i
	}
	if err := g.collect(r, path); err != nil {
		return nil, err
	}
	g.coalesce(dstStrides)
	if err := g.compile(r); err != nil {
		return nil, err
	}
	if want.Valid() && g.rootT != want {
		v, err := g.cast(value{reg: g.root, dt: g.rootT, scalar: g.rootS}, want)
		if err != nil {
			return nil, err
		}
		g.root, g.rootT = v.reg, v.dt
	}
	rootIsLeaf := g.root < len(g.leaves)
	g.nphys = g.regAlloc()
	g.wide = max(g.wide, 1)
	if !ev.o.tileSet {
		g.tile = passTile(ev.o.tile*g.tileBytes()/g.wide, size(shape))
	}
	if err := g.checkScratch(); err != nil {
		return nil, err
	}
	g.direct = storeDirect && !rootIsLeaf && !g.rootS && g.dstCS[len(g.dstCS)-1] == 1
	if storeDirect {
		g.planBatch()
	}
	for _, l := range g.leaves {
		l.prefetch = prefetchOn && l.inner() == 1 && !l.periodic && l.r.arr.Len()*l.dt.Size() >= ntThreshold
	}
	if stream && size(shape)*g.rootT.Size() >= ntThreshold && g.dstCS[len(g.dstCS)-1] == 1 && !g.masked {
		if g.arithmeticBound() {
			if compute.Asm { // (the pure-Go build has no streaming kernels)
				g.notes = append(g.notes, "plain stores: the pass is bound by its arithmetic, which non-temporal stores would not overlap")
			}
		} else {
			g.streamOutput(rootIsLeaf, ev.dstOff)
		}
	}
	if storeDirect {
		g.plan2D() // after streamOutput: it picks the streaming form when the pass streams
	}
	if err := g.rootMoves(); err != nil {
		return nil, err
	}
	return g, nil
}

// rootMoves looks up the select and moves of the root value's element
// size (whereZero, scatter, gatherOut).
func (g *group) rootMoves() error {
	sz := g.rootT.Size()
	var err error
	if g.whereZero, err = compute.LookupWhere(sz); err != nil {
		return err
	}
	if g.scatter, err = compute.Scatter(sz); err != nil {
		return err
	}
	g.gatherOut, err = compute.Gather(sz)
	return err
}

func (ev *evaluation) elementwise(r *rnode, dst *array.Array) (*array.Array, error) {
	if dst != nil {
		if err := checkOutput(dst, r.dtype, r.shape); err != nil {
			return nil, err
		}
		if overlaps(dst, r) {
			tmp, err := ev.elementwise(r, nil)
			if err != nil {
				return nil, err
			}
			defer tmp.Release()
			cp := &rnode{n: &Node{kind: kCast, dtype: r.dtype, ctype: r.dtype, args: []*Node{r.n}}, shape: r.shape, dtype: r.dtype, ctype: r.dtype,
				args: []*rnode{{n: r.n, shape: r.shape, arr: tmp, dtype: r.dtype, ctype: r.dtype}},
				maps: []broadcast.AxisMap{identityMap(len(r.shape))}}
			return ev.elementwise(cp, dst)
		}
	}
	// A new output's pages are mapped before the pass (runElementwise), so
	// it can stream like an existing one.
	ev.dstOff = 0
	if dst != nil {
		ev.dstOff = int((uintptr(dst.DataPointer()) + uintptr(dst.Offset()*dst.DType().Size())) % 32)
	}
	g, err := ev.buildGroup(r, r.shape, outStrides(dst, r.shape), r.dtype, true, true)
	if err != nil {
		return nil, err
	}
	if r == ev.root && len(ev.temps) == 0 {
		ev.single = g
	}
	if ev.describe(g, r, "elementwise", dst) {
		return nil, nil
	}
	return runElementwise(g, g.arrays(), r.dtype, r.shape, dst, ev.o)
}

// runElementwise runs a built elementwise pass over the given leaf arrays
// into dst, or into a new array when dst is nil.
func runElementwise(g *group, arrs []*array.Array, dt array.DType, shape []int, dst *array.Array, o *options) (*array.Array, error) {
	out := dst
	if out == nil {
		var err error
		// a reused buffer is mapped already; fresh pages are faulted in
		// by all the workers before the pass
		if out, err = array.EmptyTouched(o.mem, o.workers, dt, shape...); err != nil {
			return nil, err
		}
	}
	if g.masked {
		if err := out.EnsureValidity(); err != nil {
			if dst == nil {
				out.Release()
			}
			return nil, err
		}
	}
	t := target{base: out.DataPointer(), off: out.Offset(), size: dt.Size(), mask: out.ValidityPointer()}
	g.execute(t, arrs, o.workers, false, nil)
	runtime.KeepAlive(arrs) // the pass reads their buffers through raw pointers
	return out, nil
}

// ntThreshold is the output size in bytes from which results are written
// with non-temporal stores: half this machine's L3 (32 MiB), far larger
// than L1 and L2, so the result would evict the inputs on its way out and
// is unlikely to be read again while still cached.
var ntThreshold = 16 << 20

// tileBytes is the bytes a register of the pass takes per element of
// DefaultTile (the tile is DefaultTile*tileBytes/wide elements): 8, a
// register of 8 KiB, except in a pass that reads two or more long runs
// from memory (x and y of W5's (x + b) * s - y), which takes 4. Its
// kernels consume those runs one after another within a tile, and with 8
// KiB a register one run's hardware prefetch went idle while another's
// kernel ran: W5 on one worker 10.8 -> 7.6 ms (out), 10.1 -> 7.6 (alloc),
// medians of 15 samples interleaved; passes reading one long run measured
// equal or slower with the smaller tile (W1, W3, W8 alloc by 8-15 %).
func (g *group) tileBytes() int {
	runs := 0
	for _, l := range g.leaves {
		if l.inner() == 1 && l.r.arr != nil && l.r.arr.Len()*l.dt.Size() >= ntThreshold {
			runs++
		}
	}
	if runs >= 2 {
		return 4
	}
	return 8
}

// prefetchOn asks for the next tile of every operand that streams from
// memory while the current tile is computed. It is off: on 2026-11-21 it
// made W5 and W6 5 to 10% faster, but on 2026-11-22 (same machine kind, in
// one process, interleaved) it made W5 30% slower (15-16 against 10-12 ms
// on one worker) and W8 25% slower, the others unchanged: the hardware
// prefetchers follow these unit-stride streams, and the extra requests
// compete with them for the line fill buffers. BenchmarkPrefetch re-measures
// it; TestPrefetchMatches keeps the path correct.
var prefetchOn = false

// arithmeticBound reports whether the pass computes an op whose
// arithmetic, not memory, bounds it (compute.Op.ArithmeticBound): its
// result is stored plainly, since streaming stores would not overlap the
// arithmetic.
func (g *group) arithmeticBound() bool {
	for _, in := range g.prog {
		if (in.code == iUnary || in.code == iBinary) && in.castFrom == array.Invalid && in.op.ArithmeticBound() {
			return true
		}
	}
	return false
}

// streamOutput switches the store of the root value to non-temporal stores
// where a kernel exists: the root instruction when it writes straight into
// the output, or the copy of a leaf that is the whole expression.
func (g *group) streamOutput(rootIsLeaf bool, dstOff int) {
	if rootIsLeaf {
		g.nt = compute.Asm
		return
	}
	if !g.direct || len(g.prog) == 0 {
		return
	}
	in := &g.prog[len(g.prog)-1]
	if in.dst != g.root {
		return
	}
	// the streaming kernels store a run's unaligned head and tail plainly,
	// into lines the neighbouring runs stream into (a plain store reads its
	// line from memory first: rows of 1001 float32 took twice as long as
	// rows of 1000)
	unaligned := g.unalignedRuns(dstOff)
	if unaligned && (in.code != iBinary && in.code != iUnary || in.scalar || g.outerRows() < 2) {
		// computed into the tile buffer, the runs are copied out with
		// streaming stores only (compute.CopyNT). A one-dimensional pass
		// (its runs are tiles, off alignment when the output is) takes
		// this way too: sqrt of 16M float32 into an output one element off
		// took 7.5-7.7 ms so and 8.2-10 ms with rootSeams' three calls a
		// tile.
		g.direct = false
		g.nt = compute.Asm
		g.notes = append(g.notes, "streamed through the tile buffer: output runs are not whole 32-byte units")
		return
	}
	switch in.code {
	case iBinary:
		if k, ok := compute.LookupBinaryNT(in.op, in.kt, in.form); ok {
			in.plainBin, in.bin = in.bin, k
			in.name += " (streaming stores)"
			g.nt = true
		}
	case iUnary:
		if k, ok := compute.LookupUnaryNT(in.op, in.kt); ok && !in.scalar {
			in.plainUn, in.un = in.un, k
			in.name += " (streaming stores)"
			g.nt = true
		}
	case iChain:
		if k, ok := compute.LookupChain(in.op, in.op2, in.kt, in.bS, in.cS, true); ok {
			in.chain = k
			in.name += " (streaming stores)"
			g.nt = true
		}
	case iSelCmp:
		if k, ok := compute.LookupSelectCompareNT(in.op, in.kt, in.bS, in.dS); ok {
			in.sel = k
			in.name += " (streaming stores)"
			g.nt = true
		}
	}
	if unaligned && g.nt {
		// the aligned body of each run streams straight into the output;
		// its head and tail are computed into the tile buffer and
		// streamed out (rootSeams)
		g.seams = true
		g.notes = append(g.notes, "output runs are not whole 32-byte units: their heads and tails stream through the tile buffer")
	}
}

// unalignedRuns reports whether the runs the pass stores into the output
// one call at a time (a row, or a batch of rows, cut into tiles) may start
// or end inside a 32-byte unit of the output, whose first element lies
// dstOff bytes past a 32-byte boundary: the output is off alignment, or the
// inner dim of a multi-dimensional pass, or the tile, is not a whole number
// of 32-byte units. A pass of one run has no neighbouring run.
func (g *group) unalignedRuns(dstOff int) bool {
	sz := g.rootT.Size()
	r := len(g.cshape)
	rows := g.outerRows()
	long := size(g.cshape) > g.tile
	if rows < 2 && !long {
		return false
	}
	if dstOff%32 != 0 || long && g.tile*sz%32 != 0 {
		return true
	}
	if rows < 2 {
		return false
	}
	c := g.cshape[r-1]
	return c*sz%32 != 0 && (g.batch < 2 || g.batch*c*sz%32 != 0)
}

// outerRows is the number of rows of the coalesced iteration space (1 for
// a one-dimensional pass, whose runs are its tiles).
func (g *group) outerRows() int {
	if r := len(g.cshape); r > 1 {
		return size(g.cshape[:r-1])
	}
	return 1
}

// outStrides is the output's strides in its own index space (contiguous for
// a fresh output).
func outStrides(dst *array.Array, shape []int) []int {
	if dst == nil {
		return array.ContiguousStrides(shape)
	}
	return dst.Strides()
}
