package expr

import (
	"fmt"
	"sync/atomic"
	"unsafe"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
)

// A group is one fused pass: an elementwise tree whose leaves are read in
// place (strides in the root's index space, 0 where broadcast), evaluated
// tile by tile into the output, or, for a reduction, folded into an
// accumulator. It is built for one layout of the leaves and the output and
// reused while that layout repeats.
type group struct {
	shape     []int // iteration space (the root's shape; a reduction's argument's)
	cshape    []int // coalesced iteration space; never empty (rank 0 runs as [1])
	leaves    []*leafOp
	prog      []instr
	nregs     int  // scratch registers, each tile elements of wide bytes
	wide      int  // the widest element (bytes) of any leaf or register
	fusedStep bool // the accumulating step does the pass's one cast (fuseWidenAccum)
	root      int  // register holding the root's value
	rootT     array.DType
	rootS     bool             // the root value is one element (every leaf is constant along the inner axis)
	direct    bool             // the root instruction writes straight into the output run
	nt        bool             // the output is streamed with non-temporal stores
	seams     bool             // nt, direct: each run's unaligned head and tail go through the tile buffer (rootSeams)
	batch     int              // rows per tile when the inner axis is short (0: one row at a time)
	rows      compute.RowsFunc // sums of one leaf over the row axis: several rows per call
	rowsOK    bool             // rows applies (an accurate sum calls its target's Rows instead)
	runs      bool             // a fold of one leaf read in place: each run goes to the fold kernel whole
	count     bool             // a counting pass: fold 1 for each valid element instead of the values
	k2d       compute.Binary2D // one binary kernel over whole rows (see plan2D)
	k2dNT     compute.Binary2D // its streaming variant, for rows that are 32-byte aligned
	masked    bool             // some leaf has a validity mask
	dstCS     []int            // coalesced output (or accumulator) strides
	tile      int
	notes     []string  // what Explain prints
	reused    []emitted // values of shared nodes, computed once per tile (cse_emit.go)

	nphys     int               // physical registers after allocation
	whereZero compute.WhereFunc // select on the root's element size
	scatter   compute.MoveFunc  // moves of the root's element size
	gatherOut compute.MoveFunc

	fitID atomic.Uint64 // set on the first getWorker: workers fitted to this group keep it (worker.fitted)
}

// leafOp is one leaf array of a group.
type leafOp struct {
	r      *rnode
	dt     array.DType
	rs     []int // strides in the root's index space
	cs     []int // coalesced strides
	reg    int
	gather compute.MoveFunc // non-nil: the inner stride is neither 0 nor 1
	mask   bool
	// periodic: in a batch of rows this leaf repeats each row (stride 0 on
	// the row axis, not on the inner one); it is expanded into scratch once.
	periodic bool
	expand   compute.MoveFunc
	// prefetch: the leaf streams from memory (read in place, unit stride,
	// large): the next tile is requested while this one is computed.
	prefetch bool
}

type icode uint8

const (
	iBinary icode = iota + 1
	iUnary
	iWhere
	iSelCmp // fused select by comparison: dst = (a op b) ? c : d
	iChain  // fused two ops: dst = (a op b) op2 c
)

type instr struct {
	code       icode
	bin        compute.BinaryFunc
	un         compute.UnaryFunc
	wh         compute.WhereFunc
	sel        compute.SelectCompareFunc
	chain      compute.ChainFunc
	op2        compute.Op // iChain: the second op
	cS         bool       // iChain: c is one repeated element
	d          int        // iSelCmp: the fourth operand (y)
	bS, dS     bool       // iSelCmp: b and d are one repeated element
	mv         compute.MoveFunc
	dst        int
	a, b, c    int
	scalar     bool // operates on one element
	as, bs, cs int  // where: steps (0 or 1) of cond, x, y
	name       string
	inPlace    bool         // the kernel may write over its first operand
	castFrom   array.DType  // a cast (iUnary): the dtype it converts from (Invalid: not a cast)
	op         compute.Op   // binary: the operator, type and form, to find
	kt         compute.Type // a streaming variant of the kernel
	form       compute.Form
	// plainBin, plainUn: the root's kernel with plain stores, kept when a
	// streaming one replaces it, for the pieces of a run that streams
	// through the tile buffer (group.seams)
	plainBin compute.BinaryFunc
	plainUn  compute.UnaryFunc
}

