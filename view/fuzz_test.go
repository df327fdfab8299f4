package view_test

import (
	"math/rand/v2"
	"sort"
	"testing"
)

// FuzzViews drives the generators of the randomized tests with the fuzzer's
// bytes: the first byte picks a broadcast rule or a program of chained views
// (transpose, slice, reshape, expand_dims, squeeze, broadcast, copy), the
// rest choose shapes, dtypes, layouts, values, nulls and parameters. It
// asserts that nothing panics or leaks, that every failure is the
// documented error, and that every view built copies to exactly the naive
// evaluation.
func FuzzViews(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0})
	f.Add([]byte{9, 3, 1, 2, 3, 4, 5, 6, 7})
	f.Add([]byte{2, 5, 10, 10, 10, 10, 10, 2, 1, 0, 3})
	seed := rand.New(rand.NewPCG(4, 5))
	for i := 0; i < 24; i++ {
		b := make([]byte, 16+seed.IntN(200))
		for j := range b {
			b[j] = byte(seed.IntN(256))
		}
		b[0] = byte(i)
		f.Add(b)
	}
	names := make([]string, 0, len(ruleGens))
	for name := range ruleGens {
		names = append(names, name)
	}
	sort.Strings(names)

	f.Fuzz(func(t *testing.T, data []byte) {
		mem := checkedMem(t)
		src := &byteSource{b: data}
		pick := src.IntN(len(names) + 3)
		if pick < len(names) {
			ruleGens[names[pick]](t, src, mem)
		} else {
			runProgram(t, src, mem)
		}
		if mem.CurrentAlloc() != 0 {
			t.Fatalf("leak of %d bytes", mem.CurrentAlloc())
		}
	})
}
