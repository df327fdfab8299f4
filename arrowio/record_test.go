package arrowio

import (
	"bytes"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arrowtest"
)

// peakAllocator tracks the bytes outstanding and their maximum.
type peakAllocator struct {
	mem      memory.Allocator
	cur, max atomic.Int64
}

func (p *peakAllocator) add(n int) {
	c := p.cur.Add(int64(n))
	for {
		m := p.max.Load()
		if c <= m || p.max.CompareAndSwap(m, c) {
			return
		}
	}
}

func (p *peakAllocator) Allocate(n int) []byte {
	b := p.mem.Allocate(n)
	p.add(len(b))
	return b
}

func (p *peakAllocator) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := p.mem.Reallocate(n, b)
	p.add(len(nb) - old)
	return nb
}

func (p *peakAllocator) Free(b []byte) {
	p.add(-len(b))
	p.mem.Free(b)
}

// genReader makes batches lazily: column "x" is a [rows, 4] float32 tensor
// column (x[r,j] = global row + j), column "y" a float64 column (global row,
// null every 5th). It holds only its current batch.
type genReader struct {
	refs    atomic.Int64
	mem     memory.Allocator
	schema  *arrow.Schema
	batches int
	rows    int
	i       int
	cur     arrow.Record
}

func newGenReader(t testing.TB, mem memory.Allocator, batches, rows int) *genReader {
	tt, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{4}, nil, nil)
	require.NoError(t, err)
	g := &genReader{mem: mem, batches: batches, rows: rows, schema: arrow.NewSchema([]arrow.Field{
		{Name: "x", Type: tt, Nullable: true},
		{Name: "y", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}, nil)}
	g.refs.Store(1)
	return g
}

func (g *genReader) Retain()               { g.refs.Add(1) }
func (g *genReader) Schema() *arrow.Schema { return g.schema }
func (g *genReader) Record() arrow.Record  { return g.cur }
func (g *genReader) Err() error            { return nil }

func (g *genReader) Release() {
	if g.refs.Add(-1) == 0 && g.cur != nil {
		g.cur.Release()
		g.cur = nil
	}
}

func (g *genReader) Next() bool {
	if g.cur != nil {
		g.cur.Release()
		g.cur = nil
	}
	if g.i == g.batches {
		return false
	}
	r0 := g.i * g.rows
	x, _ := array.Empty(g.mem, array.Float32, g.rows, 4)
	xv, _ := array.Values[float32](x)
	y, _ := array.Empty(g.mem, array.Float64, g.rows)
	yv, _ := array.Values[float64](y)
	for r := 0; r < g.rows; r++ {
		for j := 0; j < 4; j++ {
			xv[4*r+j] = float32(r0 + r + j)
		}
		yv[r] = float64(r0 + r)
	}
	for r := 0; r < g.rows; r++ {
		if (r0+r)%5 == 0 {
			_ = y.SetNull(r)
		}
	}
	xc, _ := ToTensorColumn(g.mem, x)
	yc, _ := ToArrow(g.mem, y)
	x.Release()
	y.Release()
	g.cur = arrowarray.NewRecord(g.schema, []arrow.Array{xc, yc}, int64(g.rows))
	xc.Release()
	yc.Release()
	g.i++
	return true
}

// normalizeOutputs: z = (x - mean) * inv_std with mean and inv_std [4]
// broadcast over the rows; hot = z > 1; y2 = y * y.
func normalizeOutputs(t testing.TB, mem memory.Allocator, s *arrow.Schema) ([]Output, func()) {
	x, err := SchemaVar(s, "x")
	require.NoError(t, err)
	y, err := SchemaVar(s, "y")
	require.NoError(t, err)
	mean, err := array.FromSlice(mem, []float32{1, 2, 3, 4})
	require.NoError(t, err)
	inv, err := array.FromSlice(mem, []float32{0.5, 0.25, 2, 1})
	require.NoError(t, err)
	z := expr.Mul(expr.Sub(x, expr.Leaf(mean)), expr.Leaf(inv))
	return []Output{
			{Name: "z", Expr: z, DimNames: []string{"feature"}},
			{Name: "hot", Expr: expr.Greater(z, expr.Scalar(1, array.Float32))},
			{Name: "y2", Expr: expr.Mul(y, y)},
		}, func() {
			mean.Release()
			inv.Release()
		}
}

