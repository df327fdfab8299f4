package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// WithColumns adds computed columns, or replaces the columns of the same
// names (in place, as Polars does); new ones go to the end, in the order
// given. Every binding sees f's columns, not each other's. A binding whose
// expression reduces over the rows (mean(x, axis=0)) makes the step hold
// its whole input (see the package documentation); a scalar result (a
// reduction over every axis) is repeated on every row.
func (f Frame) WithColumns(defs ...Binding) Frame {
	return f.then(func(in *node) (*node, error) {
		fields := append([]arrow.Field(nil), in.schema.Fields()...)
		n := &node{kind: stepCompute}
		seen := map[string]bool{}
		for _, d := range defs {
			b, err := d.resolve("frame.WithColumns", in.schema)
			if err != nil {
				return nil, err
			}
			if seen[b.name] {
				return nil, fmt.Errorf("frame.WithColumns: %w: column %q computed twice", ErrDuplicate, b.name)
			}
			seen[b.name] = true
			if !b.rowWise {
				n.whole = true
			}
			fd := arrow.Field{Name: b.name, Type: b.out, Nullable: true}
			if idx := in.schema.FieldIndices(b.name); len(idx) == 1 {
				fields[idx[0]] = fd
			} else if len(idx) > 1 {
				return nil, fmt.Errorf("frame.WithColumns %q: %w: %d columns have this name", b.name, ErrDuplicate, len(idx))
			} else {
				fields = append(fields, fd)
			}
			n.defs = append(n.defs, *b)
		}
		md := in.schema.Metadata()
		n.schema = arrow.NewSchema(fields, &md)
		return n, nil
	})
}

// Filter keeps the rows where the predicate src (expr.Parse's syntax over
// the column names, e.g. "(y > 0) & (site_id != 3)") is true. Nulls follow
// SQL: a comparison with a null is null, and/or/not use three-valued logic
// (null | true is true, null & false is false), and a row whose predicate
// is null is dropped, as SQL's WHERE drops it. NaN compares as IEEE 754 and
// NumPy say (NaN > 1 is false; DuckDB orders NaN above every number). The
// predicate must be boolean with one value per row, or a scalar, which
// holds for every row as SQL's WHERE TRUE does ("True" keeps every row,
// "False" none, "mean(y) > 0" all or none); one that reduces over the rows
// ("y > mean(y)") makes the step hold its whole input. A predicate of
// numbers alone folds as Python folds it: "~(1 > 0)" is Python's ~True,
// the integer -2, not a predicate.
func (f Frame) Filter(src string) Frame { return f.filter(Binding{name: "filter", src: src}) }

// FilterExpr is Filter with the predicate as a node (see Col).
func (f Frame) FilterExpr(e *expr.Node) Frame { return f.filter(Binding{name: "filter", node: e}) }

func (f Frame) filter(p Binding) Frame {
	return f.then(func(in *node) (*node, error) {
		b, err := p.resolve("frame.Filter", in.schema)
		if err != nil {
			return nil, err
		}
		if b.node.DType() != array.Bool {
			return nil, fmt.Errorf("frame.Filter %v: %w: the predicate is %v, not bool", b.node, ErrType, b.node.DType())
		}
		if sh := b.node.Shape(); !sh.RankKnown || len(sh.Dims) > 1 {
			return nil, fmt.Errorf("frame.Filter %v: %w: the predicate has shape %v; it needs one value per row (or one value for every row)", b.node, array.ErrShape, sh)
		}
		tree, err := splitPred(b, in.schema)
		if err != nil {
			return nil, err
		}
		return &node{kind: stepFilter, schema: in.schema, pred: b, tree: tree, whole: !b.rowWise}, nil
	})
}
