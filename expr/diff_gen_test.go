package expr_test

// The random expression generator of the differential tests: it builds an
// expr.Node and the matching reference (ref) side by side, top-down from the
// shape the node must have, so that every combination it makes is valid.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/float16"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// intoCandidate is an array leaf that an EvalInto test may use as its output
// (an output overlapping an input).
type intoCandidate struct {
	arr   *array.Array
	shape []int
	dt    array.DType
}

type varDecl struct {
	name  string
	dt    array.DType
	shape []int
	arr   *array.Array
	node  *expr.Node
	ref   *refNode
	dyn   bool // declared with unknown rank
}

// gen builds one random expression at a time; reset between expressions.
type treeGen struct {
	rng    *rand.Rand
	mem    memory.Allocator
	arrs   []*array.Array // every array made for the current expression
	binds  expr.Bindings
	vars   []*varDecl
	cands  []intoCandidate
	budget int // largest element count of any intermediate

	// knobs
	nullProb    float64
	dtypes      []array.DType
	noMeanNulls bool // no nulls below ReduceMean
	noNulls     int  // > 0: make leaves without nulls
	alwaysInto  bool // evaluate every expression into preallocated outputs too
	// no interval dims around a 1 in variables (Broadcast pdpd stretches only a static 1)
	noIntervalOne bool
	// no reductions into outputs with an offset
	noOffsetReduce bool
	// no reductions into outputs with a validity mask
	noMaskedReduce bool

	// subtrees built for the current expression, which later parts of it
	// may use again (common subexpressions)
	subtrees []subtree

	// statistics over the whole run
	stats map[string]int
	seed  uint64
}

func newGen(seed uint64, mem memory.Allocator) *treeGen {
	return &treeGen{rng: rand.New(rand.NewPCG(seed, 0x5eed)), mem: mem, nullProb: 0.3,
		dtypes: array.DTypes, stats: map[string]int{}, seed: seed}
}

// reset starts expression number i: its random stream depends only on the
// seed and i, so that one expression can be replayed alone.
func (g *treeGen) reset(budget int, i int) {
	g.release()
	g.rng = rand.New(rand.NewPCG(g.seed, uint64(i)))
	g.binds = expr.Bindings{}
	g.vars = nil
	g.cands = nil
	g.subtrees = nil
	g.budget = budget
}

// subtree is a non-leaf expression built earlier in the current expression.
type subtree struct {
	node  *expr.Node
	ref   *refNode
	shape []int
	dyn   bool              // may hold variables of unknown rank
	nulls bool              // may hold nulls (built while noNulls was 0)
	twin  func() *expr.Node // builds a structurally equal node over the same arguments, or nil
}

// reuse returns a subtree of shape s built earlier, the same node or a
// structurally equal twin, so that the engine sees a subexpression reached
// by several paths.
func (g *treeGen) reuse(s []int, allowDyn bool) (*expr.Node, *refNode, bool) {
	for _, i := range g.rng.Perm(len(g.subtrees)) {
		st := g.subtrees[i]
		if !slices.Equal(st.shape, s) || (st.dyn && !allowDyn) || (st.nulls && g.noNulls > 0) {
			continue
		}
		if st.twin != nil && g.p(0.5) {
			g.stats["subtree twin"]++
			return st.twin(), st.ref, true
		}
		g.stats["subtree reused"]++
		return st.node, st.ref, true
	}
	return nil, nil, false
}

// record remembers a subtree for reuse.
func (g *treeGen) record(n *expr.Node, r *refNode, s []int, allowDyn bool, twin func() *expr.Node) {
	g.subtrees = append(g.subtrees, subtree{node: n, ref: r, shape: slices.Clone(s), dyn: allowDyn, nulls: g.noNulls == 0, twin: twin})
}

func (g *treeGen) release() {
	for _, a := range g.arrs {
		a.Release()
	}
	g.arrs = nil
}

func (g *treeGen) keep(a *array.Array) *array.Array {
	g.arrs = append(g.arrs, a)
	return a
}

func (g *treeGen) must(err error) {
	if err != nil {
		panic(err)
	}
}

func (g *treeGen) p(x float64) bool { return g.rng.Float64() < x }

func (g *treeGen) dtype() array.DType { return g.dtypes[g.rng.IntN(len(g.dtypes))] }

func numel(shape []int) int {
	n := 1
	for _, d := range shape {
		n *= d
	}
	return n
}

// ---- values ----

// randBits returns n random elements of dt as canonical bits: mostly small
// values (floats: multiples of 1/4, whose sums stay exact), with extremes,
// NaN, infinities and signed zeros mixed in.
func (g *treeGen) randBits(dt array.DType, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = g.randElem(dt)
	}
	return out
}

func (g *treeGen) randElem(dt array.DType) uint64 {
	p := g.rng.Float64()
	switch {
	case dt == array.Bool:
		return uint64(g.rng.IntN(2))
	case dt.IsSigned():
		switch {
		case p < 0.6:
			return uint64(int64(g.rng.IntN(17) - 8))
		case p < 0.75:
			return []uint64{extreme(dt, false), extreme(dt, true), math.MaxUint64, 0, 1}[g.rng.IntN(5)]
		}
		return wrapInt(dt, g.rng.Uint64())
	case dt.IsUnsigned():
		switch {
		case p < 0.6:
			return uint64(g.rng.IntN(17))
		case p < 0.75:
			return wrapInt(dt, []uint64{0, 1, math.MaxUint64, math.MaxUint64 - 1}[g.rng.IntN(4)])
		}
		return wrapInt(dt, g.rng.Uint64())
	}
	var f float64
	switch {
	case p < 0.7:
		f = float64(g.rng.IntN(129)-64) / 4
	case p < 0.78:
		f = []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0}[g.rng.IntN(5)]
	default:
		f = g.rng.NormFloat64() * math.Pow(10, float64(g.rng.IntN(7)-3))
	}
	if dt == array.Float64 {
		return math.Float64bits(f)
	}
	return fbits(dt, float64(float32(f)))
}

