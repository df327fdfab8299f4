package frame

import (
	"fmt"
	"math"
	"sync"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
)

// filterFn is the per-batch function of filter step n, and of the
// projection right above it when pick is not nil (the output's columns
// are then pick's of the input, in schema out): the kept rows' indices
// are found once, and only the columns the output has are gathered.
func (n *node) filterFn(pick []int, out *arrow.Schema) batchFn {
	return func(w *worker, rec arrow.Record) (arrow.Record, error) {
		src := rec
		if pick != nil {
			cols := make([]arrow.Array, len(pick))
			for k, i := range pick {
				cols[k] = rec.Column(i)
			}
			src = arrowarray.NewRecord(out, cols, rec.NumRows())
			defer src.Release()
		}
		idx, err := n.tree.keptRows(w, rec)
		if err != nil {
			return nil, fmt.Errorf("frame.Filter %v: %w", n.pred.node, err)
		}
		defer putIndices(idx)
		if len(idx) == int(rec.NumRows()) {
			src.Retain()
			return src, nil
		}
		res, err := takeRows(contextOf(w), w.mem, src, idx)
		if err != nil {
			return nil, fmt.Errorf("frame.Filter %v: %w", n.pred.node, err)
		}
		return res, nil
	}
}

// keptRows returns the indices of the rows of rec where p is known and
// true, in order.
func (p *pred) keptRows(w *worker, rec arrow.Record) ([]int64, error) {
	if idx, ok := p.compareRows(rec); ok {
		return idx, nil
	}
	if idx, ok := p.nullTestRows(rec); ok {
		return idx, nil
	}
	known, val, err := p.eval(w, rec)
	if err != nil {
		return nil, err
	}
	// the kept rows' indices, without a branch per row (a branch on a
	// predicate of random truth is mispredicted half the time)
	idx := getIndices(len(val))
	kept := 0
	known = known[:len(val)]
	for i, v := range val {
		idx[kept] = int64(i)
		kept += int(b2u8(known[i] && v))
	}
	return idx[:kept], nil
}

// compareRows is keptRows of a predicate that compares a column of
// numbers with a number (v3 > 50), computed straight from the column's
// values: ok is false for any other predicate, and for a number the
// column's type cannot hold exactly (expr decides those).
func (p *pred) compareRows(rec arrow.Record) ([]int64, bool) {
	if p.op != "" || p.leaf == nil || !p.leaf.rowWise {
		return nil, false
	}
	op, name, v, ok := p.leaf.node.Comparison()
	if !ok {
		return nil, false
	}
	ci, isCol := p.leaf.vars[name]
	if !isCol || len(p.leaf.vars) != 1 || len(p.leaf.specials) != 0 {
		return nil, false
	}
	c := rec.Column(ci)
	var idx []int64
	switch a := c.(type) {
	case *arrowarray.Int8:
		idx, ok = compareInts(a.Int8Values(), op, v, math.MinInt8, math.MaxInt8)
	case *arrowarray.Int16:
		idx, ok = compareInts(a.Int16Values(), op, v, math.MinInt16, math.MaxInt16)
	case *arrowarray.Int32:
		idx, ok = compareInts(a.Int32Values(), op, v, math.MinInt32, math.MaxInt32)
	case *arrowarray.Int64:
		idx, ok = compareInts(a.Int64Values(), op, v, -1<<53, 1<<53)
	case *arrowarray.Uint8:
		idx, ok = compareInts(a.Uint8Values(), op, v, 0, math.MaxUint8)
	case *arrowarray.Uint16:
		idx, ok = compareInts(a.Uint16Values(), op, v, 0, math.MaxUint16)
	case *arrowarray.Uint32:
		idx, ok = compareInts(a.Uint32Values(), op, v, 0, math.MaxUint32)
	case *arrowarray.Float32:
		if f := float32(v); float64(f) == v || math.IsNaN(v) {
			idx, ok = compareValues(a.Float32Values(), op, f), true
		} else {
			ok = false
		}
	case *arrowarray.Float64:
		idx, ok = compareValues(a.Float64Values(), op, v), true
	default:
		ok = false
	}
	if !ok {
		return nil, false
	}
	if c.NullN() > 0 { // null is not true: drop the kept rows that are null
		vb, off := c.NullBitmapBytes(), c.Data().Offset()
		k := 0
		for _, i := range idx {
			idx[k] = i
			k += int(b2u8(bitutil.BitIsSet(vb, off+int(i))))
		}
		idx = idx[:k]
	}
	return idx, true
}

