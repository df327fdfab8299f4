package beam

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/frame"
)

// BenchmarkAggregatePerBatch: the cost per batch (4096 rows of x float64,
// t float32 [2, 3] and the columns of aggOutputs; testAggs: 9 aggregates)
// of
//
//   - addinput: the CombineFn's AddInput on an encoded Batch (IPC decode
//     and Aggregator.Add);
//   - aggregator: frame.Aggregator.Add on the decoded record;
//   - groupby: frame's GroupBy().Agg over the 16 batches, per batch;
//   - coder: encoding and decoding the accumulator (once per bundle).
func BenchmarkAggregatePerBatch(b *testing.B) {
	const rows, nb = 4096, 16
	rng := rand.New(rand.NewPCG(1, 2))
	mem := memory.DefaultAllocator
	var raw []arrow.Record
	for i := 0; i < nb; i++ {
		raw = append(raw, testRecord(b, mem, rng, rows))
	}
	recs := withOutputs(b, raw)
	releaseAll(raw)
	defer releaseAll(recs)
	var batches []Batch
	for _, rec := range recs {
		bt, err := NewBatch(rec)
		if err != nil {
			b.Fatal(err)
		}
		batches = append(batches, bt)
	}
	bytesPerBatch := int64(rows * (8 + 6*4 + 8 + 1))
	fn := &aggregateFn{Aggs: testAggs}
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
	})
	b.Run("aggregator", func(b *testing.B) {
		b.SetBytes(bytesPerBatch)
		b.ReportAllocs()
		a, err := frame.NewAggregator(recs[0].Schema(), testAggs...)
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			if err := a.Add(recs[i%nb]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("groupby", func(b *testing.B) {
		b.SetBytes(bytesPerBatch * nb)
		b.ReportAllocs()
		for b.Loop() {
			t, err := frame.FromRecords(recs...).GroupBy().Agg(testAggs...).Collect(context.Background(), frame.WithWorkers(1))
			if err != nil {
				b.Fatal(err)
			}
			t.Release()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nb), "ns/batch")
	})
	b.Run("coder", func(b *testing.B) {
		acc, err := fn.AddInput(fn.CreateAccumulator(), batches[0])
		if err != nil {
			b.Fatal(err)
		}
		p, err := encodeAggAcc(acc)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(p)))
		b.ReportAllocs()
		for b.Loop() {
			p, err := encodeAggAcc(acc)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := decodeAggAcc(p); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(p)), "acc-bytes")
	})
}
