package arrowio

import (
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
)

// ErrEmpty: Reduce was asked for a reduction without identity (Min, Max)
// over a stream of no rows, NumPy's "zero-size array to reduction
// operation minimum which has no identity". Such errors also wrap
// expr.ErrArgument, as the in-memory reductions' do.
var ErrEmpty = errors.New("empty stream")

// ReduceOp names the reduction a Reduction computes over the rows of a
// stream.
type ReduceOp uint8

// The reductions of Reduce. Each is the in-memory reduction of package expr
// over axis 0, with its dtypes and its treatment of nulls (skipped: a null
// counts as the operation's identity, and mean, var and std divide by the
// number of valid elements).
const (
	Sum   ReduceOp = iota + 1 // expr.ReduceSum: bool and signed ints give int64, unsigned uint64
	Prod                      // expr.ReduceProd, with Sum's dtypes
	Mean                      // expr.ReduceMean: ints and bool give float64; no valid element gives NaN
	Var                       // expr.ReduceVar with the Reduction's Ddof
	Std                       // expr.ReduceStd with the Reduction's Ddof
	Min                       // expr.ReduceMin (NaN propagates); an error over no rows
	Max                       // expr.ReduceMax (NaN propagates); an error over no rows
	Count                     // the number of valid (non-null) elements, int64 (Arrow's count)
	Any                       // expr.Any: bool, false over no rows
	All                       // expr.All: bool, true over no rows
)

func (op ReduceOp) String() string {
	if op < Sum || op > All {
		return fmt.Sprintf("ReduceOp(%d)", uint8(op))
	}
	return [...]string{"sum", "prod", "mean", "var", "std", "min", "max", "count", "any", "all"}[op-1]
}

// Reduction is one result of Reduce: Op over the rows (axis 0) of Expr,
// an expression of the stream's columns (variables made with SchemaVar)
// computed row by row (Expr.RowWise: elementwise ops, casts, where, and
// reductions over other axes). Ddof is the delta degrees of freedom of Var
// and Std (NumPy's ddof; 0 for the population variance, 1 for the sample
// variance). Name appears in errors.
type Reduction struct {
	Name string
	Expr *expr.Node
	Op   ReduceOp
	Ddof int
}

// Reduce reads rr to its end and returns, for each reduction, Op over the
// rows of its expression: an array of the expression's row shape (rank 0
// for a primitive column; a [rows, 3, 4] expression gives [3, 4]) and the
// dtype expr's in-memory reduction over axis 0 gives (NumPy 2's). The
// results equal those of the in-memory reductions of the concatenated
// stream: exactly for integers, bools, Min, Max and Count, and for sums and
// products of floats up to the order of the additions (they are
// accumulated in float64 and rounded to the result dtype at the end); Mean,
// Var and Std merge each batch's count, mean and squared deviations by
// Chan's formulas (compute.Moments), computed in float64, so they are as
// accurate as the in-memory ones and do not lose the variance when the mean
// is large next to the spread.
//
// One pass, memory bounded by a batch: each batch's columns are converted
// without copying (FromArrow), each distinct expression (*expr.Node) is evaluated once
// per batch, its partials are merged into accumulators of the row shape,
// and everything of the batch is released before the next is read. Empty
// batches are skipped. Over a stream of no rows Sum gives 0, Prod 1, Count
// 0, Any false, All true, Mean, Var and Std NaN, and Min and Max an error
// (ErrEmpty), as NumPy.
//
// Errors: a nil reader, an unknown Op, a variable that names no column of
// rr's schema (ErrNoColumn), an expression that is not computed row by row
// (expr.ErrArgument), a dtype or ddof the reduction cannot take, a batch
// whose columns do not fit the schema (batches bind to it by name, as in
// Evaluate: another order is fine, a missing, extra or retyped column is
// an error naming it), rr's own error mid-stream (rr.Err),
// and a result over no rows of more than 2^26 elements (its size then comes
// from the schema alone; ErrUnsupported) all return an error and no arrays,
// with everything released. The
// caller keeps its reference to rr and releases the results.
func Reduce(mem memory.Allocator, rr arrowarray.RecordReader, reductions ...Reduction) (res []*array.Array, err error) {
	if rr == nil {
		return nil, fmt.Errorf("arrowio.Reduce: %w: nil reader", array.ErrNil)
	}
	red, err := NewReducer(mem, rr.Schema(), reductions...)
	if err != nil {
		return nil, err
	}
	defer red.Release()
	for rr.Next() {
		if err := red.s.batch(rr.Record()); err != nil {
			return nil, err
		}
	}
	if err := rr.Err(); err != nil {
		return nil, fmt.Errorf("arrowio.Reduce: reading the stream after %d rows: %w", red.s.rows, err)
	}
	return red.s.results(red.s.mem, true)
}

