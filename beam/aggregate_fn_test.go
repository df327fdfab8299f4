package beam

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
)

// recodeAcc passes a through its Beam coder.
func recodeAcc(t testing.TB, a aggAcc) aggAcc {
	t.Helper()
	p, err := encodeAggAcc(a)
	if err != nil {
		t.Fatal(err)
	}
	b, err := decodeAggAcc(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// checkOutput asserts that out is one row whose columns, named after
// testAggs, hold want (relative 1e-10), tensors as
// fixed_shape_tensor columns of the results' shapes.
func checkOutput(t testing.TB, out Batch, want [][]float64, shapes [][]int) {
	t.Helper()
	rec, err := out.Record(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Release()
	if rec.NumRows() != 1 || int(rec.NumCols()) != len(aggNames) {
		t.Fatalf("output of %d rows, %d columns", rec.NumRows(), rec.NumCols())
	}
	for i, name := range aggNames {
		f := rec.Schema().Field(i)
		if f.Name != name {
			t.Fatalf("column %d named %q, want %q", i, f.Name, name)
		}
		_, row, err := arrowio.ColumnShape(f.Type)
		if err != nil {
			t.Fatal(err)
		}
		if len(row) != len(shapes[i]) || (len(row) > 0 && f.Type.ID() != arrow.EXTENSION) {
			t.Fatalf("%s: column type %v (row shape %v), want a result of shape %v", name, f.Type, row, shapes[i])
		}
		got := colValues(t, rec.Column(i))
		if len(got) != len(want[i]) {
			t.Fatalf("%s: %d values, want %d", name, len(got), len(want[i]))
		}
		for k := range got {
			if d := math.Abs(got[k] - want[i][k]); d > 1e-10*math.Abs(want[i][k]) {
				t.Fatalf("%s[%d] = %v, want %v", name, k, got[k], want[i][k])
			}
		}
	}
}

// TestAggregateFnSplits: the CombineFn's methods called directly, with a
// checked allocator: batches (one of no rows) spread at random over up to
// 6 accumulators, each added in random order, accumulators passed through
// the coder at random between steps, merged in random order with fresh
// accumulators on either side, give frame's GroupBy().Agg over all the
// batches; nothing is left allocated.
func TestAggregateFnSplits(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 31, 3, 5, 30)
	recs := fileRecords(t, names)
	defer releaseAll(recs)
	empty := testRecord(t, memory.DefaultAllocator, nil, 0)
	defer empty.Release()
	want, shapes := inProcess(t, recs, testAggs)
	ev := withOutputs(t, append(recs, empty))
	defer releaseAll(ev)
	var batches []Batch
	for _, r := range ev {
		b, err := NewBatch(r)
		if err != nil {
			t.Fatal(err)
		}
		batches = append(batches, b)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for trial := 0; trial < 12; trial++ {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		fn := &aggregateFn{Aggs: testAggs, mem: mem}
		accs := make([]aggAcc, 1+rng.IntN(6))
		for i := range accs {
			accs[i] = fn.CreateAccumulator()
		}
		for _, k := range rng.Perm(len(batches)) {
			i := rng.IntN(len(accs))
			if rng.IntN(4) == 0 {
				accs[i] = recodeAcc(t, accs[i])
			}
			var err error
			if accs[i], err = fn.AddInput(accs[i], batches[k]); err != nil {
				t.Fatal(err)
			}
		}
		accs = append(accs, fn.CreateAccumulator())
		for len(accs) > 1 {
			i, j := rng.IntN(len(accs)), rng.IntN(len(accs)-1)
			if j >= i {
				j++
			}
			if rng.IntN(3) == 0 {
				accs[j] = recodeAcc(t, accs[j])
			}
			m, err := fn.MergeAccumulators(accs[i], accs[j])
			if err != nil {
				t.Fatal(err)
			}
			accs[i] = m
			accs = append(accs[:j], accs[j+1:]...)
		}
		if rng.IntN(2) == 0 {
			accs[0] = recodeAcc(t, accs[0])
		}
		out, err := fn.ExtractOutput(accs[0])
		if err != nil {
			t.Fatal(err)
		}
		checkOutput(t, out, want, shapes)
		mem.AssertSize(t, 0)
	}
}

// TestAggregateFnErrors: a fresh accumulator has no output (ErrAggregate);
// accumulators of other aggregates do not merge (frame.ErrMismatch); every
// truncation and byte flip of an encoded accumulator decodes to an error
// or to a valid accumulator, never a panic.
func TestAggregateFnErrors(t *testing.T) {
	dir := t.TempDir()
	names := writeTestFiles(t, dir, 2, 1, 3, 10)
	recs := fileRecords(t, names)
	defer releaseAll(recs)
	ev := withOutputs(t, recs)
	defer releaseAll(ev)
	b, err := NewBatch(ev[0])
	if err != nil {
		t.Fatal(err)
	}
	fn := &aggregateFn{Aggs: testAggs}
	if _, err := fn.ExtractOutput(fn.CreateAccumulator()); !errors.Is(err, ErrAggregate) {
		t.Fatalf("output of a fresh accumulator: err = %v, want ErrAggregate", err)
	}
	a, err := fn.AddInput(fn.CreateAccumulator(), b)
	if err != nil {
		t.Fatal(err)
	}
	other := &aggregateFn{Aggs: testAggs[:2]}
	o, err := other.AddInput(other.CreateAccumulator(), b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fn.MergeAccumulators(a, o); !errors.Is(err, frame.ErrMismatch) {
		t.Fatalf("merge of other aggregates: err = %v, want ErrMismatch", err)
	}
	if _, err := fn.AddInput(a, Batch{IPC: []byte("junk")}); !errors.Is(err, ErrBatch) {
		t.Fatalf("junk batch: err = %v, want ErrBatch", err)
	}
	p, err := encodeAggAcc(a)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := encodeAggAcc(aggAcc{})
	if err != nil {
		t.Fatal(err)
	}
	if d, err := decodeAggAcc(fresh); err != nil || d.a != nil {
		t.Fatalf("fresh accumulator decodes to %v, %v", d, err)
	}
	try := func(q []byte) {
		d, err := decodeAggAcc(q)
		if err != nil {
			if !errors.Is(err, ErrAggregate) {
				t.Fatalf("decode error %v does not wrap ErrAggregate", err)
			}
			return
		}
		if d.a != nil {
			_, _ = fn.ExtractOutput(d) // may fail, never panic
		}
	}
	for n := 0; n < len(p); n++ {
		try(p[:n])
	}
	for k := range p {
		for _, x := range []byte{1, 0x80} {
			q := append([]byte(nil), p...)
			q[k] ^= x
			try(q)
		}
	}
}