// nullTestRows is keptRows of a predicate that is exactly is_null(c) or
// is_not_null(c), read from c's validity bitmap: ok is false for any
// other predicate.
func (p *pred) nullTestRows(rec arrow.Record) ([]int64, bool) {
	if p.op != "" || p.leaf == nil || len(p.leaf.vars) != 0 || len(p.leaf.specials) != 1 {
		return nil, false
	}
	sp := p.leaf.specials[p.leaf.node.VarName()]
	if sp == nil || (sp.op != "is_null" && sp.op != "is_not_null") {
		return nil, false
	}
	c := rec.Column(sp.col)
	n := c.Len()
	want := sp.op == "is_not_null" // the validity bit a kept row has
	idx := getIndices(n)
	if c.NullN() == 0 || c.DataType().ID() == arrow.NULL {
		if want == (c.NullN() == 0) {
			for i := range idx {
				idx[i] = int64(i)
			}
			return idx, true
		}
		return idx[:0], true
	}
	vb, off := c.NullBitmapBytes(), c.Data().Offset()
	k := 0
	for i := 0; i < n; i++ {
		idx[k] = int64(i)
		k += int(b2u8(bitutil.BitIsSet(vb, off+i) == want))
	}
	return idx[:k], true
}

// compareInts compares integers with v, which must be a whole number in
// [lo, hi] (so that the comparison in the column's type is exact).
func compareInts[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32](x []T, op string, v float64, lo, hi float64) ([]int64, bool) {
	if v != math.Trunc(v) || v < lo || v > hi {
		return nil, false
	}
	return compareValues(x, op, T(v)), true
}

// compareValues returns the indices of the values x OP lit (IEEE's
// comparisons: NaN is unordered, and != everything), without a branch per
// value.
func compareValues[T number](x []T, op string, lit T) []int64 {
	idx := getIndices(len(x))
	k := 0
	switch op {
	case "==":
		for i, y := range x {
			idx[k] = int64(i)
			k += int(b2u8(y == lit))
		}
	case "!=":
		for i, y := range x {
			idx[k] = int64(i)
			k += int(b2u8(y != lit))
		}
	case "<":
		for i, y := range x {
			idx[k] = int64(i)
			k += int(b2u8(y < lit))
		}
	case "<=":
		for i, y := range x {
			idx[k] = int64(i)
			k += int(b2u8(y <= lit))
		}
	case ">":
		for i, y := range x {
			idx[k] = int64(i)
			k += int(b2u8(y > lit))
		}
	case ">=":
		for i, y := range x {
			idx[k] = int64(i)
			k += int(b2u8(y >= lit))
		}
	}
	return idx[:k]
}

// indexPool keeps the filters' index buffers between batches (a morsel's
// is 512 KiB: allocating and zeroing one per batch cost as much as the
// comparison).
var indexPool sync.Pool

// getIndices returns a buffer of n indices (their values undefined).
func getIndices(n int) []int64 {
	if p, ok := indexPool.Get().(*[]int64); ok && cap(*p) >= n {
		return (*p)[:n]
	}
	return make([]int64, n)
}

// putIndices hands idx back to the pool once nothing reads it.
func putIndices(idx []int64) {
	if cap(idx) > 0 {
		indexPool.Put(&idx)
	}
}