// makeArray creates a contiguous array of dt holding the canonical bits.
func (g *treeGen) makeArray(dt array.DType, shape []int, bits []uint64) *array.Array {
	if shape == nil {
		shape = []int{} // a scalar, not FromSlice's default 1-D
	}
	var (
		a   *array.Array
		err error
	)
	switch dt {
	case array.Bool:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) bool { return u != 0 }), shape...)
	default:
		panic(dt)
	case array.Int8:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) int8 { return int8(u) }), shape...)
	case array.Int16:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) int16 { return int16(u) }), shape...)
	case array.Int32:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) int32 { return int32(u) }), shape...)
	case array.Int64:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) int64 { return int64(u) }), shape...)
	case array.Uint8:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) uint8 { return uint8(u) }), shape...)
	case array.Uint16:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) uint16 { return uint16(u) }), shape...)
	case array.Uint32:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) uint32 { return uint32(u) }), shape...)
	case array.Uint64:
		a, err = array.FromSlice(g.mem, bits, shape...)
	case array.Float16:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) float16.Num { return float16.FromBits(uint16(u)) }), shape...)
	case array.Float32:
		a, err = array.FromSlice(g.mem, mapSlice(bits, func(u uint64) float32 { return math.Float32frombits(uint32(u)) }), shape...)
	case array.Float64:
		a, err = array.FromSlice(g.mem, mapSlice(bits, math.Float64frombits), shape...)
	}
	g.must(err)
	return g.keep(a)
}

func mapSlice[S, T any](in []S, f func(S) T) []T {
	out := make([]T, len(in))
	for i, u := range in {
		out[i] = f(u)
	}
	return out
}

// readBits reads an array's elements, row-major, as canonical bits.
func readBits(a *array.Array) []uint64 {
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	switch a.DType() {
	case array.Bool:
		v, err := array.ToSlice[bool](a)
		must(err)
		return mapSlice(v, func(b bool) uint64 {
			if b {
				return 1
			}
			return 0
		})
	case array.Int8:
		v, err := array.ToSlice[int8](a)
		must(err)
		return mapSlice(v, func(x int8) uint64 { return uint64(int64(x)) })
	case array.Int16:
		v, err := array.ToSlice[int16](a)
		must(err)
		return mapSlice(v, func(x int16) uint64 { return uint64(int64(x)) })
	case array.Int32:
		v, err := array.ToSlice[int32](a)
		must(err)
		return mapSlice(v, func(x int32) uint64 { return uint64(int64(x)) })
	case array.Int64:
		v, err := array.ToSlice[int64](a)
		must(err)
		return mapSlice(v, func(x int64) uint64 { return uint64(x) })
	case array.Uint8:
		v, err := array.ToSlice[uint8](a)
		must(err)
		return mapSlice(v, func(x uint8) uint64 { return uint64(x) })
	case array.Uint16:
		v, err := array.ToSlice[uint16](a)
		must(err)
		return mapSlice(v, func(x uint16) uint64 { return uint64(x) })
	case array.Uint32:
		v, err := array.ToSlice[uint32](a)
		must(err)
		return mapSlice(v, func(x uint32) uint64 { return uint64(x) })
	case array.Uint64:
		v, err := array.ToSlice[uint64](a)
		must(err)
		return v
	case array.Float16:
		v, err := array.ToSlice[float16.Num](a)
		must(err)
		return mapSlice(v, func(x float16.Num) uint64 { return uint64(x.Uint16()) })
	case array.Float32:
		v, err := array.ToSlice[float32](a)
		must(err)
		return mapSlice(v, func(x float32) uint64 { return uint64(math.Float32bits(x)) })
	case array.Float64:
		v, err := array.ToSlice[float64](a)
		must(err)
		return mapSlice(v, math.Float64bits)
	}
	panic("readBits: " + a.DType().String())
}

// ---- shapes ----

// randDim is a dim size: mostly small, sometimes 1 or 0.
func (g *treeGen) randDim() int {
	switch p := g.rng.Float64(); {
	case p < 0.05:
		return 0
	case p < 0.3:
		return 1
	case p < 0.9:
		return 2 + g.rng.IntN(4)
	}
	return 6 + g.rng.IntN(5)
}

// randShape returns a shape of rank 0..4 with at most limit elements.
func (g *treeGen) randShape(limit int) []int {
	for {
		s := make([]int, g.rng.IntN(5))
		for i := range s {
			s[i] = g.randDim()
		}
		if numel(s) <= limit {
			return s
		}
	}
}

// oneDir returns a shape that broadcasts to s one-directionally (numpy):
// right-aligned, possibly of lower rank, each dim 1 or s's.
func (g *treeGen) oneDir(s []int) []int {
	r := len(s) - g.rng.IntN(len(s)+1)
	if g.p(0.4) {
		r = len(s)
	}
	out := slices.Clone(s[len(s)-r:])
	for i := range out {
		if g.p(0.3) {
			out[i] = 1
		}
	}
	return out
}

// cover returns k shapes whose multidirectional broadcast is exactly s.
func (g *treeGen) cover(s []int, k int) [][]int {
	shapes := make([][]int, k)
	for i := range shapes {
		shapes[i] = g.oneDir(s)
	}
	r := len(s)
	for j, d := range s {
		if d == 1 {
			continue
		}
		covered := false
		for _, sh := range shapes {
			off := r - len(sh)
			if j >= off && sh[j-off] == d {
				covered = true
			}
		}
		if covered {
			continue
		}
		i := g.rng.IntN(k)
		sh := shapes[i]
		if off := r - len(sh); j < off {
			// extend the shape to the left with 1s down to axis j
			ext := make([]int, r-j)
			for t := range ext {
				ext[t] = 1
			}
			copy(ext[off-j:], sh)
			sh = ext
		}
		sh[j-(r-len(sh))] = d
		shapes[i] = sh
	}
	// the result has the largest rank: some operand must have s's
	full := false
	for _, sh := range shapes {
		full = full || len(sh) == r
	}
	if !full {
		i := g.rng.IntN(k)
		ext := make([]int, r)
		for t := range ext {
			ext[t] = 1
		}
		copy(ext[r-len(shapes[i]):], shapes[i])
		shapes[i] = ext
	}
	return shapes
}