// value is what emit returns: a register, its dtype and whether it holds one
// element.
type value struct {
	reg    int
	dt     array.DType
	scalar bool
}

// composeStrides gives a leaf's strides in the root's index space, following
// the axis maps from the leaf up to the root: axis i of the leaf lands on root
// axis j and keeps its stride if its size equals the root's there; a size-1
// axis, a dropped axis and every root axis no leaf axis lands on get stride 0.
func composeStrides(leaf *rnode, path []int, rootShape []int) ([]int, error) {
	rs := make([]int, len(rootShape))
	for i, d := range leaf.shape {
		j := path[i]
		if j < 0 || d == 1 {
			continue
		}
		if d != rootShape[j] {
			return nil, fmt.Errorf("expr: internal error: leaf axis %d (size %d) maps to root axis %d of size %d", i, d, j, rootShape[j])
		}
		rs[j] = leaf.arr.Stride(i)
	}
	return rs, nil
}

// collect finds the leaves under r (the group root, or an argument of a
// reduction root) with their root-space strides. path[i] is the root axis of
// r's axis i.
func (g *group) collect(r *rnode, path []int) error {
	if r.isLeaf() {
		rs, err := composeStrides(r, path, g.shape)
		if err != nil {
			return err
		}
		l := &leafOp{r: r, dt: r.arr.DType(), rs: rs, mask: r.arr.HasNulls()}
		g.masked = g.masked || l.mask
		g.wide = max(g.wide, l.dt.Size())
		g.leaves = append(g.leaves, l)
		return nil
	}
	for k, a := range r.args {
		m := r.maps[k]
		sub := make([]int, len(m))
		for i, j := range m {
			sub[i] = -1
			if j >= 0 {
				sub[i] = path[j]
			}
		}
		if err := g.collect(a, sub); err != nil {
			return err
		}
	}
	return nil
}

// coalesce drops size-1 axes and merges neighbouring axes along which every
// operand (the leaves and the output) steps uniformly.
func (g *group) coalesce(dstStrides []int) {
	type ax struct {
		n  int
		st []int // per leaf, then the output last
	}
	var axes []ax
	for j, d := range g.shape {
		if d == 1 {
			continue
		}
		st := make([]int, len(g.leaves)+1)
		for k, l := range g.leaves {
			st[k] = l.rs[j]
		}
		st[len(g.leaves)] = dstStrides[j]
		if len(axes) > 0 {
			prev := &axes[len(axes)-1]
			ok := true
			for k := range st {
				if prev.st[k] != st[k]*d {
					ok = false
					break
				}
			}
			if ok {
				prev.n *= d
				copy(prev.st, st)
				continue
			}
		}
		axes = append(axes, ax{n: d, st: st})
	}
	if len(axes) == 0 || size(g.shape) == 0 {
		// rank 0, all dims 1, or empty: one run of size(shape) elements.
		st := make([]int, len(g.leaves)+1)
		axes = []ax{{n: size(g.shape), st: st}}
	}
	g.cshape = make([]int, len(axes))
	for _, l := range g.leaves {
		l.cs = make([]int, len(axes))
	}
	g.dstCS = make([]int, len(axes))
	for j, a := range axes {
		g.cshape[j] = a.n
		for k, l := range g.leaves {
			l.cs[j] = a.st[k]
		}
		g.dstCS[j] = a.st[len(g.leaves)]
	}
}

