package frame

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
)

// Frame is a lazy query: a source and the verbs applied to it, run by a
// sink (Collect, Reader). A Frame is immutable: each verb returns a new one,
// so a Frame may be the start of several queries, and may be run more than
// once where its source can be read again. The zero Frame is empty (no
// columns, no rows); a Frame from a failed verb carries that error to its
// sinks.
type Frame struct {
	n *node
}

// stepKind names what a plan node does.
type stepKind uint8

const (
	stepSource  stepKind = iota // read a source
	stepProject                 // keep, reorder and rename columns (Select, Drop, Rename)
	stepCompute                 // add or replace computed columns (WithColumns)
	stepFilter                  // keep the rows where a predicate holds
	stepLimit                   // the first n rows
	stepGroup                   // one row per group (GroupBy.Agg)
	stepSort                    // order the rows (Sort, TopK: limit >= 0)
	stepJoin                    // a hash join (Join)
	stepConcat                  // one frame after another (Concat)
	stepHead                    // the first rows of each group (GroupBy.Head)
)

// node is one step of a plan. Its schema is what the step outputs.
type node struct {
	kind   stepKind
	in     *node
	schema *arrow.Schema
	err    error

	src      source     // stepSource
	pick     []int      // stepProject: input column of each output column
	defs     []binding  // stepCompute: the computed columns
	whole    bool       // stepCompute: some expression reduces over the rows
	pred     *binding   // stepFilter
	tree     *pred      // stepFilter: pred split at its connectives
	limit    int64      // stepLimit
	keys     []int      // stepGroup: key columns of the input
	aggs     []*aggPlan // stepGroup
	cast     *castPlan  // stepCompute: an AsTensor cast instead of defs
	sortKeys []SortKey  // stepSort
	join     *joinPlan  // stepJoin
	parts    []*node    // stepConcat
}

var emptySchema = arrow.NewSchema(nil, nil)

func (f Frame) node() *node {
	if f.n == nil {
		return &node{kind: stepSource, schema: emptySchema, src: recordSource{schema: emptySchema}}
	}
	return f.n
}

// failed returns a Frame that carries err.
func failed(err error) Frame { return Frame{&node{err: err, schema: emptySchema}} }

// Err returns the error of the first verb that failed (nil if none): the
// error every sink of f would return before reading anything.
func (f Frame) Err() error {
	if f.n == nil {
		return nil
	}
	return f.n.err
}

// Schema returns the schema of the rows f yields (an empty schema if f
// carries an error).
func (f Frame) Schema() *arrow.Schema { return f.node().schema }

// Columns returns the names of f's columns, in order.
func (f Frame) Columns() []string { return fieldNames(f.Schema()) }

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for i, fd := range s.Fields() {
		names[i] = fd.Name
	}
	return names
}

// then appends a step to f, unless f carries an error.
func (f Frame) then(build func(in *node) (*node, error)) Frame {
	in := f.node()
	if in.err != nil {
		return f
	}
	n, err := build(in)
	if err != nil {
		return failed(err)
	}
	n.in = in
	return Frame{n}
}

// Select keeps the named columns, in the order given. Naming a column
// twice, or one that f lacks, is an error (ErrNoColumn names it, lists the
// columns and suggests the nearest).
func (f Frame) Select(names ...string) Frame {
	return f.then(func(in *node) (*node, error) {
		pick := make([]int, len(names))
		seen := map[string]bool{}
		for k, name := range names {
			i, err := columnIndex(in.schema, "frame.Select", name)
			if err != nil {
				return nil, err
			}
			if seen[name] {
				return nil, fmt.Errorf("frame.Select: %w: column %q named twice", ErrDuplicate, name)
			}
			seen[name] = true
			pick[k] = i
		}
		return project(in.schema, pick, nil), nil
	})
}

// Drop removes the named columns. Naming a column that f lacks is an error.
func (f Frame) Drop(names ...string) Frame {
	return f.then(func(in *node) (*node, error) {
		gone := map[int]bool{}
		for _, name := range names {
			i, err := columnIndex(in.schema, "frame.Drop", name)
			if err != nil {
				return nil, err
			}
			gone[i] = true
		}
		var pick []int
		for i := range in.schema.Fields() {
			if !gone[i] {
				pick = append(pick, i)
			}
		}
		return project(in.schema, pick, nil), nil
	})
}