// pdpdB returns B for elementwise pdpd onto A starting at start with rank
// rb: A's dims there, some replaced by 1 (not over a 0).
func (g *treeGen) pdpdB(a []int, start, rb int) []int {
	b := slices.Clone(a[start : start+rb])
	for i := range b {
		if b[i] != 0 && g.p(0.35) {
			b[i] = 1
		}
	}
	return b
}

// ---- leaves ----

// leaf returns a node reading an array of shape s and dtype dt, as a plain
// array, a transposed view, a sliced view (negative steps, dropped index
// axes), a broadcast view, a constant (rank 0) or a bound variable.
func (g *treeGen) leaf(s []int, dt array.DType, allowDyn bool) (*expr.Node, *refNode) {
	if len(s) == 0 && g.p(0.35) {
		return g.constant(dt)
	}
	if g.p(0.15) && g.noNulls == 0 {
		for _, v := range g.vars {
			if v.dt == dt && slices.Equal(v.shape, s) && (allowDyn || !v.dyn) {
				g.stats["var reused"]++
				return v.node, v.ref
			}
		}
	}
	arr, t, writable := g.array(s, dt)
	if writable && arr.Len() > 0 {
		g.cands = append(g.cands, intoCandidate{arr: arr, shape: s, dt: dt})
	}
	r := &refNode{kind: rLeaf, leaf: t}
	if g.p(0.2) {
		name := fmt.Sprintf("v%d", len(g.vars))
		decl := broadcast.StaticShape(s...)
		for i, d := range s {
			switch g.rng.IntN(4) {
			case 0:
				decl.Dims[i] = broadcast.UnknownDim()
			case 1:
				if d == 1 && g.noIntervalOne {
					break
				}
				decl.Dims[i] = broadcast.IntervalDim(d-g.rng.IntN(2), d+g.rng.IntN(3))
			}
		}
		dyn := allowDyn && g.p(0.15)
		if dyn {
			decl = broadcast.DynamicShape()
		}
		n := expr.Var(name, dt, decl)
		g.binds[name] = arr
		g.vars = append(g.vars, &varDecl{name: name, dt: dt, shape: s, arr: arr, node: n, ref: r, dyn: dyn})
		g.stats["var"]++
		return n, r
	}
	return expr.Leaf(arr), r
}

func (g *treeGen) constant(dt array.DType) (*expr.Node, *refNode) {
	g.stats["const"]++
	u := g.randElem(dt)
	if !g.p(0.5) || (isFloatDT(dt) && math.IsNaN(fval(dt, u))) {
		// Const of the Go type
		var n *expr.Node
		switch dt {
		case array.Bool:
			n = expr.Scalar(float64(u), array.Bool) // Const(bool) is weak
		case array.Int8:
			n = expr.Const(int8(u))
		case array.Int16:
			n = expr.Const(int16(u))
		case array.Int32:
			n = expr.Const(int32(u))
		case array.Int64:
			n = expr.Const(int64(u))
		case array.Uint8:
			n = expr.Const(uint8(u))
		case array.Uint16:
			n = expr.Const(uint16(u))
		case array.Uint32:
			n = expr.Const(uint32(u))
		case array.Uint64:
			n = expr.Const(u)
		case array.Float16:
			n = expr.Const(float16.FromBits(uint16(u)))
		case array.Float32:
			n = expr.Const(math.Float32frombits(uint32(u)))
		case array.Float64:
			n = expr.Scalar(math.Float64frombits(u), array.Float64) // Const(float64) is weak
		}
		t := newTensor(dt, nil)
		t.v[0] = u
		return n, &refNode{kind: rLeaf, leaf: t}
	}
	// Scalar(float64, dt) with a value dt holds exactly
	var f float64
	switch {
	case dt.IsFloat():
		f = fval(dt, u)
	case dt == array.Bool:
		f = float64(u)
	default:
		f = float64(g.rng.IntN(33) - 16)
		if dt.IsUnsigned() && f < 0 {
			f = -f
		}
	}
	t := newTensor(dt, nil)
	t.v[0], _ = castElem(array.Float64, dt, math.Float64bits(f))
	return expr.Scalar(f, dt), &refNode{kind: rLeaf, leaf: t}
}

// base makes a contiguous array with random values and nulls.
func (g *treeGen) base(s []int, dt array.DType) (*array.Array, *refTensor) {
	return g.baseNulls(s, dt, true)
}

func (g *treeGen) baseNulls(s []int, dt array.DType, nulls bool) (*array.Array, *refTensor) {
	t := newTensor(dt, s)
	t.v = g.randBits(dt, numel(s))
	a := g.makeArray(dt, s, t.v)
	if nulls && numel(s) > 0 && g.noNulls == 0 && g.p(g.nullProb) {
		frac := []float64{0.02, 0.2, 0.6, 1}[g.rng.IntN(4)]
		idx := make([]int, len(s))
		for i := range t.v {
			if !g.p(frac) {
				continue
			}
			k := i
			for j := len(s) - 1; j >= 0; j-- {
				idx[j] = k % s[j]
				k /= s[j]
			}
			g.must(a.SetNull(idx...))
			t.setValid(i, false)
			t.v[i] = 0
		}
		g.stats["leaf with nulls"]++
	}
	return a, t
}