// results makes the result arrays (from mem). With move, Min and Max hand
// over their accumulators instead of copying them (the reducer is done).
func (s *streamReduce) results(mem memory.Allocator, move bool) (res []*array.Array, err error) {
	defer func() {
		if err != nil {
			for _, a := range res {
				a.Release()
			}
			res = nil
		}
	}()
	for _, r := range s.reds {
		a, err := r.finish(mem, s.rows, move)
		if err != nil {
			return res, err
		}
		res = append(res, a)
	}
	return res, nil
}

// streamReduce is the state of one Reduce call.
type streamReduce struct {
	mem    memory.Allocator
	schema *arrow.Schema
	vars   map[string]int // variable name -> column index
	srcs   []*source
	reds   []*reducer
	rows   int64
}

// source is one distinct expression, evaluated once per batch.
type source struct {
	node  *expr.Node
	plan  *expr.Plan
	row   []int // the row shape
	lanes int   // its element count
	cur   *array.Array
	cnt   []int64 // valid elements per lane in the current batch
	cntOK bool
	toF64 *expr.Plan   // cur as float64 (nil: cur is float64)
	f64   *array.Array // its result for the current batch
}

// float64 returns the current value as float64, cast once per batch.
func (src *source) float64() (*array.Array, error) {
	if src.toF64 == nil {
		return src.cur, nil
	}
	if src.f64 == nil {
		f, err := src.toF64.Eval(expr.Bindings{"e": src.cur})
		if err != nil {
			return nil, err
		}
		src.f64 = f
	}
	return src.f64, nil
}

// drop releases the current batch's values.
func (src *source) drop() {
	for _, a := range []**array.Array{&src.cur, &src.f64} {
		if *a != nil {
			(*a).Release()
			*a = nil
		}
	}
}

// reducer is one Reduction: its partial plans (over the variable "e", the
// source's value in a batch) and its accumulator.
type reducer struct {
	r     Reduction
	src   *source
	dtype array.DType // the result's
	parts []*expr.Plan
	onF64 bool       // the parts reduce source.float64
	merge *expr.Plan // Min, Max: acc op partial

	kind accKind // which of the accumulators below (allocated by alloc)
	i64  []int64
	u64  []uint64
	f64  []float64
	b    []bool
	mom  []compute.Moments
	acc  *array.Array // Min, Max
}

func (s *streamReduce) release() {
	for _, src := range s.srcs {
		src.drop()
	}
	for _, r := range s.reds {
		if r.acc != nil {
			r.acc.Release()
			r.acc = nil
		}
	}
}

// plan checks the reductions against the schema and compiles their plans.
func (s *streamReduce) plan(schema *arrow.Schema, reductions []Reduction) error {
	bySrc := map[*expr.Node]*source{}
	for _, r := range reductions {
		where := fmt.Sprintf("arrowio.Reduce %q (%v)", r.Name, r.Op)
		if r.Op < Sum || r.Op > All {
			return fmt.Errorf("%s: %w: unknown reduction", where, expr.ErrArgument)
		}
		if err := r.Expr.RowWise(); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		for _, v := range r.Expr.Vars() {
			idx := schema.FieldIndices(v)
			if len(idx) == 0 {
				return noColumn(where, v, names(schema.Fields()))
			}
			if _, _, err := ColumnShape(schema.Field(idx[0]).Type); err != nil {
				return fmt.Errorf("%s: column %q: %w", where, v, err)
			}
			s.vars[v] = idx[0]
		}
		src := bySrc[r.Expr]
		if src == nil {
			sh := r.Expr.Shape()
			row, ok := broadcast.Shape{Dims: sh.Dims[1:], RankKnown: true}.Static()
			if !ok {
				return fmt.Errorf("%s: %w: expression shape %v: the row shape must be static", where, array.ErrShape, sh)
			}
			lanes, err := broadcast.Size(row)
			if err != nil {
				return fmt.Errorf("%s: row shape %v: %w", where, row, err)
			}
			p, err := expr.Compile(r.Expr, expr.WithAllocator(s.mem))
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			src = &source{node: r.Expr, plan: p, row: row, lanes: lanes}
			bySrc[r.Expr] = src
			s.srcs = append(s.srcs, src)
		}
		red, err := newReducer(s.mem, r, src)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		s.reds = append(s.reds, red)
	}
	return nil
}

