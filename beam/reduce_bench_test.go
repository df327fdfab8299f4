package beam

import (
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/arrowio"
)

// BenchmarkReducePerBatch: the cost per batch (4096 rows of x float64 and
// t float32 [2, 3]; testReductions: 9 reductions over 4 expressions) of
//
//   - addinput: the CombineFn's AddInput on an encoded Batch (IPC decode
//     and Reducer.Add);
//   - reducer: arrowio.Reducer.Add on the decoded record, the per-batch
//     work of arrowio.Reduce;
//   - reduce: arrowio.Reduce over the 16 batches, per batch;
//   - coder: encoding and decoding the accumulator (once per bundle).
func BenchmarkReducePerBatch(b *testing.B) {
	const rows, nb = 4096, 16
	rng := rand.New(rand.NewPCG(1, 2))
	mem := memory.DefaultAllocator
	var recs []arrow.Record
	var batches []Batch
	for i := 0; i < nb; i++ {
		rec := testRecord(b, mem, rng, rows)
		recs = append(recs, rec)
		bt, err := NewBatch(rec)
		if err != nil {
			b.Fatal(err)
		}
		batches = append(batches, bt)
	}
	defer releaseAll(recs)
	bytesPerBatch := int64(rows * (8 + 6*4))
	fn := &reduceFn{Reductions: testReductions}
	b.Run("addinput", func(b *testing.B) {
		b.SetBytes(bytesPerBatch)
		b.ReportAllocs()
		acc := fn.CreateAccumulator()
		i := 0
		for b.Loop() {
			var err error
			if acc, err = fn.AddInput(acc, batches[i%nb]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		releaseAcc(acc)
	})
	b.Run("reducer", func(b *testing.B) {
		b.SetBytes(bytesPerBatch)
		b.ReportAllocs()
		r, err := newReducer(mem, recs[0].Schema(), testReductions)
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			if err := r.Add(recs[i%nb]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		r.Release()
	})
	b.Run("reduce", func(b *testing.B) {
		b.SetBytes(bytesPerBatch * nb)
		b.ReportAllocs()
		rs, err := parseReductions(recs[0].Schema(), testReductions)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			rr, _ := arrowarray.NewRecordReader(recs[0].Schema(), recs)
			res, err := arrowio.Reduce(mem, rr, rs...)
			if err != nil {
				b.Fatal(err)
			}
			for _, a := range res {
				a.Release()
			}
			rr.Release()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nb), "ns/batch")
	})
	b.Run("coder", func(b *testing.B) {
		acc, err := fn.AddInput(fn.CreateAccumulator(), batches[0])
		if err != nil {
			b.Fatal(err)
		}
		p, err := encodeReduceAcc(acc)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(p)))
		b.ReportAllocs()
		for b.Loop() {
			p, err := encodeReduceAcc(acc)
			if err != nil {
				b.Fatal(err)
			}
			d, err := decodeReduceAcc(p)
			if err != nil {
				b.Fatal(err)
			}
			releaseAcc(d)
		}
		b.ReportMetric(float64(len(p)), "acc-bytes")
		releaseAcc(acc)
	})
}