// array returns an array of shape s in a random layout with its reference
// value derived from the layout's definition over the base values.
func (g *treeGen) array(s []int, dt array.DType) (*array.Array, *refTensor, bool) {
	switch k := g.rng.IntN(10); {
	case k < 4:
		g.stats["leaf plain"]++
		a, t := g.base(s, dt)
		return a, t, true
	case k < 6 && len(s) >= 2:
		g.stats["leaf transposed"]++
		r := len(s)
		perm := g.rng.Perm(r)
		bs := make([]int, r)
		for k, p := range perm {
			bs[p] = s[k]
		}
		b, bt := g.base(bs, dt)
		v, err := view.Transpose(b, perm...)
		g.must(err)
		d := make([]int, r)
		t := bt.gather(s, func(c []int) []int {
			for k, p := range perm {
				d[p] = c[k]
			}
			return d
		})
		return g.keep(v), t, true
	case k < 8:
		g.stats["leaf sliced"]++
		return g.sliced(s, dt)
	}
	g.stats["leaf broadcast view"]++
	bs := g.oneDir(s)
	b, bt := g.base(bs, dt)
	var (
		v   *array.Array
		err error
	)
	if g.p(0.5) || len(bs) == 0 {
		v, err = view.BroadcastTo(b, s)
	} else {
		// the same through the explicit rule: axes right-aligned
		axes := make([]int, len(bs))
		for i := range axes {
			axes[i] = len(s) - len(bs) + i
		}
		v, err = view.Explicit(b, s, axes)
	}
	g.must(err)
	_, m, err := broadcast.Numpy(bs, s)
	g.must(err)
	return g.keep(v), bt.broadcastTo(s, m), numel(s) <= 1
}

// sliced returns a view of a larger base selecting s with steps of ±1..3 and
// perhaps an index on an extra leading axis.
func (g *treeGen) sliced(s []int, dt array.DType) (*array.Array, *refTensor, bool) {
	r := len(s)
	lead := 0
	if g.p(0.3) {
		lead = 1 + g.rng.IntN(3)
	}
	bs := make([]int, 0, r+1)
	if lead > 0 {
		bs = append(bs, lead)
	}
	starts, steps := make([]int, r), make([]int, r)
	ranges := make([]view.Range, 0, r+1)
	idx := 0
	if lead > 0 {
		idx = g.rng.IntN(lead)
		ranges = append(ranges, view.Index(idx-lead*g.rng.IntN(2))) // maybe negative
	}
	for k, n := range s {
		st := []int{1, -1, 2, -2, 3, -1}[g.rng.IntN(6)]
		a := st
		if a < 0 {
			a = -a
		}
		m := n*a + g.rng.IntN(3)
		if st < 0 {
			m++ // start >= n*|step|, so that stop stays >= 0
		}
		var start, stop int
		if st > 0 {
			start = g.rng.IntN(m - n*a + 1)
			stop = start + n*st
		} else {
			start = n*a + g.rng.IntN(m-n*a)
			stop = start + n*st
		}
		starts[k], steps[k] = start, st
		bs = append(bs, m)
		ranges = append(ranges, view.Range{Start: start, Stop: stop, Step: st})
	}
	b, bt := g.base(bs, dt)
	v, err := view.Slice(b, ranges...)
	g.must(err)
	if !slices.Equal(v.Shape(), s) {
		panic(fmt.Sprintf("sliced: base %v ranges %v gives %v, want %v", bs, ranges, v.Shape(), s))
	}
	d := make([]int, len(bs))
	t := bt.gather(s, func(c []int) []int {
		o := 0
		if lead > 0 {
			d[0], o = idx, 1
		}
		for k := range c {
			d[o+k] = starts[k] + c[k]*steps[k]
		}
		return d
	})
	return g.keep(v), t, true
}

// ---- trees ----

// dtypeOf is the static dtype of a reference expression.
func dtypeOf(r *refNode) array.DType {
	switch r.kind {
	case rLeaf:
		return r.leaf.dt
	case rBinary:
		da, db := weakDTypes(r.args[0], r.args[1])
		_, rt, _ := refTypes(r.op, da, db)
		return rt
	case rUnary:
		_, rt, _ := refTypes(r.op, dtypeOf(r.args[0]))
		return rt
	case rCast:
		return r.dt
	case rWhere:
		return expr.Promote(weakDTypes(r.args[1], r.args[2]))
	case rBroadcast:
		return dtypeOf(r.args[0])
	case rReduce:
		return reduceDType(r.op, dtypeOf(r.args[0]))
	}
	return dtypeOf(r.args[0]) // ReduceTo, ReduceAxes
}

// weakDTypes are the dtypes of two operands, a weak constant's taken
// from the other operand.
func weakDTypes(a, b *refNode) (array.DType, array.DType) {
	da, db := dtypeOf(a), dtypeOf(b)
	var sa, sb []array.DType
	if a.weak == 0 {
		sb = []array.DType{da}
	}
	if b.weak == 0 {
		sa = []array.DType{db}
	}
	if a.weak != 0 {
		da = weakDType(a.weak, sa)
	}
	if b.weak != 0 {
		db = weakDType(b.weak, sb)
	}
	return da, db
}

// weakConst returns a weak constant (Const of a Go int, float64 or bool)
// that NEP 50 lets meet an operand of dtype dt without overflow.
func (g *treeGen) weakConst(dt array.DType) (*expr.Node, *refNode) {
	g.stats["weak const"]++
	k := g.rng.IntN(3)
	switch k {
	case 0:
		v := g.rng.IntN(2) == 1
		t := newTensor(array.Bool, nil)
		t.v[0] = map[bool]uint64{false: 0, true: 1}[v]
		return expr.Const(v), &refNode{kind: rLeaf, leaf: t, weak: 1}
	case 1:
		v := g.rng.IntN(17) - 8
		if dt.IsUnsigned() && v < 0 {
			v = -v
		}
		if dt == array.Int8 || dt == array.Uint8 {
			v = min(v, 7)
		}
		t := newTensor(array.Int64, nil)
		t.v[0] = uint64(int64(v))
		return expr.Const(v), &refNode{kind: rLeaf, leaf: t, weak: 2}
	}
	v := float64(g.rng.IntN(41)-20) / 4
	t := newTensor(array.Float64, nil)
	t.v[0] = math.Float64bits(v)
	return expr.Const(v), &refNode{kind: rLeaf, leaf: t, weak: 3}
}