type accKind uint8

const (
	accArray accKind = iota // Min, Max: acc
	accI64
	accU64
	accF64
	accBool
	accMom
)

// maxEmptyLanes bounds the result of a reduction over no rows: its size
// then comes from the schema alone, not from data that was held.
const maxEmptyLanes = 1 << 26

// alloc makes the accumulators, holding the reduction's identity. It runs
// at the first batch with rows (whose data proves the row shape fits in
// memory) or at the end of a stream of no rows.
func (r *reducer) alloc() {
	n := r.src.lanes
	if r.src.cnt == nil {
		r.src.cnt = make([]int64, n)
	}
	if r.i64 != nil || r.u64 != nil || r.f64 != nil || r.b != nil || r.mom != nil {
		return
	}
	prod := r.r.Op == Prod
	switch r.kind {
	case accI64:
		r.i64 = make([]int64, n)
		if prod {
			for i := range r.i64 {
				r.i64[i] = 1
			}
		}
	case accU64:
		r.u64 = make([]uint64, n)
		if prod {
			for i := range r.u64 {
				r.u64[i] = 1
			}
		}
	case accF64:
		r.f64 = make([]float64, n)
		if prod {
			for i := range r.f64 {
				r.f64[i] = 1
			}
		}
	case accBool:
		r.b = make([]bool, n)
		if r.r.Op == All {
			for i := range r.b {
				r.b[i] = true
			}
		}
	case accMom:
		r.mom = make([]compute.Moments, n)
	}
}