// innerStride of a leaf after coalescing.
func (l *leafOp) inner() int { return l.cs[len(l.cs)-1] }

// compile turns the tree under r into register instructions. Leaves take
// registers 0..len(leaves)-1 (set per tile); scratch registers follow.
func (g *group) compile(r *rnode) error {
	g.nregs = len(g.leaves)
	for i, l := range g.leaves {
		l.reg = i
		if s := l.inner(); s != 0 && s != 1 {
			var err error
			if l.gather, err = compute.Gather(l.dt.Size()); err != nil {
				return err
			}
		}
	}
	next := 0
	v, err := g.emit(r, &next)
	if err != nil {
		return err
	}
	g.root, g.rootT, g.rootS = v.reg, v.dt, v.scalar
	return nil
}

// newReg returns a new register for values of type dt.
func (g *group) newReg(dt array.DType) int {
	g.wide = max(g.wide, dt.Size())
	g.nregs++
	return g.nregs - 1
}

func (g *group) add(in instr) {
	g.prog = append(g.prog, in)
	g.notes = append(g.notes, in.name)
}

// cast converts v to dt, emitting a cast when the dtypes differ.
func (g *group) cast(v value, dt array.DType) (value, error) {
	if v.dt == dt {
		return v, nil
	}
	k, err := compute.LookupCast(compute.Type(v.dt), compute.Type(dt))
	if err != nil {
		return v, err
	}
	out := value{reg: g.newReg(dt), dt: dt, scalar: v.scalar}
	g.add(instr{code: iUnary, un: k, dst: out.reg, a: v.reg, scalar: v.scalar, castFrom: v.dt, name: fmt.Sprintf("cast %v->%v", v.dt, dt)})
	return out, nil
}

// tieTakesSecond reports whether op's float kernels give the second
// operand where the two compare equal (+0 and -0): maximum, minimum, fmax
// and fmin, which are symmetric otherwise (NaN included, up to its sign).
func tieTakesSecond(op compute.Op) bool {
	return op == compute.Maximum || op == compute.Minimum || op == compute.Fmax || op == compute.Fmin
}

// kernelType is the type an op computes in: half precision runs in float32
// (but absolute value and negation, which compute has for float16 itself).
func kernelType(dt array.DType) array.DType {
	if dt == array.Float16 {
		return array.Float32
	}
	return dt
}