var arithOps = []compute.Op{compute.Add, compute.Sub, compute.Mul, compute.Div, compute.TruncDiv, compute.Power,
	compute.Remainder, compute.Fmod, compute.Maximum, compute.Minimum, compute.SquaredDiff}

var cmpOps = []compute.Op{compute.Equal, compute.NotEqual, compute.Greater, compute.GreaterEqual, compute.Less, compute.LessEqual}

var logicOps = []compute.Op{compute.LogicalAnd, compute.LogicalOr, compute.LogicalXor}

// binaryCtors and unaryCtors are the constructor of every op of the
// table; TestDiffCoversOps checks that none is missing.
var binaryCtors = map[compute.Op]func(a, b *expr.Node, r ...expr.Rule) *expr.Node{
	compute.Add: expr.Add, compute.Sub: expr.Sub, compute.Mul: expr.Mul, compute.Div: expr.Div,
	compute.FloorDiv: expr.FloorDiv, compute.TruncDiv: expr.TruncDiv, compute.Power: expr.PowerTruncating,
	compute.Remainder: expr.Remainder, compute.Fmod: expr.Fmod, compute.Maximum: expr.Maximum,
	compute.Minimum: expr.Minimum, compute.Fmax: expr.Fmax, compute.Fmin: expr.Fmin,
	compute.Arctan2: expr.Arctan2, compute.Hypot: expr.Hypot, compute.Copysign: expr.Copysign,
	compute.SquaredDiff: expr.SquaredDiff, compute.Equal: expr.Equal, compute.NotEqual: expr.NotEqual,
	compute.Greater: expr.Greater, compute.GreaterEqual: expr.GreaterEqual, compute.Less: expr.Less,
	compute.LessEqual: expr.LessEqual, compute.LogicalAnd: expr.LogicalAnd, compute.LogicalOr: expr.LogicalOr,
	compute.LogicalXor: expr.LogicalXor, compute.BitwiseAnd: expr.BitwiseAnd, compute.BitwiseOr: expr.BitwiseOr,
	compute.BitwiseXor: expr.BitwiseXor, compute.LeftShift: expr.LeftShift, compute.RightShift: expr.RightShift,
	compute.PRelu:     func(a, b *expr.Node, _ ...expr.Rule) *expr.Node { return expr.PRelu(a, b) },
	compute.Logaddexp: expr.Logaddexp, compute.Logaddexp2: expr.Logaddexp2, compute.Heaviside: expr.Heaviside,
	compute.FloatPower: expr.FloatPower,
}

var unaryCtors = map[compute.Op]func(*expr.Node) *expr.Node{
	compute.Neg: expr.Neg, compute.Abs: expr.Abs, compute.Sign: expr.Sign, compute.Square: expr.Square,
	compute.Reciprocal: expr.Reciprocal, compute.Sqrt: expr.Sqrt, compute.Exp: expr.Exp, compute.Exp2: expr.Exp2,
	compute.Expm1: expr.Expm1, compute.Log: expr.Log, compute.Log2: expr.Log2, compute.Log10: expr.Log10,
	compute.Log1p: expr.Log1p, compute.Sin: expr.Sin, compute.Cos: expr.Cos, compute.Tan: expr.Tan,
	compute.Arcsin: expr.Arcsin, compute.Arccos: expr.Arccos, compute.Arctan: expr.Arctan, compute.Sinh: expr.Sinh,
	compute.Cosh: expr.Cosh, compute.Tanh: expr.Tanh, compute.Floor: expr.Floor, compute.Ceil: expr.Ceil,
	compute.Trunc: expr.Trunc, compute.Rint: expr.Rint, compute.IsNaN: expr.IsNaN, compute.IsInf: expr.IsInf,
	compute.IsFinite: expr.IsFinite, compute.LogicalNot: expr.LogicalNot, compute.Invert: expr.Invert,
	compute.Arcsinh: expr.Arcsinh, compute.Arccosh: expr.Arccosh, compute.Arctanh: expr.Arctanh, compute.Cbrt: expr.Cbrt,
	compute.Deg2rad: expr.Deg2rad, compute.Rad2deg: expr.Rad2deg, compute.Fabs: expr.Fabs, compute.Signbit: expr.Signbit,
	compute.Positive: expr.Positive,
}

// allBinary and allUnary are the table's ops by arity.
var allBinary, allUnary = func() (b, u []compute.Op) {
	for _, op := range compute.Ops() {
		if op.IsUnary() {
			u = append(u, op)
		} else {
			b = append(b, op)
		}
	}
	return b, u
}()

func binaryNode(op compute.Op, a, b *expr.Node, rule expr.Rule, giveDefault bool) *expr.Node {
	f := binaryCtors[op]
	if op == compute.PRelu {
		return expr.PRelu(a, b)
	}
	if rule == expr.Numpy && !giveDefault {
		return f(a, b) // the default rule, not given
	}
	return f(a, b, rule)
}

func unaryNode(op compute.Op, x *expr.Node) *expr.Node { return unaryCtors[op](x) }

// tree returns a random expression of shape s and its reference; depth
// bounds the nesting, allowDyn allows variables of unknown rank.
func (g *treeGen) tree(depth int, s []int, allowDyn bool) (*expr.Node, *refNode) {
	if depth == 0 || g.p(0.12) {
		return g.leaf(s, g.dtype(), allowDyn)
	}
	if g.p(0.15) {
		if n, r, ok := g.reuse(s, allowDyn); ok {
			return n, r
		}
	}
	n, r, twin := g.subtree(depth, s, allowDyn)
	g.record(n, r, s, allowDyn, twin)
	return n, r
}

