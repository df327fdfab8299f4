package frame

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// Grouped is a Frame grouped by key columns, waiting for its aggregates
// (Agg).
type Grouped struct {
	f    Frame
	keys []string
}

// GroupBy groups f's rows by the values of the key columns (numbers,
// bools, strings, string dictionaries, dates and times; nulls form a group
// of their own, as in SQL; float keys group -0 with 0 and NaN with NaN).
// Agg then computes the aggregates of each group.
func (f Frame) GroupBy(keys ...string) Grouped { return Grouped{f: f, keys: keys} }

// aggPlan is an Agg resolved against the input schema.
type aggPlan struct {
	Agg
	col   int // -1 for Count()
	col2  int // Corr's second column
	dt    array.DType
	shape []int // element shape (nil: primitive)
	width int
	str   bool           // a string column (Min, Max, First, Last, CountDistinct)
	phys  arrow.DataType // a temporal column's type, read through its integers
	field arrow.Field
}

// Agg returns the Frame of one row per group: the key columns, then one
// column per aggregate, in the order given. Groups come in the order of
// their first row in the input. With no keys, the whole input is one group
// (one row, even over no rows: Count is 0 and the others null).
//
// The step holds a hash table of the groups and their aggregates' states
// (Quantile and Median also hold their input values, and CountDistinct
// the distinct values), and one batch per worker.
func (g Grouped) Agg(aggs ...Agg) Frame {
	return g.f.then(func(in *node) (*node, error) { return groupNode(in, g.keys, aggs) })
}

// groupNode plans the aggregates aggs of in's rows grouped by keys.
func groupNode(in *node, keys []string, aggs []Agg) (*node, error) {
	n := &node{kind: stepGroup}
	var fields []arrow.Field
	for _, k := range keys {
		i, err := columnIndex(in.schema, "frame.GroupBy", k)
		if err != nil {
			return nil, err
		}
		if _, err := keyable(in.schema.Field(i).Type); err != nil {
			return nil, fmt.Errorf("frame.GroupBy %q: %w", k, err)
		}
		n.keys = append(n.keys, i)
		fd := in.schema.Field(i)
		fd.Nullable = true
		fields = append(fields, fd)
	}
	if len(aggs) == 0 && len(keys) == 0 {
		return nil, fmt.Errorf("frame.GroupBy: %w: no keys and no aggregates", ErrArgument)
	}
	for _, a := range aggs {
		p, err := resolveAgg(a, in.schema)
		if err != nil {
			return nil, err
		}
		n.aggs = append(n.aggs, p)
		fields = append(fields, p.field)
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name
	}
	if err := unique("frame.GroupBy.Agg", names); err != nil {
		return nil, fmt.Errorf("%w (name aggregates with As)", err)
	}
	n.schema = arrow.NewSchema(fields, nil)
	return n, nil
}

func resolveAgg(a Agg, s *arrow.Schema) (*aggPlan, error) {
	where := "frame.Agg " + a.String()
	if a.err != nil {
		return nil, fmt.Errorf("%s: %w", where, a.err)
	}
	if a.op < aggCount || a.op > aggCorr {
		return nil, fmt.Errorf("frame.Agg: %w: the zero Agg (use Count, Sum, Mean...)", ErrArgument)
	}
	p := &aggPlan{Agg: a, col: -1, width: 1}
	if a.op == aggCount && a.col == "" {
		p.field = arrow.Field{Name: a.outName(), Type: arrow.PrimitiveTypes.Int64}
		return p, nil
	}
	i, err := columnIndex(s, where, a.col)
	if err != nil {
		return nil, err
	}
	p.col = i
	t := s.Field(i).Type
	name := a.outName()
	if a.op == aggCorr {
		j, err := columnIndex(s, where, a.col2)
		if err != nil {
			return nil, err
		}
		p.col2 = j
		for _, k := range []int{i, j} {
			_, shape, err := numericShape(s.Field(k).Type)
			if err != nil || len(shape) > 0 {
				return nil, fmt.Errorf("%s: %w: corr takes two numeric columns; %q is %s", where, ErrType, s.Field(k).Name, typeName(s.Field(k).Type))
			}
		}
		p.field = arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Float64, Nullable: true}
		return p, nil
	}
	switch a.op {
	case aggCount, aggDistinct:
		if a.op == aggDistinct {
			if _, err := keyable(t); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
		}
		p.field = arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64}
		return p, nil
	case aggMin, aggMax, aggFirst, aggLast:
		if k, err := keyable(t); err == nil && (k == keyStr || k == keyDict) {
			p.str = true
			p.field = arrow.Field{Name: name, Type: t, Nullable: true}
			return p, nil
		}
		if phys := temporalStorage(t); phys != nil {
			p.phys = phys
			p.dt, _ = array.FromArrowType(phys)
			p.field = arrow.Field{Name: name, Type: t, Nullable: true}
			return p, nil
		}
	}
	dt, shape, err := numericShape(t)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %s has no %s (aggregates of numbers, bools and tensors do; %s)", where, ErrType, typeName(t), aggNames[a.op], "min, max, first, last and count_distinct also take strings, dates and times")
	}
	p.dt, p.shape = dt, shape
	for _, d := range shape {
		p.width *= d
	}
	od := outDType(a.op, dt)
	var ot arrow.DataType = od.ArrowType()
	if len(shape) > 0 {
		tt, err := arrowio.NewFixedShapeTensorType(od.ArrowType(), shape, nil, nil)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		ot = tt
	}
	p.field = arrow.Field{Name: name, Type: ot, Nullable: true}
	return p, nil
}

// outDType is the dtype of an aggregate of dtype dt (NumPy's for sums and
// means).
func outDType(op aggOp, dt array.DType) array.DType {
	isFloat := dt == array.Float16 || dt == array.Float32 || dt == array.Float64
	switch op {
	case aggSum:
		switch {
		case isFloat:
			return dt
		case dt == array.Uint8 || dt == array.Uint16 || dt == array.Uint32 || dt == array.Uint64:
			return array.Uint64
		}
		return array.Int64
	case aggMean, aggVar, aggStd, aggQuantile:
		if isFloat {
			return dt
		}
		return array.Float64
	case aggAny, aggAll:
		return array.Bool
	case aggCount, aggDistinct:
		return array.Int64
	}
	return dt
}

// temporalStorage returns the integer type under a date or time type (nil
// for other types).
func temporalStorage(t arrow.DataType) arrow.DataType {
	switch t.ID() {
	case arrow.DATE32, arrow.TIME32:
		return arrow.PrimitiveTypes.Int32
	case arrow.DATE64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return arrow.PrimitiveTypes.Int64
	}
	return nil
}

func describeGroup(n *node) string {
	var keys, aggs []string
	for _, k := range n.keys {
		keys = append(keys, n.in.schema.Field(k).Name)
	}
	for _, a := range n.aggs {
		aggs = append(aggs, a.String()+" as "+a.field.Name)
	}
	return fmt.Sprintf("group by [%s] agg %s", strings.Join(keys, ", "), strings.Join(aggs, ", "))
}