// emitNode emits the instructions of r (emit, in cse_emit.go, first looks
// for a value already computed for a shared node).
func (g *group) emitNode(r *rnode, next *int) (value, error) {
	if r.isLeaf() {
		l := g.leaves[*next]
		*next++
		return value{reg: l.reg, dt: l.dt, scalar: l.inner() == 0}, nil
	}
	n := r.n
	if n.kind == kWhere && g.fusible(r) {
		return g.emitSelectCompareFused(r, next)
	}
	if n.kind == kBinary && g.chainable(r) {
		return g.emitChainFused(r, next)
	}
	args := make([]value, len(r.args))
	for i, a := range r.args {
		v, err := g.emit(a, next)
		if err != nil {
			return value{}, err
		}
		args[i] = v
	}
	switch n.kind {
	case kBroadcast:
		return args[0], nil // a broadcast is strides, already applied to the leaves
	case kCast:
		return g.cast(args[0], r.dtype)
	case kUnary:
		kt := kernelType(r.ctype)
		if _, err := compute.LookupUnary(n.op, compute.Float16); err == nil && r.ctype == array.Float16 {
			kt = array.Float16 // a sign-bit op (compute's halfbits.go), not a trip through float32
		}
		x, err := g.cast(args[0], kt)
		if err != nil {
			return value{}, err
		}
		k, err := compute.LookupUnary(n.op, compute.Type(kt))
		if err != nil {
			return value{}, fmt.Errorf("expr.%v on %v: %w", n.op, kt, err)
		}
		rt := kt
		if n.op.Info().Result == compute.BoolOut {
			rt = array.Bool
		}
		out := value{reg: g.newReg(rt), dt: rt, scalar: x.scalar}
		g.add(instr{code: iUnary, un: k, dst: out.reg, a: x.reg, scalar: x.scalar, name: fmt.Sprintf("%v %v", n.op, kt), op: n.op, kt: compute.Type(kt)})
		return g.cast(out, r.dtype)
	case kBinary:
		kt := kernelType(r.ctype)
		x, err := g.cast(args[0], kt)
		if err != nil {
			return value{}, err
		}
		y, err := g.cast(args[1], kt)
		if err != nil {
			return value{}, err
		}
		if r.ctype == array.Float16 && tieTakesSecond(n.op) {
			// NumPy's float16 loops give the first operand where +0 and -0
			// tie, its float32 ones (which compute float16 here) the second
			x, y = y, x
		}
		form, formName := compute.VV, "vv"
		switch {
		case x.scalar && !y.scalar:
			form, formName = compute.SV, "sv"
		case y.scalar && !x.scalar:
			form, formName = compute.VS, "vs"
		}
		k, err := compute.LookupBinary(n.op, compute.Type(kt), form)
		if err != nil {
			return value{}, fmt.Errorf("expr.%v on %v: %w", n.op, kt, err)
		}
		rt := kt
		if n.op.Info().Result == compute.BoolOut {
			rt = array.Bool
		}
		out := value{reg: g.newReg(rt), dt: rt, scalar: x.scalar && y.scalar}
		g.add(instr{code: iBinary, bin: k, dst: out.reg, a: x.reg, b: y.reg, scalar: out.scalar, name: fmt.Sprintf("%v %v %s", n.op, kt, formName),
			op: n.op, kt: compute.Type(kt), form: form,
			inPlace: compute.Asm && rt == kt && !x.scalar && (n.op == compute.Add || n.op == compute.Sub || n.op == compute.Mul)})
		return g.cast(out, r.dtype)
	case kWhere:
		c, err := g.cast(args[0], array.Bool)
		if err != nil {
			return value{}, err
		}
		x, err := g.cast(args[1], r.ctype)
		if err != nil {
			return value{}, err
		}
		y, err := g.cast(args[2], r.ctype)
		if err != nil {
			return value{}, err
		}
		k, err := compute.LookupWhere(r.ctype.Size())
		if err != nil {
			return value{}, err
		}
		step := func(v value) int {
			if v.scalar {
				return 0
			}
			return 1
		}
		out := value{reg: g.newReg(r.ctype), dt: r.ctype, scalar: c.scalar && x.scalar && y.scalar}
		g.add(instr{code: iWhere, wh: k, dst: out.reg, a: c.reg, b: x.reg, c: y.reg, scalar: out.scalar,
			as: step(c), bs: step(x), cs: step(y), name: fmt.Sprintf("select %v steps %d%d%d", r.ctype, step(c), step(x), step(y))})
		return out, nil
	}
	return value{}, fmt.Errorf("expr: internal error: %s inside a fused group", n.opName())
}

