package bench

import (
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// BenchmarkWorkloads runs the ten shared workloads (testdata/workloads.json,
// a copy of ../shared/perf/workloads.json) with every variant:
//
//	go test -run '^$' -bench Workloads ./bench/
//	go test -run '^$' -bench 'Workloads/W10/out$' -benchmem ./bench/
//
// Bytes per op are the workload's traffic (inputs read once plus the output
// written once), so MB/s compares with the bandwidth probes.
func BenchmarkWorkloads(b *testing.B) {
	s, err := Load("testdata/workloads.json")
	if err != nil {
		b.Fatal(err)
	}
	for i := range s.Workloads {
		w := &s.Workloads[i]
		c, err := Prepare(s, w, array.DefaultAllocator)
		if err != nil {
			b.Fatal(err)
		}
		vs, free, err := c.Variants(s)
		if err != nil {
			b.Fatal(err)
		}
		traffic := int64(numel(w.OutShape))
		for _, in := range w.Inputs {
			traffic += int64(numel(in.Shape))
		}
		traffic *= int64(c.DType.Size())
		for _, v := range vs {
			b.Run(w.ID+"/"+v.Variant, func(b *testing.B) {
				b.SetBytes(traffic)
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if err := v.Call(); err != nil {
						b.Fatal(err)
					}
					if v.Release != nil && !w.PerCall {
						v.Release()
					}
				}
			})
		}
		free()
		c.Release()
	}
}

// TestWorkloadChecksums checks every workload and variant against the
// checksums of the reference run (NumPy's, in ../shared/perf), which the
// exact input values make identical across implementations.
func TestWorkloadChecksums(t *testing.T) {
	if raceOn {
		t.Skip("full-size checksums run without -race (see race_test.go)")
	}
	want := map[string]Sum{
		"W1": {1281.25, 9.5966796875}, "W2": {621.09375, 19.73046875}, "W3": {12548.177734375, 70.529296875},
		"W6": {1151755, -3208}, "W9": {0.84765625, -0.6357421875}, "W10": {-108.884765625, -436.8515625},
	}
	s, err := Load("testdata/workloads.json")
	if err != nil {
		t.Fatal(err)
	}
	for i := range s.Workloads {
		w := &s.Workloads[i]
		c, err := Prepare(s, w, array.DefaultAllocator)
		if err != nil {
			t.Fatal(err)
		}
		vs, free, err := c.Variants(s)
		if err != nil {
			t.Fatal(err)
		}
		var first Sum
		for k, v := range vs {
			if err := v.Call(); err != nil {
				t.Fatal(err)
			}
			got, err := v.Check()
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				first = got
			} else if got != first {
				t.Errorf("%s %s: checksum %+v, %s gave %+v", w.ID, v.Variant, got, vs[0].Variant, first)
			}
			if ws, ok := want[w.ID]; ok && got != ws {
				t.Errorf("%s %s: checksum %+v, want %+v", w.ID, v.Variant, got, ws)
			}
			if v.Release != nil {
				v.Release()
			}
		}
		free()
		c.Release()
	}
}

// BenchmarkEvalAlloc measures what allocating the result costs a loop of
// Eval calls (x + 1 over float32, default allocator and workers), at three
// result sizes: "release" releases each result (its buffer is reused),
// "drop" never releases (the garbage collector reclaims the results), and
// "into" evaluates into one preallocated output (no allocation: the
// baseline).
//
//	go test -run '^$' -bench EvalAlloc -benchtime 20x ./bench/
func BenchmarkEvalAlloc(b *testing.B) {
	for _, sz := range []struct {
		name  string
		bytes int
	}{{"4KiB", 4 << 10}, {"1MiB", 1 << 20}, {"64MiB", 64 << 20}} {
		n := sz.bytes / 4
		x, err := array.Full(nil, float32(1.5), n)
		if err != nil {
			b.Fatal(err)
		}
		p, err := expr.Compile(expr.Add(expr.Leaf(x), expr.Const(float32(1))))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(sz.name+"/release", func(b *testing.B) {
			b.SetBytes(int64(2 * sz.bytes))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				r, err := p.Eval(nil)
				if err != nil {
					b.Fatal(err)
				}
				r.Release()
			}
		})
		b.Run(sz.name+"/drop", func(b *testing.B) {
			b.SetBytes(int64(2 * sz.bytes))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := p.Eval(nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(sz.name+"/into", func(b *testing.B) {
			out, err := array.New(nil, array.Float32, n)
			if err != nil {
				b.Fatal(err)
			}
			defer out.Release()
			b.SetBytes(int64(2 * sz.bytes))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if err := p.EvalInto(out, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		x.Release()
	}
}
