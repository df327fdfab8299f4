package arrowio

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/expr"
)

// ErrMismatch: two Reducers (or a Reducer and an encoded state) were made
// from different schemas or reductions and cannot be merged.
var ErrMismatch = errors.New("reducers differ")

// Reducer is the mergeable state of Reduce: the accumulators of its
// reductions over the rows it has seen. Add folds in a record batch, Merge
// folds in another Reducer's rows (the partial of a disjoint part of the
// data, computed elsewhere), Result gives what Reduce would give over all
// those rows, and MarshalBinary / UnmarshalBinary move the state between
// processes. So a reduction over data split across workers is computed as
// partial Reducers, one per split, merged in any order and grouping:
//
//   - Sum, Prod, Count, Any, All of integers and bools, Min and Max are
//     exact, whatever the split;
//   - sums and products of floats are accumulated in float64 (as Reduce
//     does), so a split changes only the order of the additions;
//   - Mean, Var and Std keep per element the count, mean and sum of squared
//     deviations (compute.Moments) and merge them by Chan's formulas, so a
//     split changes them only by rounding.
//
// A Reducer that has seen no rows merges as the identity. A Reducer is not
// safe for concurrent use; Release it when done (its Min and Max
// accumulators hold arrays from the allocator).
type Reducer struct {
	s   *streamReduce
	sig string // the schema and reductions, as Merge and the encoding compare them
}

