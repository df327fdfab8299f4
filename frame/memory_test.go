package frame_test

import (
	"context"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
)

// peakAllocator is a checked allocator that remembers the most bytes it
// held at once.
type peakAllocator struct {
	*memory.CheckedAllocator
	mu        sync.Mutex
	now, peak int64
}

func (p *peakAllocator) Allocate(n int) []byte {
	p.add(int64(n))
	return p.CheckedAllocator.Allocate(n)
}

func (p *peakAllocator) Reallocate(n int, b []byte) []byte {
	p.add(int64(n - len(b)))
	return p.CheckedAllocator.Reallocate(n, b)
}

func (p *peakAllocator) Free(b []byte) {
	p.add(-int64(len(b)))
	p.CheckedAllocator.Free(b)
}

func (p *peakAllocator) add(n int64) {
	p.mu.Lock()
	p.now += n
	p.peak = max(p.peak, p.now)
	p.mu.Unlock()
}

// genReader makes batches of rows (key int64 in [0, groups), v float64)
// as they are read: the input is never held whole.
type genReader struct {
	mem         memory.Allocator
	schema      *arrow.Schema
	rows, batch int
	groups      int64
	at          int
	cur         arrow.Record
	refs        int64
}

func (g *genReader) Retain()               { g.refs++ }
func (g *genReader) Release()              { g.refs--; g.drop() }
func (g *genReader) Schema() *arrow.Schema { return g.schema }
func (g *genReader) Record() arrow.Record  { return g.cur }
func (g *genReader) Err() error            { return nil }
func (g *genReader) drop() {
	if g.cur != nil {
		g.cur.Release()
		g.cur = nil
	}
}

func (g *genReader) Next() bool {
	g.drop()
	if g.at >= g.rows {
		return false
	}
	n := min(g.batch, g.rows-g.at)
	b := arrowarray.NewRecordBuilder(g.mem, g.schema)
	defer b.Release()
	kb, vb := b.Field(0).(*arrowarray.Int64Builder), b.Field(1).(*arrowarray.Float64Builder)
	kb.Reserve(n)
	vb.Reserve(n)
	for i := g.at; i < g.at+n; i++ {
		kb.UnsafeAppend(int64(i*7919) % g.groups)
		vb.UnsafeAppend(float64(i % 1000))
	}
	g.cur = b.NewRecord()
	g.at += n
	return true
}

// TestGroupByMemory: a group-by over a stream holds its hash table and a
// few batches, not its input. Rows: STRIDE0_GROUPBY_ROWS (default 10^6;
// the closing note of issue 18 quotes 10^7).
func TestGroupByMemory(t *testing.T) {
	rows := 1_000_000
	if v, err := strconv.Atoi(os.Getenv("STRIDE0_GROUPBY_ROWS")); err == nil && v > 0 {
		rows = v
	}
	const batch, groups, workers = 65536, 100, 2
	mem := &peakAllocator{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
	defer mem.AssertSize(t, 0)
	s := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Float64}}, nil)
	g := &genReader{mem: mem, schema: s, rows: rows, batch: batch, groups: groups, refs: 1}
	tb, err := frame.FromReader(g).GroupBy("k").Agg(frame.Sum("v"), frame.Count()).Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
	require.NoError(t, err)
	defer tb.Release()
	require.Equal(t, int64(groups), tb.NumRows())
	var n int64
	for _, c := range values[int64](t, tb, "count") {
		n += c
	}
	assert.Equal(t, int64(rows), n)
	batchBytes := int64(batch) * 16
	input := int64(rows) * 16
	t.Logf("rows %d: peak %d bytes of Arrow buffers (%.1f batches of %d bytes; the input is %d bytes)", rows, mem.peak, float64(mem.peak)/float64(batchBytes), batchBytes, input)
	// one batch per worker, the one the source is reading, the generator's
	// next, and the hash table and results (well under 1 MiB here)
	assert.Less(t, mem.peak, int64(workers+2)*batchBytes+1<<20, "a group-by held more than its batches")
}