// subtree builds a non-leaf expression of shape s, and when it can, a
// function that builds a structurally equal node over the same arguments.
func (g *treeGen) subtree(depth int, s []int, allowDyn bool) (*expr.Node, *refNode, func() *expr.Node) {
	nt := func(n *expr.Node, r *refNode) (*expr.Node, *refNode, func() *expr.Node) { return n, r, nil }
	switch k := g.rng.IntN(100); {
	case k < 30:
		return nt(g.binary(depth, s, allowDyn))
	case k < 40:
		return nt(g.unary(depth, s, allowDyn))
	case k < 47:
		x, rx := g.tree(depth-1, s, allowDyn)
		dt := g.dtype()
		g.stats["cast"]++
		return expr.Cast(x, dt), &refNode{kind: rCast, args: []*refNode{rx}, dt: dt}, func() *expr.Node { return expr.Cast(x, dt) }
	case k < 57:
		return nt(g.where(depth, s))
	case k < 64:
		return nt(g.variadic(depth, s, allowDyn))
	case k < 77:
		return nt(g.broadcastNode(depth, s))
	}
	return g.reduction(depth, s)
}

func (g *treeGen) binary(depth int, s []int, allowDyn bool) (*expr.Node, *refNode) {
	var rs ruleSpec
	var sa, sb []int
	switch k := g.rng.IntN(10); {
	case k < 5:
		rs = ruleSpec{kind: "numpy"}
		sh := g.cover(s, 2)
		sa, sb = sh[0], sh[1]
	case k < 6:
		rs = ruleSpec{kind: "none"}
		sa, sb = s, s
	case k < 8:
		r := len(s)
		rb := g.rng.IntN(r + 1)
		start := r - rb
		rs = ruleSpec{kind: "pdpd", axis: -1}
		if g.p(0.5) {
			start = g.rng.IntN(r - rb + 1)
			rs.axis = start
		}
		sa, sb = s, g.pdpdB(s, start, rb)
	default:
		rs = ruleSpec{kind: "uni"}
		sa, sb = s, g.oneDir(s)
	}
	dyn := allowDyn && rs.kind == "numpy"
	var (
		a, b   *expr.Node
		ra, rb *refNode
	)
	if rs.kind == "numpy" && g.p(0.2) {
		a, ra = g.tree(depth-1, s, dyn)
		b, rb = g.weakConst(dtypeOf(ra))
		if g.p(0.3) {
			a, ra, b, rb = b, rb, a, ra
		}
	} else {
		a, ra = g.tree(depth-1, sa, dyn)
		b, rb = g.tree(depth-1, sb, dyn)
	}
	da, db := weakDTypes(ra, rb)
	var op compute.Op
	switch k := g.rng.IntN(10); {
	case rs.kind == "uni" && g.p(0.5):
		op = compute.PRelu
	case k < 4:
		op = arithOps[g.rng.IntN(len(arithOps))]
	case k < 5:
		op = cmpOps[g.rng.IntN(len(cmpOps))]
	default:
		op = allBinary[g.rng.IntN(len(allBinary))]
	}
	if _, _, ok := refTypes(op, da, db); !ok || (op == compute.PRelu && rs.kind != "uni") {
		op = compute.Maximum // has every loop
	}
	g.stats["binary "+op.String()]++
	g.stats["rule "+rs.kind]++
	return binaryNode(op, a, b, rs.rule(), g.p(0.3)), &refNode{kind: rBinary, op: op, args: []*refNode{ra, rb}, rule: rs}
}

func (g *treeGen) unary(depth int, s []int, allowDyn bool) (*expr.Node, *refNode) {
	x, rx := g.tree(depth-1, s, allowDyn)
	op := allUnary[g.rng.IntN(len(allUnary))]
	if _, _, ok := refTypes(op, dtypeOf(rx)); !ok {
		op = compute.Abs // has every loop
	}
	g.stats["unary "+op.String()]++
	return unaryNode(op, x), &refNode{kind: rUnary, op: op, args: []*refNode{rx}}
}

func (g *treeGen) where(depth int, s []int) (*expr.Node, *refNode) {
	var rs ruleSpec
	var sc, sx, sy []int
	switch k := g.rng.IntN(10); {
	case k < 6:
		rs = ruleSpec{kind: "numpy"}
		sh := g.cover(s, 3)
		sc, sx, sy = sh[0], sh[1], sh[2]
	case k < 7:
		rs = ruleSpec{kind: "none"}
		sc, sx, sy = s, s, s
	case k < 9:
		r := len(s)
		rs = ruleSpec{kind: "pdpd", axis: -1}
		sx = s
		if g.p(0.5) {
			rb := g.rng.IntN(r + 1)
			sy, sc = g.pdpdB(s, r-rb, rb), g.pdpdB(s, r-rb, rb)
		} else {
			start := g.rng.IntN(r + 1)
			rs.axis = start
			sy = g.pdpdB(s, start, g.rng.IntN(r-start+1))
			sc = g.pdpdB(s, start, g.rng.IntN(r-start+1))
		}
	default:
		rs = ruleSpec{kind: "uni"}
		sc, sx, sy = g.oneDir(s), s, g.oneDir(s)
	}
	var c *expr.Node
	var rc *refNode
	if g.p(0.4) && depth > 1 {
		// a comparison as the condition (the engine fuses where(a op b, x, y))
		sh := g.cover(sc, 2)
		a, ra := g.tree(depth-2, sh[0], false)
		b, rb := g.tree(depth-2, sh[1], false)
		op := cmpOps[g.rng.IntN(len(cmpOps))]
		c, rc = binaryNode(op, a, b, expr.Numpy, false), &refNode{kind: rBinary, op: op, args: []*refNode{ra, rb}, rule: ruleSpec{kind: "numpy"}}
		g.stats["where of a comparison"]++
	} else {
		c, rc = g.tree(depth-1, sc, false)
	}
	x, rx := g.tree(depth-1, sx, false)
	y, ry := g.tree(depth-1, sy, false)
	g.stats["where "+rs.kind]++
	var n *expr.Node
	if rs.kind == "numpy" && g.p(0.5) {
		n = expr.Where(c, x, y)
	} else {
		n = expr.Where(c, x, y, rs.rule())
	}
	return n, &refNode{kind: rWhere, args: []*refNode{rc, rx, ry}, rule: rs}
}