// regAlloc maps the virtual registers of the program onto few physical
// ones: a scratch register is reused once the last instruction reading it
// has run, and an instruction never writes a register it reads (vek forbids
// overlap). The root gets a register of its own, so that a tile can point it
// straight at the output. Leaf registers keep their numbers. It returns the
// number of physical registers.
func (g *group) regAlloc() int {
	nl := len(g.leaves)
	last := make([]int, g.nregs)
	for i := range last {
		last[i] = -1
	}
	for pc, in := range g.prog {
		for _, r := range in.reads() {
			last[r] = pc
		}
	}
	phys := make([]int, g.nregs)
	for i := range phys {
		phys[i] = i
	}
	freed := make([]bool, g.nregs)
	var free []int
	used := nl
	for pc := range g.prog {
		in := &g.prog[pc]
		vr := in.reads()
		in.a, in.b, in.c, in.d = phys[in.a], phys[in.b], phys[in.c], phys[in.d]
		var p int
		switch {
		case in.dst == g.root:
			p = used
			used++
		case in.inPlace && vr[0] >= nl && last[vr[0]] == pc && !freed[vr[0]]:
			// overwrite the dying first operand (same dtype; the kernel
			// reads each vector before it stores it)
			p = phys[vr[0]]
			freed[vr[0]] = true
		case len(free) > 0:
			p, free = free[len(free)-1], free[:len(free)-1]
		default:
			p = used
			used++
		}
		phys[in.dst] = p
		in.dst = p
		for _, r := range vr {
			if r >= nl && last[r] == pc && !freed[r] {
				freed[r] = true
				free = append(free, phys[r])
			}
		}
	}
	g.root = phys[g.root]
	return used
}

// reads returns the virtual registers an instruction reads (before
// allocation rewrote them).
func (in instr) reads() []int {
	switch in.code {
	case iSelCmp:
		return []int{in.a, in.b, in.c, in.d}
	case iChain:
		return []int{in.a, in.b, in.c}
	case iBinary:
		return []int{in.a, in.b}
	case iWhere:
		return []int{in.a, in.b, in.c}
	}
	return []int{in.a}
}

var zero8 [8]byte

var zeroPtr = unsafe.Pointer(&zero8)

// arrays returns the leaf arrays the group was built with.
func (g *group) arrays() []*array.Array {
	a := make([]*array.Array, len(g.leaves))
	for k, l := range g.leaves {
		a[k] = l.r.arr
	}
	return a
}

// planBatch lets a tile span several rows when the inner axis is shorter
// than a tile: possible when every leaf either continues its run from one
// row to the next (row stride = inner size * inner stride) or repeats each
// row (row stride 0), and the output continues its run. Repeating leaves are
// expanded into scratch once per batch layout, not once per row. A
// [64 64] + [64] add then runs as four tiles instead of 64.
func (g *group) planBatch() {
	r := len(g.cshape)
	if r < 2 || g.masked {
		return
	}
	c := g.cshape[r-1]
	k := min(g.tile/c, g.cshape[r-2])
	if k < 2 {
		return
	}
	j := r - 2
	if g.dstCS[j] != c*g.dstCS[r-1] {
		return
	}
	for _, l := range g.leaves {
		s := l.inner()
		switch {
		case l.cs[j] == c*s:
		case l.cs[j] == 0:
			l.periodic = true
		default:
			for _, l := range g.leaves {
				l.periodic = false
			}
			return
		}
	}
	for _, l := range g.leaves {
		if l.periodic {
			l.expand, _ = compute.Gather(l.dt.Size())
		}
	}
	g.batch = k
}

// fusible reports whether a select can run as one fused select-by-comparison
// kernel: its condition is a comparison of floats computed in the select's
// own dtype, and the build has such kernels (AVX2). Whether the operands'
// forms fit is known only after they are emitted; emitSelectCompareFused
// falls back to separate kernels when they do not.
func (g *group) fusible(r *rnode) bool {
	c := r.args[0]
	if c.isLeaf() || c.shared || c.n.kind != kBinary || !c.n.op.IsComparison() {
		return false
	}
	if r.ctype != array.Float32 && r.ctype != array.Float64 || c.ctype != r.ctype {
		return false
	}
	_, ok := compute.LookupSelectCompare(c.n.op, compute.Type(r.ctype), false, false)
	return ok
}