// NewReducer checks reductions against schema and compiles them, as Reduce
// does, into a Reducer that has seen no rows. Its buffers come from mem
// (nil: memory.DefaultAllocator). The errors are Reduce's.
func NewReducer(mem memory.Allocator, schema *arrow.Schema, reductions ...Reduction) (*Reducer, error) {
	if schema == nil {
		return nil, fmt.Errorf("arrowio.NewReducer: %w: nil schema", array.ErrNil)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	s := &streamReduce{mem: mem, schema: schema, vars: map[string]int{}}
	if err := s.plan(schema, reductions); err != nil {
		s.release()
		return nil, err
	}
	return &Reducer{s: s, sig: signature(schema, reductions)}, nil
}

// signature is the text Merge and the encoding compare: the schema's
// fields (names and types; not nullability nor metadata, which do not
// change a reduction) and each reduction's name, op, ddof
// and printed expression. Leaf arrays print as their dtype and shape, so
// two reductions over different leaf arrays of one dtype and shape are not
// told apart.
func signature(schema *arrow.Schema, reductions []Reduction) string {
	var b strings.Builder
	for _, f := range schema.Fields() {
		fmt.Fprintf(&b, "%q:%v;", f.Name, f.Type)
	}
	b.WriteString("|")
	for _, r := range reductions {
		fmt.Fprintf(&b, "%q:%d:%d:%v;", r.Name, r.Op, r.Ddof, r.Expr)
	}
	return b.String()
}

func (r *Reducer) check(op string) error {
	if r == nil || r.s == nil {
		return fmt.Errorf("arrowio.Reducer.%s: %w: nil or zero Reducer (use NewReducer)", op, array.ErrNil)
	}
	if r.s.reds == nil && r.s.srcs == nil && r.s.vars == nil {
		return fmt.Errorf("arrowio.Reducer.%s: %w: the Reducer was released", op, array.ErrNil)
	}
	return nil
}

// Rows returns the number of rows the Reducer has seen (added or merged).
func (r *Reducer) Rows() int64 {
	if r == nil || r.s == nil {
		return 0
	}
	return r.s.rows
}

// Schema returns the schema the Reducer was made for.
func (r *Reducer) Schema() *arrow.Schema {
	if r == nil || r.s == nil {
		return nil
	}
	return r.s.schema
}

// Add folds the rows of rec, a batch of the Reducer's schema, into the
// accumulators. An empty batch changes nothing. It does not release rec.
// On an error (a nil batch, columns that do not fit the schema, an
// evaluation error) the accumulators may hold part of the batch: discard
// the Reducer.
func (r *Reducer) Add(rec arrow.Record) error {
	if err := r.check("Add"); err != nil {
		return err
	}
	return r.s.batch(rec)
}

// Merge folds other's rows into r, as if r had been given every batch
// other was given; other is unchanged. Both must have been made from
// schemas of the same column names and types (nullability and metadata
// may differ) and the same reductions (names, ops, ddofs and printed
// expressions), else the error wraps ErrMismatch and r is unchanged. A
// Reducer that has seen no rows is the identity, on either side. Row
// counts and counts are checked, not wrapped: a merge whose rows (or a
// Count's or a Mean's count) would pass 2^63-1 returns an error wrapping
// expr.ErrOverflow, with r unchanged; so does Add.
func (r *Reducer) Merge(other *Reducer) error {
	if err := r.check("Merge"); err != nil {
		return err
	}
	if err := other.check("Merge"); err != nil {
		return err
	}
	if r.sig != other.sig {
		return fmt.Errorf("arrowio.Reducer.Merge: %w: made from other schemas or reductions", ErrMismatch)
	}
	if other.s.rows == 0 {
		return nil
	}
	if r.s.rows > math.MaxInt64-other.s.rows {
		return fmt.Errorf("arrowio.Reducer.Merge: %w: %d + %d rows overflow int64", expr.ErrOverflow, r.s.rows, other.s.rows)
	}
	for i, red := range r.s.reds { // counts are at most the rows, but check
		o := other.s.reds[i]
		if red.kind == accI64 && red.r.Op == Count && len(red.i64) == len(o.i64) {
			for k, v := range o.i64 {
				if red.i64[k] > math.MaxInt64-v {
					return fmt.Errorf("arrowio.Reducer.Merge %q (%v): %w: %d + %d overflow int64", red.r.Name, red.r.Op, expr.ErrOverflow, red.i64[k], v)
				}
			}
		}
		if red.kind == accMom && len(red.mom) == len(o.mom) {
			for k, m := range o.mom {
				if red.mom[k].Count > math.MaxInt64-m.Count {
					return fmt.Errorf("arrowio.Reducer.Merge %q (%v): %w: %d + %d values overflow int64", red.r.Name, red.r.Op, expr.ErrOverflow, red.mom[k].Count, m.Count)
				}
			}
		}
	}
	// Min and Max first: the only step that can fail (an evaluation), so
	// that a failure leaves r unchanged.
	merged := make([]*array.Array, len(r.s.reds))
	for i, red := range r.s.reds {
		o := other.s.reds[i]
		if red.kind != accArray {
			continue
		}
		var m *array.Array
		var err error
		if red.acc == nil {
			m, err = array.Copy(r.s.mem, o.acc)
		} else {
			m, err = red.merge.Eval(expr.Bindings{"a": red.acc, "b": o.acc})
		}
		if err != nil {
			for _, a := range merged {
				if a != nil {
					a.Release()
				}
			}
			return fmt.Errorf("arrowio.Reducer.Merge %q (%v): %w", red.r.Name, red.r.Op, err)
		}
		merged[i] = m
	}
	for i, red := range r.s.reds {
		o := other.s.reds[i]
		red.alloc()
		switch red.kind {
		case accArray:
			if red.acc != nil {
				red.acc.Release()
			}
			red.acc = merged[i]
		case accI64:
			mergeSlice(red.i64, o.i64, red.r.Op == Prod)
		case accU64:
			mergeSlice(red.u64, o.u64, red.r.Op == Prod)
		case accF64:
			mergeSlice(red.f64, o.f64, red.r.Op == Prod)
		case accBool:
			for k, v := range o.b {
				if red.r.Op == Any {
					red.b[k] = red.b[k] || v
				} else {
					red.b[k] = red.b[k] && v
				}
			}
		case accMom:
			for k, m := range o.mom {
				red.mom[k] = red.mom[k].Merge(m)
			}
		}
	}
	r.s.rows += other.s.rows
	return nil
}

// mergeSlice adds (or multiplies) o into acc element by element.
func mergeSlice[T int64 | uint64 | float64](acc, o []T, prod bool) {
	if prod {
		for i, v := range o {
			acc[i] *= v
		}
		return
	}
	for i, v := range o {
		acc[i] += v
	}
}

// Result returns, for each reduction, what Reduce returns over every row
// the Reducer has seen (added or merged), with the same dtypes, shapes and
// errors (Min and Max over no rows: ErrEmpty). The arrays come from mem
// (nil: the Reducer's allocator); the caller releases them. The Reducer is
// unchanged and may go on.
func (r *Reducer) Result(mem memory.Allocator) ([]*array.Array, error) {
	if err := r.check("Result"); err != nil {
		return nil, err
	}
	if mem == nil {
		mem = r.s.mem
	}
	return r.s.results(mem, false)
}

// Release gives back the accumulators' arrays. A released Reducer returns
// an error from every method; Release again does nothing.
func (r *Reducer) Release() {
	if r == nil || r.s == nil {
		return
	}
	r.s.release()
	r.s.reds, r.s.srcs, r.s.vars = nil, nil, nil
}

// reset returns every accumulator to the state of no rows.
func (s *streamReduce) reset() {
	for _, red := range s.reds {
		if red.acc != nil {
			red.acc.Release()
			red.acc = nil
		}
		red.i64, red.u64, red.f64, red.b, red.mom = nil, nil, nil, nil, nil
	}
	s.rows = 0
}

// momentsOK reports whether m is a state Add and Merge could have built
// from at most rows values: a count in [0, rows]; for no values, mean and
// M2 zero; M2 (a sum of squared deviations, clamped at 0 against rounding)
// never negative, and for one value zero, or NaN when that value was
// infinite or NaN. A NaN or infinite mean is possible (NaN or infinite
// values, or a sum that overflowed), so it is not refused.
func momentsOK(m compute.Moments, rows int64) bool {
	switch {
	case m.Count < 0 || m.Count > rows:
		return false
	case m.Count == 0:
		return m.Mean == 0 && m.M2 == 0
	case m.M2 < 0:
		return false
	case m.Count == 1:
		return m.M2 == 0 || math.IsNaN(m.M2)
	}
	return true
}