// variadic builds SumOf, MaxOf, MinOf or MeanOf; the reference is the
// documented composition: a left fold of Add / Maximum / Minimum (one
// operand: x + 0 of its dtype), MeanOf the sum cast to its float dtype
// divided by the count.
func (g *treeGen) variadic(depth int, s []int, allowDyn bool) (*expr.Node, *refNode) {
	k := 1 + g.rng.IntN(4)
	shapes := g.cover(s, k)
	nodes := make([]*expr.Node, k)
	refs := make([]*refNode, k)
	for i := range nodes {
		nodes[i], refs[i] = g.tree(depth-1, shapes[i], allowDyn)
	}
	which := g.rng.IntN(4)
	op := []compute.Op{compute.Add, compute.Maximum, compute.Minimum, compute.Add}[which]
	acc := refs[0]
	if k == 1 {
		z := newTensor(dtypeOf(acc), nil)
		acc = &refNode{kind: rBinary, op: compute.Add, rule: ruleSpec{kind: "numpy"}, args: []*refNode{acc, {kind: rLeaf, leaf: z}}}
	}
	for _, r := range refs[1:] {
		acc = &refNode{kind: rBinary, op: op, rule: ruleSpec{kind: "numpy"}, args: []*refNode{acc, r}}
	}
	g.stats[[]string{"SumOf", "MaxOf", "MinOf", "MeanOf"}[which]]++
	switch which {
	case 0:
		return expr.SumOf(nodes...), acc
	case 1:
		return expr.MaxOf(nodes...), acc
	case 2:
		return expr.MinOf(nodes...), acc
	}
	fdt := floatFor(dtypeOf(acc))
	cnt := newTensor(fdt, nil)
	cnt.v[0], _ = castElem(array.Float64, fdt, math.Float64bits(float64(k)))
	mean := &refNode{kind: rBinary, op: compute.Div, rule: ruleSpec{kind: "numpy"},
		args: []*refNode{{kind: rCast, dt: fdt, args: []*refNode{acc}}, {kind: rLeaf, leaf: cnt}}}
	return expr.MeanOf(nodes...), mean
}

// broadcastNode builds a Broadcast node of a random mode whose result is s.
func (g *treeGen) broadcastNode(depth int, s []int) (*expr.Node, *refNode) {
	r := len(s)
	var (
		mode   expr.Mode
		xs     []int
		target []int
		axes   []int
		axis   int
	)
	switch k := g.rng.IntN(5); k {
	case 0:
		mode, xs, target = expr.ModeNumpy, g.oneDir(s), s
	case 1:
		mode = expr.ModeBidirectional
		sh := g.cover(s, 2)
		xs, target = sh[0], sh[1]
	case 2:
		mode, target = expr.ModeExplicit, s
		for i := 0; i < r; i++ {
			if g.p(0.6) {
				axes = append(axes, i)
			}
		}
		if axes == nil {
			axes = []int{}
		}
		xs = make([]int, len(axes))
		for i, a := range axes {
			xs[i] = s[a]
			if g.p(0.3) {
				xs[i] = 1
			}
		}
	case 3:
		mode = expr.ModePDPD
		start := g.rng.IntN(r + 1)
		xs = slices.Clone(s[start:])
		target = slices.Clone(s)
		for i := range xs {
			switch {
			case g.p(0.3):
				xs[i] = 1
			case g.p(0.3) && xs[i] != 1:
				target[start+i] = 1 // the output takes the data dim
			}
		}
		axis = start
		if g.p(0.4) {
			axis = -1
		}
	case 4:
		mode, target, axes = expr.ModeNGraph, s, []int{}
		for i, d := range s {
			if g.p(0.4) {
				axes = append(axes, i)
			} else {
				xs = append(xs, d)
			}
		}
		if xs == nil {
			xs = []int{}
		}
		g.rng.Shuffle(len(axes), func(i, j int) { axes[i], axes[j] = axes[j], axes[i] })
	}
	x, rx := g.tree(depth-1, xs, false)
	g.stats["broadcast "+string(mode)]++
	rr := &refNode{kind: rBroadcast, mode: mode, args: []*refNode{rx}, target: slices.Clone(target), axes: slices.Clone(axes), axis: axis}
	if g.p(0.3) {
		// the op with its shape inputs as 1-D integer arrays
		g.stats["broadcast from arrays"]++
		big := slices.Max(append([]int{0}, append(slices.Clone(target), axes...)...))
		var idt array.DType
		for {
			idt = []array.DType{array.Int8, array.Int16, array.Int32, array.Int64, array.Uint8, array.Uint16, array.Uint32, array.Uint64}[g.rng.IntN(8)]
			if _, hi := intLimits(idt); float64(big) < hi {
				break
			}
		}
		ta := g.intArray(idt, target)
		var aa *array.Array
		if mode == expr.ModeExplicit || mode == expr.ModeNGraph {
			aa = g.intArray(idt, axes)
		}
		return expr.Broadcast(x, mode, ta, aa, axis), rr
	}
	switch mode {
	case expr.ModeNumpy:
		return expr.BroadcastNumpy(x, target), rr
	case expr.ModeBidirectional:
		return expr.BroadcastBidirectional(x, target), rr
	case expr.ModeExplicit:
		return expr.BroadcastExplicit(x, target, axes), rr
	case expr.ModePDPD:
		return expr.BroadcastPDPD(x, target, axis), rr
	}
	return expr.BroadcastNGraph(x, target, axes), rr
}