// Rename renames columns: old name to new name. Every old name must be a
// column of f, and the result must not have two columns of one name.
func (f Frame) Rename(oldToNew map[string]string) Frame {
	return f.then(func(in *node) (*node, error) {
		names := fieldNames(in.schema)
		for old, nw := range oldToNew {
			i, err := columnIndex(in.schema, "frame.Rename", old)
			if err != nil {
				return nil, err
			}
			if nw == "" {
				return nil, fmt.Errorf("frame.Rename %q: %w: the new name is empty", old, ErrArgument)
			}
			names[i] = nw
		}
		if err := unique("frame.Rename", names); err != nil {
			return nil, err
		}
		pick := make([]int, len(names))
		for i := range pick {
			pick[i] = i
		}
		return project(in.schema, pick, names), nil
	})
}

// Limit keeps the first n rows (in the source's order). n must not be
// negative.
func (f Frame) Limit(n int64) Frame {
	return f.then(func(in *node) (*node, error) {
		if n < 0 {
			return nil, fmt.Errorf("frame.Limit: %w: %d rows", ErrArgument, n)
		}
		return &node{kind: stepLimit, schema: in.schema, limit: n}, nil
	})
}

// project is the node that outputs columns pick of s, renamed to names
// (nil: keep the names). Metadata of the schema and the fields is kept.
func project(s *arrow.Schema, pick []int, names []string) *node {
	fields := make([]arrow.Field, len(pick))
	for k, i := range pick {
		fields[k] = s.Field(i)
		if names != nil {
			fields[k].Name = names[k]
		}
	}
	md := s.Metadata()
	return &node{kind: stepProject, schema: arrow.NewSchema(fields, &md), pick: pick}
}

// columnIndex returns the index of the column name of s, or ErrNoColumn.
// A schema with two columns of that name is ambiguous: an error too.
func columnIndex(s *arrow.Schema, where, name string) (int, error) {
	idx := s.FieldIndices(name)
	switch len(idx) {
	case 0:
		return 0, noColumn(where, name, fieldNames(s))
	case 1:
		return idx[0], nil
	}
	return 0, fmt.Errorf("%s: %w: %d columns are named %q", where, ErrDuplicate, len(idx), name)
}

func unique(where string, names []string) error {
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] {
			return fmt.Errorf("%s: %w: two columns would be named %q", where, ErrDuplicate, n)
		}
		seen[n] = true
	}
	return nil
}

// Explain describes f's plan, one step a line, from the source down.
func (f Frame) Explain() string {
	var steps []string
	for n := f.node(); n != nil; n = n.in {
		steps = append(steps, n.describe())
	}
	var b strings.Builder
	for i := len(steps) - 1; i >= 0; i-- {
		b.WriteString(strings.Repeat("  ", len(steps)-1-i))
		b.WriteString(steps[i])
		b.WriteByte('\n')
	}
	return b.String()
}

func (n *node) describe() string {
	if n.err != nil {
		return "error: " + n.err.Error()
	}
	switch n.kind {
	case stepSource:
		return fmt.Sprintf("source %s: %s", n.src.describe(), schemaLine(n.schema))
	case stepProject:
		return "project " + schemaLine(n.schema)
	case stepCompute:
		if n.cast != nil {
			return fmt.Sprintf("as tensor %s: %s", n.schema.Field(n.cast.col).Name, typeName(n.cast.to))
		}
		var parts []string
		for _, d := range n.defs {
			parts = append(parts, d.name+" = "+d.text())
		}
		w := ""
		if n.whole {
			w = " (over whole columns)"
		}
		return "with " + strings.Join(parts, ", ") + w
	case stepFilter:
		return "filter " + n.pred.text()
	case stepLimit:
		return fmt.Sprintf("limit %d", n.limit)
	case stepGroup:
		return describeGroup(n)
	case stepSort:
		return describeSort(n)
	case stepJoin:
		return describeJoin(n)
	case stepConcat:
		return fmt.Sprintf("concat of %d frames", len(n.parts))
	case stepHead:
		return describeHead(n)
	}
	return "?"
}

func schemaLine(s *arrow.Schema) string {
	parts := make([]string, s.NumFields())
	for i, fd := range s.Fields() {
		parts[i] = fd.Name + ": " + typeName(fd.Type)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