// newReducer makes the partial plans of r over e, a variable standing for
// the source's value in one batch, and the zero accumulator.
func newReducer(mem memory.Allocator, r Reduction, src *source) (red *reducer, err error) {
	dims := []broadcast.Dim{broadcast.UnknownDim()}
	for _, d := range src.row {
		dims = append(dims, broadcast.StaticDim(d))
	}
	dt := r.Expr.DType()
	e := expr.Var("e", dt, broadcast.Shape{Dims: dims, RankKnown: true})
	// ef stands for the source's value as float64 (source.float64), which
	// the float partials reduce.
	ef := expr.Var("e", array.Float64, e.Shape())
	axis0 := []int{0}
	// full is the in-memory reduction: it gives the result dtype, and
	// rejects what the reduction cannot take.
	var full *expr.Node
	var parts []*expr.Node
	red = &reducer{r: r, src: src}
	useF64 := func() {
		red.onF64 = true
		if src.toF64 == nil && dt != array.Float64 {
			src.toF64, err = expr.Compile(expr.Cast(e, array.Float64), expr.WithAllocator(mem))
		}
	}
	switch r.Op {
	case Sum, Prod:
		build := expr.ReduceSum
		if r.Op == Prod {
			build = expr.ReduceProd
		}
		full = build(e, axis0, false)
		if dt.IsFloat() {
			useF64()
			parts = []*expr.Node{build(ef, axis0, false)}
			red.kind = accF64
		} else {
			parts = []*expr.Node{full}
			red.kind = accI64
			if full.DType() == array.Uint64 {
				red.kind = accU64
			}
		}
	case Mean:
		full = expr.ReduceMean(e, axis0, false)
		useF64()
		parts = []*expr.Node{expr.ReduceMean(ef, axis0, false)}
		red.kind = accMom
	case Var, Std:
		if r.Op == Var {
			full = expr.ReduceVar(e, axis0, r.Ddof, false)
		} else {
			full = expr.ReduceStd(e, axis0, r.Ddof, false)
		}
		useF64()
		parts = []*expr.Node{expr.ReduceMean(ef, axis0, false), expr.ReduceVar(ef, axis0, 0, false)}
		red.kind = accMom
	case Min, Max:
		build, op := expr.ReduceMin, expr.Minimum
		if r.Op == Max {
			build, op = expr.ReduceMax, expr.Maximum
		}
		full = build(e, axis0, false)
		parts = []*expr.Node{full}
		if full.Err() == nil {
			rs := broadcast.StaticShape(src.row...)
			m, err := expr.Compile(op(expr.Var("a", full.DType(), rs), expr.Var("b", full.DType(), rs)), expr.WithAllocator(mem))
			if err != nil {
				return nil, err
			}
			red.merge = m
		}
	case Count:
		red.dtype = array.Int64
		red.kind = accI64
		return red, nil
	case Any, All:
		build := expr.Any
		if r.Op == All {
			build = expr.All
		}
		full = build(e, axis0, false)
		parts = []*expr.Node{full}
		red.kind = accBool
	}
	if err := full.Err(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	red.dtype = full.DType()
	for _, p := range parts {
		pl, err := expr.Compile(p, expr.WithAllocator(mem))
		if err != nil {
			return nil, err
		}
		red.parts = append(red.parts, pl)
	}
	return red, nil
}

// batch evaluates the sources on one batch and merges the partials.
func (s *streamReduce) batch(rec arrow.Record) error {
	if rec == nil {
		return fmt.Errorf("arrowio.Reduce: %w: the reader returned a nil batch", ErrInvalid)
	}
	cols, err := batchColumns("arrowio.Reduce", s.schema, rec)
	if err != nil {
		return err
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	if s.rows > math.MaxInt64-int64(n) {
		return fmt.Errorf("arrowio.Reduce: %w: %d + %d rows overflow int64", expr.ErrOverflow, s.rows, n)
	}
	b := expr.Bindings{}
	defer func() {
		for _, a := range b {
			a.Release()
		}
		for _, src := range s.srcs {
			src.drop()
		}
	}()
	for name, i := range s.vars {
		a, err := FromArrow(s.mem, cols[i])
		if err != nil {
			return fmt.Errorf("arrowio.Reduce: column %q: %w", name, err)
		}
		b[name] = a
	}
	for _, src := range s.srcs {
		v, err := src.plan.Eval(b)
		if err != nil {
			return fmt.Errorf("arrowio.Reduce: evaluating %v: %w", src.node, err)
		}
		src.cur, src.cntOK = v, false
		if v.Rank() != len(src.row)+1 || v.Dim(0) != n || v.Len() != n*src.lanes {
			return fmt.Errorf("arrowio.Reduce: %w: %v gives %v for a batch of %d rows, want [%d %v]", array.ErrShape, src.node, v.Shape(), n, n, src.row)
		}
		if !v.IsContiguous() || v.Offset() != 0 {
			c, err := array.Copy(s.mem, v)
			if err != nil {
				return fmt.Errorf("arrowio.Reduce: %w", err)
			}
			v.Release()
			src.cur = c
		}
	}
	for _, r := range s.reds {
		if err := r.step(s.mem, n); err != nil {
			return fmt.Errorf("arrowio.Reduce %q (%v): %w", r.r.Name, r.r.Op, err)
		}
	}
	s.rows += int64(n)
	return nil
}

// counts returns the valid elements of each lane in the current batch.
func (src *source) counts(n int) []int64 {
	if src.cntOK {
		return src.cnt
	}
	src.cntOK = true
	cnt := src.cnt
	vp := src.cur.ValidityPointer()
	if vp == nil {
		for i := range cnt {
			cnt[i] = int64(n)
		}
		return cnt
	}
	clear(cnt)
	mask := src.cur.Validity().Bytes()[:n*src.lanes]
	for r := 0; r < n; r++ {
		row := mask[r*src.lanes : (r+1)*src.lanes]
		for i, v := range row {
			if v != 0 {
				cnt[i]++
			}
		}
	}
	return cnt
}

// step merges the partials of the current batch (n > 0 rows).
func (r *reducer) step(mem memory.Allocator, n int) error {
	r.alloc()
	b := expr.Bindings{"e": r.src.cur}
	if r.onF64 {
		f, err := r.src.float64()
		if err != nil {
			return err
		}
		b["e"] = f
	}
	var ps []*array.Array
	defer func() {
		for _, p := range ps {
			p.Release()
		}
	}()
	parts := r.parts
	if p, err := r.fast(mem, n); err != nil {
		return err
	} else if p != nil {
		ps, parts = append(ps, p), nil
	}
	for _, pl := range parts {
		p, err := pl.Eval(b)
		if err != nil {
			return err
		}
		ps = append(ps, p)
		if p.Len() != r.src.lanes || !p.IsContiguous() || p.Offset() != 0 {
			return fmt.Errorf("%w: partial of shape %v, want %v", array.ErrShape, p.Shape(), r.src.row)
		}
	}
	switch r.r.Op {
	case Sum, Prod:
		prod := r.r.Op == Prod
		switch r.kind {
		case accF64:
			mergeNum(r.f64, ps[0], prod)
		case accU64:
			mergeNum(r.u64, ps[0], prod)
		default:
			mergeNum(r.i64, ps[0], prod)
		}
	case Count:
		for i, c := range r.src.counts(n) {
			r.i64[i] += c
		}
	case Any, All:
		p, err := array.Values[bool](ps[0])
		if err != nil {
			return err
		}
		for i := range r.b {
			if r.r.Op == Any {
				r.b[i] = r.b[i] || p[i]
			} else {
				r.b[i] = r.b[i] && p[i]
			}
		}
	case Mean, Var, Std:
		cnt := r.src.counts(n)
		mean, err := array.Values[float64](ps[0])
		if err != nil {
			return err
		}
		var v []float64
		if len(ps) > 1 {
			if v, err = array.Values[float64](ps[1]); err != nil {
				return err
			}
		}
		for i, c := range cnt {
			if c == 0 {
				continue
			}
			m := compute.Moments{Count: c, Mean: mean[i]}
			if v != nil {
				m.M2 = v[i] * float64(c)
			}
			r.mom[i] = r.mom[i].Merge(m)
		}
	case Min, Max:
		if r.acc == nil {
			r.acc, ps[0] = ps[0], nil
			ps = ps[:0]
			return nil
		}
		m, err := r.merge.Eval(expr.Bindings{"a": r.acc, "b": ps[0]})
		if err != nil {
			return err
		}
		r.acc.Release()
		r.acc = m
	}
	return nil
}

// mergeNum adds (or multiplies) the partial p into acc; integers wrap, as
// NumPy's do.
func mergeNum[T int64 | uint64 | float64](acc []T, p *array.Array, prod bool) {
	v, _ := array.Values[T](p) // the dtype is the plan's
	if prod {
		for i := range acc {
			acc[i] *= v[i]
		}
		return
	}
	for i := range acc {
		acc[i] += v[i]
	}
}

// finish makes the result array.
func (r *reducer) finish(mem memory.Allocator, rows int64, move bool) (*array.Array, error) {
	where := fmt.Sprintf("arrowio.Reduce %q (%v)", r.r.Name, r.r.Op)
	if rows == 0 && r.src.lanes > maxEmptyLanes {
		return nil, fmt.Errorf("%s: %w: a result of row shape %v (%d elements) for a stream of no rows", where, ErrUnsupported, r.src.row, r.src.lanes)
	}
	r.alloc()
	switch r.r.Op {
	case Min, Max:
		if r.acc == nil {
			return nil, fmt.Errorf("%s: %w: %w: the stream has no rows and %v has no identity", where, ErrEmpty, expr.ErrArgument, r.r.Op)
		}
		if !move {
			a, err := array.Copy(mem, r.acc)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			return a, nil
		}
		a := r.acc
		r.acc = nil
		return a, nil
	case Any, All:
		return fill(mem, array.Bool, r.src.row, r.b, where)
	case Count:
		return fill(mem, array.Int64, r.src.row, r.i64, where)
	case Mean, Var, Std:
		v := make([]float64, len(r.mom))
		for i, m := range r.mom {
			switch r.r.Op {
			case Mean:
				v[i] = m.Mean
				if m.Count == 0 {
					v[i] = math.NaN()
				}
			case Var:
				v[i] = m.Var(r.r.Ddof)
			default:
				v[i] = m.Std(r.r.Ddof)
			}
		}
		return fillFloat(mem, r.dtype, r.src.row, v, where)
	}
	switch r.kind {
	case accF64:
		return fillFloat(mem, r.dtype, r.src.row, r.f64, where)
	case accU64:
		return fill(mem, array.Uint64, r.src.row, r.u64, where)
	}
	return fill(mem, array.Int64, r.src.row, r.i64, where)
}

// fill returns a new array of shape row holding v.
func fill[T bool | int64 | uint64 | float64](mem memory.Allocator, dt array.DType, row []int, v []T, where string) (*array.Array, error) {
	a, err := array.Empty(mem, dt, row...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	dst, err := array.Values[T](a)
	if err != nil {
		a.Release()
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	copy(dst, v)
	return a, nil
}

// fillFloat is fill of float64 values rounded to dt.
func fillFloat(mem memory.Allocator, dt array.DType, row []int, v []float64, where string) (*array.Array, error) {
	a, err := fill(mem, array.Float64, row, v, where)
	if err != nil || dt == array.Float64 {
		return a, err
	}
	c, err := expr.Eval(expr.Cast(expr.Leaf(a), dt), expr.WithAllocator(mem))
	a.Release()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return c, nil
}

// fast computes the partial of Min, Max, Any or All of the current batch
// in Go when the value has no nulls and a dtype Go can order (every dtype
// but float16; bool for Any and All only): one loop over the rows, lanes
// innermost, where expr's reductions along axis 0 of few lanes are slow. It
// returns nil (and the partial plan is used) otherwise.
func (r *reducer) fast(mem memory.Allocator, n int) (*array.Array, error) {
	e := r.src.cur
	if e.HasNulls() {
		return nil, nil
	}
	switch r.r.Op {
	case Min, Max:
		isMin := r.r.Op == Min
		switch e.DType() {
		case array.Int8:
			return fastMinMax[int8](mem, e, n, r.src, isMin)
		case array.Int16:
			return fastMinMax[int16](mem, e, n, r.src, isMin)
		case array.Int32:
			return fastMinMax[int32](mem, e, n, r.src, isMin)
		case array.Int64:
			return fastMinMax[int64](mem, e, n, r.src, isMin)
		case array.Uint8:
			return fastMinMax[uint8](mem, e, n, r.src, isMin)
		case array.Uint16:
			return fastMinMax[uint16](mem, e, n, r.src, isMin)
		case array.Uint32:
			return fastMinMax[uint32](mem, e, n, r.src, isMin)
		case array.Uint64:
			return fastMinMax[uint64](mem, e, n, r.src, isMin)
		case array.Float32:
			return fastMinMax[float32](mem, e, n, r.src, isMin)
		case array.Float64:
			return fastMinMax[float64](mem, e, n, r.src, isMin)
		}
	case Any, All:
		isAny := r.r.Op == Any
		switch e.DType() {
		case array.Bool:
			return fastAnyAll[bool](mem, e, n, r.src, isAny)
		case array.Int8:
			return fastAnyAll[int8](mem, e, n, r.src, isAny)
		case array.Int16:
			return fastAnyAll[int16](mem, e, n, r.src, isAny)
		case array.Int32:
			return fastAnyAll[int32](mem, e, n, r.src, isAny)
		case array.Int64:
			return fastAnyAll[int64](mem, e, n, r.src, isAny)
		case array.Uint8:
			return fastAnyAll[uint8](mem, e, n, r.src, isAny)
		case array.Uint16:
			return fastAnyAll[uint16](mem, e, n, r.src, isAny)
		case array.Uint32:
			return fastAnyAll[uint32](mem, e, n, r.src, isAny)
		case array.Uint64:
			return fastAnyAll[uint64](mem, e, n, r.src, isAny)
		case array.Float32:
			return fastAnyAll[float32](mem, e, n, r.src, isAny)
		case array.Float64:
			return fastAnyAll[float64](mem, e, n, r.src, isAny)
		}
	}
	return nil, nil
}

type ordered interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | float32 | float64
}

// fastMinMax is the minimum (or maximum) over the n rows of e (contiguous,
// no nulls, n > 0) per lane; a NaN wins, as in numpy.minimum.
func fastMinMax[T ordered](mem memory.Allocator, e *array.Array, n int, src *source, isMin bool) (*array.Array, error) {
	p, err := array.Empty(mem, e.DType(), src.row...)
	if err != nil {
		return nil, err
	}
	v, _ := array.Values[T](e)
	m, _ := array.Values[T](p)
	lanes := src.lanes
	m = m[:lanes]
	copy(m, v[:lanes])
	for r := 1; r < n; r++ {
		row := v[r*lanes : (r+1)*lanes]
		if isMin {
			for i, x := range row {
				if x < m[i] || x != x {
					m[i] = x
				}
			}
		} else {
			for i, x := range row {
				if x > m[i] || x != x {
					m[i] = x
				}
			}
		}
	}
	return p, nil
}

// fastAnyAll is Any (or All) over the n rows of e (contiguous, no nulls)
// per lane: whether some (every) element is nonzero; NaN is nonzero.
func fastAnyAll[T ordered | bool](mem memory.Allocator, e *array.Array, n int, src *source, isAny bool) (*array.Array, error) {
	p, err := array.Empty(mem, array.Bool, src.row...)
	if err != nil {
		return nil, err
	}
	v, _ := array.Values[T](e)
	b, _ := array.Values[bool](p)
	lanes := src.lanes
	b = b[:lanes]
	var zero T
	for i := range b {
		b[i] = !isAny
	}
	for r := 0; r < n; r++ {
		row := v[r*lanes : (r+1)*lanes]
		for i, x := range row {
			if (x != zero) == isAny {
				b[i] = isAny
			}
		}
	}
	return p, nil
}