func (g *treeGen) intArray(dt array.DType, v []int) *array.Array {
	bits := make([]uint64, len(v))
	for i, x := range v {
		bits[i] = uint64(x)
	}
	return g.makeArray(dt, []int{len(v)}, bits)
}

// reduction builds a reduction whose result has shape s: the operand gets
// extra axes (or stretched size-1 axes, with keepDims) that are reduced.
func (g *treeGen) reduction(depth int, s []int) (*expr.Node, *refNode, func() *expr.Node) {
	maxExtra := g.budget / max(numel(s), 1)
	extraDim := func() int {
		if maxExtra < 2 {
			return []int{0, 1, 1, 1}[g.rng.IntN(4)]
		}
		d := 1 + g.rng.IntN(min(5, maxExtra))
		if g.p(0.05) {
			d = 0
		}
		return d
	}
	switch k := g.rng.IntN(10); {
	case k < 7: // Reduce{Sum,Prod,Max,Min,Mean}
		ops := []compute.Op{compute.Add, compute.Mul, compute.Maximum, compute.Minimum, opMean}
		op := ops[g.rng.IntN(len(ops))]
		var xs, axes []int
		keep := false
		var ones []int
		for i, d := range s {
			if d == 1 {
				ones = append(ones, i)
			}
		}
		switch {
		case len(ones) > 0 && g.p(0.4):
			keep = true
			xs = slices.Clone(s)
			for _, i := range ones {
				if g.p(0.7) || len(axes) == 0 {
					axes = append(axes, i)
					xs[i] = extraDim()
				}
			}
		case g.p(0.1):
			xs, axes = slices.Clone(s), []int{} // no axis: a copy in the result dtype
		default:
			xs = slices.Clone(s)
			for n := 1 + g.rng.IntN(2); n > 0; n-- {
				pos := g.rng.IntN(len(xs) + 1)
				xs = slices.Insert(xs, pos, extraDim())
				for i := range axes {
					if axes[i] >= pos {
						axes[i]++
					}
				}
				axes = append(axes, pos)
			}
			maxExtra = 1 // the second extra axis stays small
		}
		if len(axes) == len(xs) && g.p(0.5) && (!keep || len(axes) == len(s)) {
			axes = nil // every axis
		} else {
			g.rng.Shuffle(len(axes), func(i, j int) { axes[i], axes[j] = axes[j], axes[i] })
			for i := range axes {
				if g.p(0.3) {
					axes[i] -= len(xs)
				}
			}
		}
		if op == compute.Maximum || op == compute.Minimum {
			// no identity: NumPy (and expr) reject a zero-size reduced axis
			for _, a := range axes {
				if a < 0 {
					a += len(xs)
				}
				if xs[a] == 0 {
					xs[a] = 1
				}
			}
			if axes == nil {
				for i := range xs {
					xs[i] = max(xs[i], 1)
				}
			}
		}
		if op == opMean && g.noMeanNulls {
			g.noNulls++
			defer func() { g.noNulls-- }()
		}
		x, rx := g.tree(depth-1, xs, false)
		g.stats["reduce "+op.String()]++
		build := func() *expr.Node {
			switch op {
			case compute.Add:
				return expr.ReduceSum(x, slices.Clone(axes), keep)
			case compute.Mul:
				return expr.ReduceProd(x, slices.Clone(axes), keep)
			case compute.Maximum:
				return expr.ReduceMax(x, slices.Clone(axes), keep)
			case compute.Minimum:
				return expr.ReduceMin(x, slices.Clone(axes), keep)
			}
			return expr.ReduceMean(x, slices.Clone(axes), keep)
		}
		return build(), &refNode{kind: rReduce, op: op, args: []*refNode{rx}, axes: slices.Clone(axes), keep: keep}, build
	case k < 9: // ReduceTo: the operand is s broadcast (stretched and prefixed)
		xs := slices.Clone(s)
		for i := range xs {
			if xs[i] == 1 && g.p(0.5) {
				xs[i] = extraDim()
			}
		}
		if g.p(0.6) {
			xs = append([]int{extraDim()}, xs...)
		}
		x, rx := g.tree(depth-1, xs, false)
		g.stats["ReduceTo"]++
		to := slices.Clone(s)
		return expr.ReduceTo(x, s), &refNode{kind: rReduceTo, args: []*refNode{rx}, to: slices.Clone(s)}, func() *expr.Node { return expr.ReduceTo(x, to) }
	}
	xs := slices.Clone(s)
	var axes []int
	for n := 1 + g.rng.IntN(2); n > 0; n-- {
		pos := g.rng.IntN(len(xs) + 1)
		xs = slices.Insert(xs, pos, extraDim())
		for i := range axes {
			if axes[i] >= pos {
				axes[i]++
			}
		}
		axes = append(axes, pos)
		maxExtra = 1
	}
	x, rx := g.tree(depth-1, xs, false)
	g.stats["ReduceAxes"]++
	return expr.ReduceAxes(x, axes), &refNode{kind: rReduceAxes, args: []*refNode{rx}, axes: slices.Clone(axes)}, func() *expr.Node { return expr.ReduceAxes(x, slices.Clone(axes)) }
}

// TestCtorsCoverOpTable: the random trees (the differential tests and
// FuzzOptions, FuzzExpr) draw from every op of the table, so each needs its
// constructor here: a new op without one fails this test, not a fuzzer.
func TestCtorsCoverOpTable(t *testing.T) {
	for _, op := range allUnary {
		if unaryCtors[op] == nil {
			t.Errorf("unary op %v has no constructor in unaryCtors", op)
		}
	}
	for _, op := range allBinary {
		if binaryCtors[op] == nil && op != compute.PRelu {
			t.Errorf("binary op %v has no constructor in binaryCtors", op)
		}
	}
}