// emitSelectCompareFused emits where(a op b, x, y) as one kernel. The
// operands are emitted in tree order (a, b, x, y: the order collect found
// the leaves in). Forms the kernels lack (a or x one repeated element) are
// evaluated as a comparison and a select instead.
func (g *group) emitSelectCompareFused(r *rnode, next *int) (value, error) {
	c := r.args[0]
	dt := r.ctype
	var vals [4]value
	for i, node := range []*rnode{c.args[0], c.args[1], r.args[1], r.args[2]} {
		v, err := g.emit(node, next)
		if err != nil {
			return value{}, err
		}
		if vals[i], err = g.cast(v, dt); err != nil {
			return value{}, err
		}
	}
	a, b, x, y := vals[0], vals[1], vals[2], vals[3]
	op := c.n.op
	if a.scalar && !b.scalar {
		a, b = b, a
		op = swapComparison(op)
	}
	if a.scalar || x.scalar {
		return g.emitSelectUnfused(op, a, b, x, y, dt)
	}
	k, ok := compute.LookupSelectCompare(op, compute.Type(dt), b.scalar, y.scalar)
	if !ok {
		return g.emitSelectUnfused(op, a, b, x, y, dt)
	}
	out := value{reg: g.newReg(dt), dt: dt}
	g.add(instr{code: iSelCmp, sel: k, dst: out.reg, a: a.reg, b: b.reg, c: x.reg, d: y.reg, bS: b.scalar, dS: y.scalar,
		op: op, kt: compute.Type(dt), name: fmt.Sprintf("select(%v) %v fused", op, dt)})
	return out, nil
}

// emitSelectUnfused is the comparison then the select, as separate kernels.
func (g *group) emitSelectUnfused(op compute.Op, a, b, x, y value, dt array.DType) (value, error) {
	form := compute.VV
	switch {
	case a.scalar && !b.scalar:
		form = compute.SV
	case b.scalar && !a.scalar:
		form = compute.VS
	}
	k, err := compute.LookupBinary(op, compute.Type(dt), form)
	if err != nil {
		return value{}, err
	}
	cond := value{reg: g.newReg(array.Bool), dt: array.Bool, scalar: a.scalar && b.scalar}
	g.add(instr{code: iBinary, bin: k, dst: cond.reg, a: a.reg, b: b.reg, scalar: cond.scalar, name: fmt.Sprintf("%v %v", op, dt)})
	wk, err := compute.LookupWhere(dt.Size())
	if err != nil {
		return value{}, err
	}
	step := func(v value) int {
		if v.scalar {
			return 0
		}
		return 1
	}
	out := value{reg: g.newReg(dt), dt: dt, scalar: cond.scalar && x.scalar && y.scalar}
	g.add(instr{code: iWhere, wh: wk, dst: out.reg, a: cond.reg, b: x.reg, c: y.reg, scalar: out.scalar,
		as: step(cond), bs: step(x), cs: step(y), name: fmt.Sprintf("select %v", dt)})
	return out, nil
}

// swapComparison gives the comparison with its operands exchanged.
func swapComparison(op compute.Op) compute.Op {
	switch op {
	case compute.Greater:
		return compute.Less
	case compute.GreaterEqual:
		return compute.LessEqual
	case compute.Less:
		return compute.Greater
	case compute.LessEqual:
		return compute.GreaterEqual
	}
	return op
}

// plan2D runs a pass whose whole program is one binary kernel, reading two
// leaves in place and writing straight into the output, with the kernel's
// row-looped form: one call per run of rows instead of one per tile, with
// no scratch (x + bias, a * b over broadcast axes, x + c[:, None]).
func (g *group) plan2D() {
	r := len(g.cshape)
	nl := len(g.leaves)
	if r < 2 || len(g.prog) != 1 || !g.direct || g.masked || g.seams {
		return
	}
	in := g.prog[0]
	if in.code != iBinary || in.dst != g.root || in.a >= nl || in.b >= nl {
		return
	}
	if g.leaves[in.a].gather != nil || g.leaves[in.b].gather != nil {
		return
	}
	k, ok := compute.LookupBinary2D(in.op, in.kt, in.form, false)
	if !ok || g.cshape[r-1]%k.Lanes != 0 {
		return
	}
	if size(g.shape)*g.rootT.Size() <= cachedBytes {
		// cache-resident: the 512-bit kernel where the CPU has one
		k, _ = compute.LookupBinary2DCached(in.op, in.kt, in.form)
	}
	g.k2d = k
	if g.nt {
		g.k2dNT, _ = compute.LookupBinary2D(in.op, in.kt, in.form, true)
	}
	g.notes = append(g.notes, "row-looped kernel: whole rows per call")
}

