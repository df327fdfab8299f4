package frame_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/frame"
)

// FuzzQuery builds a query from the fuzzer's bytes (verbs, column names,
// expression texts, aggregates, join kinds; valid and invalid) over a small
// table and runs it: it must return rows or an error, never panic, and
// leak nothing.
func FuzzQuery(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, "y > 0")
	f.Add([]byte{4, 0, 5, 1, 6, 2}, "(x - mean(x, axis=0)) / std(x, axis=0)")
	f.Add([]byte{7, 3, 8, 2, 9, 1}, `site == "site03" | is_null(y)`)
	f.Add([]byte{10, 11, 12, 13, 14, 15}, "key * 2 + w")
	f.Add([]byte{255, 128, 64, 32}, `ts >= "2023-11-14 22:13:30" & ~(key > 3)`)
	f.Add([]byte{3, 3, 3, 3, 3}, "sum(x, axis=(1, 2)) > mean(y)")
	f.Add([]byte{9, 9, 9}, `"lit" <= site`)
	names := []string{"key", "y", "x", "w", "site", "ts", "nope", "", "y_right", "count"}
	f.Fuzz(func(t *testing.T, ops []byte, src string) {
		if len(ops) > 64 || len(src) > 512 {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		d := makeData(rand.New(rand.NewPCG(61, 62)), 40)
		recs := d.records(t, mem)
		defer func() {
			release(recs)
			mem.AssertSize(t, 0)
		}()
		base := frame.FromRecords(recs...)
		q := base
		next := func(i *int) byte {
			if *i >= len(ops) {
				return 0
			}
			b := ops[*i]
			*i++
			return b
		}
		name := func(i *int) string { return names[int(next(i))%len(names)] }
		joins := 0 // each join can multiply the rows: a few keep a query small
		for i := 0; i < len(ops); {
			switch next(&i) % 15 {
			case 0:
				q = q.Filter(src)
			case 1:
				q = q.WithColumns(frame.Let(name(&i), src))
			case 2:
				q = q.Select(name(&i), name(&i))
			case 3:
				q = q.Drop(name(&i))
			case 4:
				q = q.Rename(map[string]string{name(&i): name(&i)})
			case 5:
				q = q.Limit(int64(next(&i)) - 8)
			case 6:
				aggs := []frame.Agg{frame.Count(), frame.Sum(name(&i)), frame.Mean(name(&i)).As("m"), frame.Std(name(&i), int(next(&i)%3)).As("s"),
					frame.Quantile(name(&i), float64(next(&i))/200).As("q"), frame.First(name(&i)).As("f"), frame.CountDistinct(name(&i)).As("cd"),
					frame.Max(name(&i)).As("mx"), frame.All(name(&i)).As("al"), frame.Corr(name(&i), name(&i)).As("r")}
				k := int(next(&i)) % len(aggs)
				q = q.GroupBy(name(&i)).Agg(aggs[:k+1]...)
			case 7:
				q = q.Sort(frame.SortKey{Col: name(&i), Desc: next(&i)%2 == 1, NullsFirst: next(&i)%2 == 1})
			case 8:
				q = q.TopK(int64(next(&i))-4, frame.Asc(name(&i)))
			case 9:
				if joins++; joins <= 2 {
					q = q.Join(base.Select("site", "key"), frame.JoinHow(next(&i)%5), name(&i))
				}
			case 10:
				if joins++; joins <= 2 {
					q = frame.Concat(q, base)
				}
			case 11:
				q = q.GroupBy().Agg(frame.Count())
			case 12:
				q = q.Filter(`is_null(` + name(&i) + `)`)
			case 13:
				q = q.WithColumns(frame.LetExpr("e", base.Col(name(&i))))
			case 14:
				q = q.GroupBy(name(&i)).Head(int64(next(&i)) - 4)
			}
		}
		_ = q.Explain()
		for _, workers := range []int{1, 3} {
			tb, err := q.Collect(context.Background(), frame.WithWorkers(workers), frame.WithAllocator(mem))
			if err != nil {
				if errors.Is(err, context.Canceled) {
					t.Fatalf("canceled without a cancel: %v", err)
				}
				continue
			}
			_ = tb.String()
			tb.Release()
		}
	})
}