// TestEvaluate: three outputs over a stream of batches (one empty): values,
// nulls, output schema fixed before the first batch.
func TestEvaluate(t *testing.T) {
	mem := arrowtest.NewMem(t)
	for _, rows := range []int{7, 0} {
		t.Run(fmt.Sprint("rows=", rows), func(t *testing.T) {
			g := newGenReader(t, mem, 3, rows)
			outs, done := normalizeOutputs(t, mem, g.Schema())
			defer done()
			ev, err := Evaluate(mem, g, outs...)
			require.NoError(t, err)
			g.Release() // ev holds its own reference
			defer ev.Release()
			names := []string{}
			for _, f := range ev.Schema().Fields() {
				names = append(names, f.Name)
			}
			assert.Equal(t, []string{"x", "y", "z", "hot", "y2"}, names)
			zt := ev.Schema().Field(2).Type.(*FixedShapeTensorType)
			assert.Equal(t, []int{4}, zt.Shape())
			assert.Equal(t, []string{"feature"}, zt.DimNames())
			assert.True(t, arrow.TypeEqual(arrow.PrimitiveTypes.Float64, ev.Schema().Field(4).Type))
			mean := []float32{1, 2, 3, 4}
			inv := []float32{0.5, 0.25, 2, 1}
			b := 0
			for ev.Next() {
				rec := ev.Record()
				require.Equal(t, int64(rows), rec.NumRows())
				z, err := FromArrow(mem, rec.Column(2))
				require.NoError(t, err)
				hot, err := FromArrow(mem, rec.Column(3))
				require.NoError(t, err)
				y2 := rec.Column(4).(*arrowarray.Float64)
				for r := 0; r < rows; r++ {
					g := b*rows + r
					for j := 0; j < 4; j++ {
						want := (float32(g+j) - mean[j]) * inv[j]
						assert.Equal(t, want, array.At[float32](z, r, j))
						assert.Equal(t, want > 1, array.At[bool](hot, r, j))
					}
					if g%5 == 0 {
						assert.True(t, y2.IsNull(r), "null y gives null y2")
					} else {
						assert.Equal(t, float64(g*g), y2.Value(r))
					}
				}
				z.Release()
				hot.Release()
				b++
			}
			require.NoError(t, ev.Err())
			assert.Equal(t, 3, b)
		})
	}
}

func TestEvaluateErrors(t *testing.T) {
	mem := arrowtest.NewMem(t)
	g := newGenReader(t, mem, 2, 3)
	defer g.Release()
	_, err := Evaluate(mem, nil)
	assert.ErrorIs(t, err, array.ErrNil)
	_, err = SchemaVar(g.Schema(), "nope")
	assert.ErrorIs(t, err, ErrNoColumn)
	_, err = SchemaVar(nil, "x")
	assert.ErrorIs(t, err, array.ErrNil)

	other := expr.Var("nope", array.Float32, broadcast.Shape{Dims: []broadcast.Dim{broadcast.UnknownDim(), broadcast.StaticDim(4)}, RankKnown: true})
	_, err = Evaluate(mem, g, Output{Name: "o", Expr: other})
	assert.ErrorIs(t, err, ErrNoColumn)

	x, err := SchemaVar(g.Schema(), "x")
	require.NoError(t, err)
	_, err = Evaluate(mem, g, Output{Name: "bad", Expr: expr.Add(x, expr.Leaf(nil))})
	assert.Error(t, err)
	_, err = Evaluate(mem, g, Output{Name: "scalar", Expr: expr.Scalar(1, array.Float64)})
	assert.ErrorIs(t, err, array.ErrShape)

	// A result whose axis 0 has a fixed length is not a per-row column: it
	// is refused when planning.
	fixed, err := array.New(mem, array.Float32, 2, 4)
	require.NoError(t, err)
	defer fixed.Release()
	_, err = Evaluate(mem, g, Output{Name: "fixed", Expr: expr.Leaf(fixed)})
	assert.ErrorIs(t, err, array.ErrShape)
}

// TestEvaluateStreamingBounded: thousands of batches through Evaluate, and
// through an IPC stream written and read back, hold no more memory than a
// few batches: the peak of bytes outstanding in the allocator is the same
// for 50 batches and for 3000.
func TestEvaluateStreamingBounded(t *testing.T) {
	const rows = 512
	batchBytes := int64(rows * (4*4 + 8 + 4*4 + 4 + 8)) // inputs and outputs of one batch
	peak := func(batches int, viaIPC bool) int64 {
		checked := arrowtest.NewMem(t)
		mem := &peakAllocator{mem: checked}
		g := newGenReader(t, mem, batches, rows)
		outs, done := normalizeOutputs(t, mem, g.Schema())
		defer done()
		var src arrowarray.RecordReader = g
		if viaIPC {
			// Write the generated stream to IPC bytes, then read it back
			// (the bytes themselves are Go memory, not counted).
			var buf bytes.Buffer
			n, err := WriteStream(&buf, g)
			require.NoError(t, err)
			require.Equal(t, batches, n)
			g.Release()
			mem.max.Store(mem.cur.Load())
			rs, err := ReadStream(&buf, WithAllocator(mem))
			require.NoError(t, err)
			src = rs
		}
		ev, err := Evaluate(mem, src, outs...)
		require.NoError(t, err)
		src.Release()
		n := 0
		for ev.Next() {
			n++
		}
		require.NoError(t, ev.Err())
		require.Equal(t, batches, n)
		ev.Release()
		return mem.max.Load()
	}
	for _, viaIPC := range []bool{false, true} {
		small, large := peak(50, viaIPC), peak(3000, viaIPC)
		t.Logf("ipc=%v: peak %d bytes over 50 batches, %d over 3000 (one batch: %d)", viaIPC, small, large, batchBytes)
		assert.LessOrEqual(t, large, small+batchBytes, "memory grows with the stream")
		assert.Less(t, large, 8*batchBytes, "more than a few batches held")
	}
}