// cachedBytes is the output size up to which a pass's data is taken to be
// in cache (the 1 MiB L2 here), where wider vectors pay off; beyond it the
// pass is bound by memory and the AVX2 kernels are as fast.
const cachedBytes = 1 << 20

func isArith(op compute.Op) bool { return op == compute.Add || op == compute.Sub || op == compute.Mul }

// chainable reports whether a binary add/sub/mul on float32 or float64
// whose first operand is itself an add/sub/mul computed in the same type
// (no conversion between them) can run as one fused two-op kernel.
func (g *group) chainable(r *rnode) bool {
	if !isArith(r.n.op) || (r.ctype != array.Float32 && r.ctype != array.Float64) || r.dtype != r.ctype {
		return false
	}
	in := r.args[0]
	if in.isLeaf() || in.shared || in.n.kind != kBinary || !isArith(in.n.op) || in.ctype != r.ctype || in.dtype != r.ctype {
		return false
	}
	_, ok := compute.LookupChain(in.n.op, r.n.op, compute.Type(r.ctype), false, false, false)
	return ok
}

// emitChainFused emits (a op1 b) op2 c as one kernel, its operands in tree
// order (a, b, c: the order collect found the leaves in). A repeated a has
// no fused form: the two ops are then emitted one after the other.
func (g *group) emitChainFused(r *rnode, next *int) (value, error) {
	in := r.args[0]
	dt := r.ctype
	var vals [3]value
	for i, node := range []*rnode{in.args[0], in.args[1], r.args[1]} {
		v, err := g.emit(node, next)
		if err != nil {
			return value{}, err
		}
		if vals[i], err = g.cast(v, dt); err != nil {
			return value{}, err
		}
	}
	a, b, c := vals[0], vals[1], vals[2]
	if a.scalar {
		t, err := g.emitBinary(in.n.op, a, b, dt)
		if err != nil {
			return value{}, err
		}
		return g.emitBinary(r.n.op, t, c, dt)
	}
	k, _ := compute.LookupChain(in.n.op, r.n.op, compute.Type(dt), b.scalar, c.scalar, false)
	out := value{reg: g.newReg(dt), dt: dt}
	g.add(instr{code: iChain, chain: k, dst: out.reg, a: a.reg, b: b.reg, c: c.reg, bS: b.scalar, cS: c.scalar,
		op: in.n.op, op2: r.n.op, kt: compute.Type(dt), inPlace: true,
		name: fmt.Sprintf("(%v then %v) %v fused", in.n.op, r.n.op, dt)})
	return out, nil
}

// emitBinary emits one binary kernel on values already of type dt.
func (g *group) emitBinary(op compute.Op, x, y value, dt array.DType) (value, error) {
	form := compute.VV
	switch {
	case x.scalar && !y.scalar:
		form = compute.SV
	case y.scalar && !x.scalar:
		form = compute.VS
	}
	k, err := compute.LookupBinary(op, compute.Type(dt), form)
	if err != nil {
		return value{}, err
	}
	out := value{reg: g.newReg(dt), dt: dt, scalar: x.scalar && y.scalar}
	g.add(instr{code: iBinary, bin: k, dst: out.reg, a: x.reg, b: y.reg, scalar: out.scalar, name: fmt.Sprintf("%v %v", op, dt),
		op: op, kt: compute.Type(dt), form: form, inPlace: compute.Asm && !x.scalar})
	return out, nil
}
