package frame

import (
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// JoinHow is the kind of a Join.
type JoinHow uint8

// The joins. Null keys match nothing, as in SQL.
const (
	Inner JoinHow = iota // the pairs of rows whose keys are equal
	Left                 // Inner, plus each left row without a match, with nulls on the right
	Semi                 // the left rows that have a match (each once), left columns only
	Anti                 // the left rows that have no match, left columns only
)

func (h JoinHow) String() string {
	switch h {
	case Inner:
		return "inner"
	case Left:
		return "left"
	case Semi:
		return "semi"
	case Anti:
		return "anti"
	}
	return fmt.Sprintf("JoinHow(%d)", uint8(h))
}

// joinPlan is a Join resolved against both schemas.
type joinPlan struct {
	right     *node
	how       JoinHow
	lk, rk    []int // key columns of each side
	rightCols []int // right columns in the output (Inner, Left)
}

// Join joins f (the left side, streamed) with right (the build side, held
// in memory as a hash table of its keys) on the columns named on, which
// both sides have, of the same types. The output has f's columns, then
// (Inner and Left) right's other columns; a right column whose name f has
// too is suffixed "_right". Rows come in f's order, and a left row's
// matches in right's order.
func (f Frame) Join(right Frame, how JoinHow, on ...string) Frame {
	return f.JoinOn(right, how, on, on)
}

// JoinOn is Join with the key columns named per side: leftOn[i] of f
// matches rightOn[i] of right.
func (f Frame) JoinOn(right Frame, how JoinHow, leftOn, rightOn []string) Frame {
	return f.then(func(in *node) (*node, error) {
		rn := right.node()
		if rn.err != nil {
			return nil, fmt.Errorf("frame.Join: the right side: %w", rn.err)
		}
		if how > Anti {
			return nil, fmt.Errorf("frame.Join: %w: %v", ErrArgument, how)
		}
		if len(leftOn) == 0 || len(leftOn) != len(rightOn) {
			return nil, fmt.Errorf("frame.Join: %w: %d left keys and %d right keys", ErrArgument, len(leftOn), len(rightOn))
		}
		p := &joinPlan{right: rn, how: how}
		isKey := map[int]bool{}
		for k := range leftOn {
			li, err := columnIndex(in.schema, "frame.Join (left)", leftOn[k])
			if err != nil {
				return nil, err
			}
			ri, err := columnIndex(rn.schema, "frame.Join (right)", rightOn[k])
			if err != nil {
				return nil, err
			}
			lt, rt := in.schema.Field(li).Type, rn.schema.Field(ri).Type
			lkind, err := keyable(lt)
			if err != nil {
				return nil, fmt.Errorf("frame.Join on %q: %w", leftOn[k], err)
			}
			rkind, err := keyable(rt)
			if err != nil {
				return nil, fmt.Errorf("frame.Join on %q: %w", rightOn[k], err)
			}
			strs := (lkind == keyStr || lkind == keyDict) && (rkind == keyStr || rkind == keyDict)
			if !strs && !arrow.TypeEqual(lt, rt) {
				return nil, fmt.Errorf("frame.Join on %q = %q: %w: the left column is %s, the right %s (cast one side first)", leftOn[k], rightOn[k], ErrType, typeName(lt), typeName(rt))
			}
			p.lk, p.rk = append(p.lk, li), append(p.rk, ri)
			isKey[ri] = true
		}
		fields := append([]arrow.Field(nil), in.schema.Fields()...)
		if how == Inner || how == Left {
			for i, fd := range rn.schema.Fields() {
				if isKey[i] {
					continue
				}
				if len(in.schema.FieldIndices(fd.Name)) > 0 {
					fd.Name += "_right"
				}
				fd.Nullable = true
				fields = append(fields, fd)
				p.rightCols = append(p.rightCols, i)
			}
		}
		names := make([]string, len(fields))
		for i, fd := range fields {
			names[i] = fd.Name
		}
		if err := unique("frame.Join", names); err != nil {
			return nil, err
		}
		md := in.schema.Metadata()
		return &node{kind: stepJoin, schema: arrow.NewSchema(fields, &md), join: p}, nil
	})
}

func describeJoin(n *node) string {
	var on []string
	for k := range n.join.lk {
		on = append(on, n.in.schema.Field(n.join.lk[k]).Name+" = "+n.join.right.schema.Field(n.join.rk[k]).Name)
	}
	return fmt.Sprintf("%s join on %s with (%s)", n.join.how, strings.Join(on, ", "), strings.TrimSpace(strings.ReplaceAll(Frame{n.join.right}.Explain(), "\n", "; ")))
}

// joinTable is the built right side: its rows and a hash table from key
// to row numbers.
type joinTable struct {
	n     *node
	right arrow.Record // the right side's output columns
	index map[string][]int64
}

// buildJoin reads the right side of n and indexes its keys.
func (r *runner) buildJoin(n *node) (*joinTable, error) {
	p := n.join
	rb, err := r.stream(p.right)
	if err != nil {
		return nil, err
	}
	defer rb.close()
	all, err := readAll(r, rb, p.right.schema)
	if err != nil {
		return nil, fmt.Errorf("frame.Join: reading the right side: %w", err)
	}
	defer all.Release()
	t := &joinTable{n: n, index: map[string][]int64{}}
	var key []byte
	for i := 0; i < int(all.NumRows()); i++ {
		var ok bool
		if key, ok = joinKey(key[:0], all, p.rk, i); ok {
			t.index[string(key)] = append(t.index[string(key)], int64(i))
		}
	}
	cols := make([]arrow.Array, len(p.rightCols))
	fields := make([]arrow.Field, len(p.rightCols))
	for k, i := range p.rightCols {
		cols[k] = all.Column(i)
		fields[k] = all.Schema().Field(i)
	}
	t.right = arrowarray.NewRecord(arrow.NewSchema(fields, nil), cols, all.NumRows())
	return t, nil
}

// joinKey encodes the key of row i; false if a key column is null.
func joinKey(key []byte, rec arrow.Record, cols []int, i int) ([]byte, bool) {
	for _, c := range cols {
		col := rec.Column(c)
		if col.IsNull(i) {
			return key, false
		}
		key = appendKey(key, col, i)
	}
	return key, true
}

func (t *joinTable) release() {
	if t.right != nil {
		t.right.Release()
		t.right = nil
	}
}

// probe joins one left batch.
func (t *joinTable) probe(w *worker, rec arrow.Record) (arrow.Record, error) {
	p := t.n.join
	var li, ri []int64
	var key []byte
	for i := 0; i < int(rec.NumRows()); i++ {
		var ok bool
		key, ok = joinKey(key[:0], rec, p.lk, i)
		var m []int64
		if ok {
			m = t.index[string(key)]
		}
		switch p.how {
		case Inner, Left:
			for _, j := range m {
				li, ri = append(li, int64(i)), append(ri, j)
			}
			if len(m) == 0 && p.how == Left {
				li, ri = append(li, int64(i)), append(ri, -1)
			}
		case Semi:
			if len(m) > 0 {
				li = append(li, int64(i))
			}
		case Anti:
			if len(m) == 0 {
				li = append(li, int64(i))
			}
		}
	}
	left, err := takeRows(contextOf(w), w.mem, rec, li)
	if err != nil {
		return nil, fmt.Errorf("frame.Join: %w", err)
	}
	defer left.Release()
	cols := append([]arrow.Array(nil), left.Columns()...)
	if p.how == Inner || p.how == Left {
		right, err := takeRows(contextOf(w), w.mem, t.right, ri)
		if err != nil {
			return nil, fmt.Errorf("frame.Join: %w", err)
		}
		defer right.Release()
		cols = append(cols, right.Columns()...)
	}
	return arrowarray.NewRecord(t.n.schema, cols, int64(len(li))), nil
}
