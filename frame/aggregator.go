package frame

import (
	"fmt"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// Aggregator is GroupBy().Agg(aggs...) (the aggregates of every row, no
// keys) as a state that is built incrementally and moves between
// processes: Add folds in a record batch, Merge folds in another
// Aggregator's rows (the partial of a disjoint part of the data, computed
// elsewhere), Result gives the one-row table Agg would give over all those
// rows, and MarshalBinary / UnmarshalBinary carry the state between
// processes. So an aggregate over data split across workers (Beam's
// combiners, say) is computed as partial Aggregators, one per split,
// merged in any order and grouping, with the same machinery and the same
// results as a Frame's GroupBy:
//
//   - Count, CountOf, sums of integers and bools (exact: an overflow is
//     ErrOverflow), Min, Max, Any, All, CountDistinct and Quantile are
//     exact, whatever the split;
//   - sums and means of floats are compensated sums in float64, and Var,
//     Std and Corr keep count, mean and sums of squared deviations merged
//     by Chan's formulas, so a split changes them only by rounding;
//   - First and Last take Merge's argument's rows as following the
//     receiver's (Merge(a, b) is a's rows then b's).
//
// Aggregates skip nulls, as Agg's do: over no valid value Count and
// CountDistinct give 0 and the others null. An Aggregator holds Go memory
// only (no Arrow buffers), so it needs no Release; it is not safe for
// concurrent use.
type Aggregator struct {
	n    *node
	t    *gtable
	rows int64
	sig  string // the schema and aggregates, as Merge and the encoding compare them
}

// NewAggregator checks aggs against schema, as GroupBy().Agg does (the
// same errors: an unknown column names the nearest, a column of a type the
// aggregate cannot take is ErrType), and returns an Aggregator that has
// seen no rows.
func NewAggregator(schema *arrow.Schema, aggs ...Agg) (*Aggregator, error) {
	if schema == nil {
		return nil, fmt.Errorf("frame.NewAggregator: %w: nil schema", ErrArgument)
	}
	if len(aggs) == 0 {
		return nil, fmt.Errorf("frame.NewAggregator: %w: no aggregates", ErrArgument)
	}
	in := &node{kind: stepSource, schema: schema}
	n, err := groupNode(in, nil, aggs)
	if err != nil {
		return nil, err
	}
	n.in = in
	return &Aggregator{n: n, t: newTable(n), sig: aggSignature(schema, aggs)}, nil
}

// aggSignature is the text Merge and the encoding compare: the schema's
// fields (names and types; not nullability nor metadata, which do not
// change an aggregate) and each aggregate with its output name.
func aggSignature(schema *arrow.Schema, aggs []Agg) string {
	var b strings.Builder
	for _, f := range schema.Fields() {
		fmt.Fprintf(&b, "%q:%v;", f.Name, f.Type)
	}
	b.WriteString("|")
	for _, a := range aggs {
		fmt.Fprintf(&b, "%v as %q;", a, a.outName())
	}
	return b.String()
}

func (a *Aggregator) check(op string) error {
	if a == nil || a.n == nil {
		return fmt.Errorf("frame.Aggregator.%s: %w: nil or zero Aggregator (use NewAggregator)", op, ErrArgument)
	}
	return nil
}

// Rows returns the number of rows the Aggregator has seen (added or
// merged).
func (a *Aggregator) Rows() int64 {
	if a == nil {
		return 0
	}
	return a.rows
}

// Schema returns the schema the Aggregator was made for.
func (a *Aggregator) Schema() *arrow.Schema {
	if a == nil || a.n == nil {
		return nil
	}
	return a.n.in.schema
}

// ResultSchema returns the schema of Result's table: one column per
// aggregate, named as Agg names it.
func (a *Aggregator) ResultSchema() *arrow.Schema {
	if a == nil || a.n == nil {
		return nil
	}
	return a.n.schema
}

// Add folds the rows of rec, a batch of the Aggregator's schema, in. The
// batch binds to the schema by name: its columns may come in another
// order, but one that lacks a column of the schema (ErrNoColumn), has one
// more, or one of another type (ErrSource) is refused, naming the column,
// with the Aggregator unchanged. An empty batch changes nothing. It does
// not release rec. Rows past 2^63-1 are ErrOverflow, with the Aggregator
// unchanged; on another error (an integer sum's overflow) the state may
// hold part of the batch: discard the Aggregator.
func (a *Aggregator) Add(rec arrow.Record) error {
	if err := a.check("Add"); err != nil {
		return err
	}
	b, err := bindRecord("frame.Aggregator.Add", a.n.in.schema, rec)
	if err != nil {
		return err
	}
	defer b.Release()
	n := b.NumRows()
	if n == 0 {
		return nil
	}
	if a.rows > math.MaxInt64-n {
		return fmt.Errorf("frame.Aggregator.Add: %w: %d + %d rows overflow int64", ErrOverflow, a.rows, n)
	}
	if err := safeAdd(a.t, b, a.rows); err != nil {
		return err
	}
	a.rows += n
	return nil
}

// Merge folds o's rows into a, as if a had been given, after its own, every
// batch o was given; o is unchanged (a.Merge(a) counts a's rows twice).
// Both must have been made from schemas of the same column names and types
// (nullability and metadata may differ) and the same aggregates (ops,
// columns, parameters and names), else the error wraps ErrMismatch. An
// Aggregator that has seen no rows is the identity, on either side. A
// merge whose rows would pass 2^63-1, or whose exact sums overflow, returns
// an error wrapping ErrOverflow. On every error a is unchanged: the merge
// is made on a copy of the state (its cost is the state's size, which for
// Quantile and CountDistinct is their values).
func (a *Aggregator) Merge(o *Aggregator) error {
	if err := a.check("Merge"); err != nil {
		return err
	}
	if err := o.check("Merge"); err != nil {
		return err
	}
	if a.sig != o.sig {
		return fmt.Errorf("frame.Aggregator.Merge: %w: made from other schemas or aggregates", ErrMismatch)
	}
	if o.rows == 0 {
		return nil
	}
	if a.rows > math.MaxInt64-o.rows {
		return fmt.Errorf("frame.Aggregator.Merge: %w: %d + %d rows overflow int64", ErrOverflow, a.rows, o.rows)
	}
	oc, err := o.copyTable()
	if err != nil {
		return err
	}
	if a.rows == 0 {
		a.t, a.rows = oc, o.rows
		return nil
	}
	for _, s := range oc.states {
		shiftPositions(s, a.rows)
	}
	c, err := a.copyTable()
	if err != nil {
		return err
	}
	if err := c.merge(oc); err != nil {
		return fmt.Errorf("frame.Aggregator.Merge: %w", err)
	}
	a.t = c
	a.rows += o.rows
	return nil
}

// copyTable returns an exact copy of a's table (through the states'
// encoding: a merge into an empty table would round the moments).
func (a *Aggregator) copyTable() (*gtable, error) {
	t := newTable(a.n)
	if a.rows == 0 {
		return t, nil
	}
	if err := t.keylessGroup(); err != nil {
		return nil, err
	}
	t.grow()
	for i, s := range a.t.states {
		c, ok := s.(stateCodec)
		if !ok {
			return nil, fmt.Errorf("frame.Aggregator: internal error: state %T has no encoding", s)
		}
		d := &stateDecoder{p: c.encode(nil)}
		if err := t.states[i].(stateCodec).decode(d, a.rows); err != nil || d.err != nil || len(d.p) != 0 {
			return nil, fmt.Errorf("frame.Aggregator: internal error: copying %v: %v %v", a.n.aggs[i].Agg, err, d.err)
		}
	}
	return t, nil
}

// Result returns the one-row table of the aggregates over every row the
// Aggregator has seen (added or merged), as GroupBy().Agg gives it: the
// columns of ResultSchema, a tensor column's aggregate a tensor of its
// element shape. The record's buffers come from mem (nil:
// memory.DefaultAllocator); the caller releases it. The Aggregator is
// unchanged and may go on.
func (a *Aggregator) Result(mem memory.Allocator) (arrow.Record, error) {
	if err := a.check("Result"); err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return a.t.result(mem)
}

// keylessGroup makes the one group of a table without keys (an Aggregator's
// table holds it from its first row on).
func (t *gtable) keylessGroup() error {
	if t.k.groups() > 0 {
		return nil
	}
	return t.k.assign(nil, 1, 0, nil, []int32{0})
}
