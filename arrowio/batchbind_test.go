package arrowio

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arrowtest"
)

// listReader yields given batches under a schema of its own, whatever
// the batches' schemas say (arrow-go's NewRecordReader refuses that).
type listReader struct {
	schema *arrow.Schema
	recs   []arrow.Record
	i      int
}

func (l *listReader) Retain()               {}
func (l *listReader) Release()              {}
func (l *listReader) Schema() *arrow.Schema { return l.schema }
func (l *listReader) Err() error            { return nil }
func (l *listReader) Next() bool            { l.i++; return l.i <= len(l.recs) }
func (l *listReader) Record() arrow.Record {
	if l.i < 1 || l.i > len(l.recs) {
		return nil
	}
	return l.recs[l.i-1]
}

// bindFixture is a stream of schema (a, b) float64 whose batches are
// given as (name, values) column lists.
func bindBatch(t *testing.T, mem memory.Allocator, cols ...any) arrow.Record {
	var fields []arrow.Field
	var arrs []arrow.Array
	for i := 0; i < len(cols); i += 2 {
		var a arrow.Array
		switch v := cols[i+1].(type) {
		case []float64:
			b := arrowarray.NewFloat64Builder(mem)
			b.AppendValues(v, nil)
			a = b.NewArray()
			b.Release()
		case []int32:
			b := arrowarray.NewInt32Builder(mem)
			b.AppendValues(v, nil)
			a = b.NewArray()
			b.Release()
		}
		fields = append(fields, arrow.Field{Name: cols[i].(string), Type: a.DataType(), Nullable: true})
		arrs = append(arrs, a)
	}
	rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(arrs[0].Len()))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// Issue 17 item 3: a batch whose columns come in another order than the
// schema's binds by name; one whose column changed type, lacks a column
// or has one more is refused with an error naming the column, never a
// panic, and nothing leaks.
func TestEvaluateBindsByName(t *testing.T) {
	mem := arrowtest.NewMem(t)
	first := bindBatch(t, mem, "a", []float64{10, 20}, "b", []float64{1, 2})
	defer first.Release()
	swapped := bindBatch(t, mem, "b", []float64{3, 4}, "a", []float64{30, 40})
	defer swapped.Release()
	schema := first.Schema()
	a, err := SchemaVar(schema, "a")
	require.NoError(t, err)
	b, err := SchemaVar(schema, "b")
	require.NoError(t, err)

	out, err := Evaluate(mem, &listReader{schema: schema, recs: []arrow.Record{first, swapped}}, Output{Name: "d", Expr: expr.Sub(a, b)})
	require.NoError(t, err)
	var got [][]float64
	for out.Next() {
		rec := out.Record()
		require.Equal(t, "a", rec.ColumnName(0), "pass-through columns in the schema's order")
		av, _ := arrowtest.ArrowValues(t, rec.Column(0))
		d, _ := arrowtest.ArrowValues(t, rec.Column(2))
		got = append(got, av, d)
	}
	require.NoError(t, out.Err())
	out.Release()
	assert.Equal(t, [][]float64{{10, 20}, {9, 18}, {30, 40}, {27, 36}}, got)

	bad := map[string]struct {
		rec  arrow.Record
		want []string
		is   error
	}{
		"type changed":   {bindBatch(t, mem, "a", []float64{1}, "b", []int32{1}), []string{`"b"`, "int32", "float64"}, ErrInvalid},
		"pass-through":   {bindBatch(t, mem, "a", []float64{1}, "b", []float64{1}, "c", []int32{1}), []string{`"c"`}, ErrInvalid},
		"missing column": {bindBatch(t, mem, "a", []float64{1}, "bb", []float64{1}), []string{`no such column "b"`, `the columns are "a", "bb"`}, ErrNoColumn},
		"duplicate":      {bindBatch(t, mem, "b", []float64{1}, "a", []float64{1}, "a", []float64{1}), []string{`"a"`}, ErrInvalid},
	}
	for name, c := range bad {
		for _, op := range []string{"Evaluate", "Reduce"} {
			rr := &listReader{schema: schema, recs: []arrow.Record{first, c.rec}}
			if op == "Evaluate" {
				out, err := Evaluate(mem, rr, Output{Name: "d", Expr: expr.Sub(a, b)})
				require.NoError(t, err)
				assert.True(t, out.Next(), name)
				assert.False(t, out.Next(), name)
				err = out.Err()
				out.Release()
				require.ErrorIs(t, err, c.is, name)
				for _, w := range c.want {
					assert.ErrorContains(t, err, w, name)
				}
				continue
			}
			res, err := Reduce(mem, rr, Reduction{Name: "s", Expr: expr.Sub(a, b), Op: Sum})
			assert.Nil(t, res)
			require.ErrorIs(t, err, c.is, name)
			for _, w := range c.want {
				assert.ErrorContains(t, err, w, name)
			}
		}
		c.rec.Release()
	}

	// Reduce over the swapped stream gives the sum of a - b.
	res, err := Reduce(mem, &listReader{schema: schema, recs: []arrow.Record{first, swapped}}, Reduction{Name: "s", Expr: expr.Sub(a, b), Op: Sum})
	require.NoError(t, err)
	v, _ := arrowtest.Elems(t, res[0])
	assert.Equal(t, []float64{9 + 18 + 27 + 36}, v)
	res[0].Release()
}
