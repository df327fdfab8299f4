package main

import (
	"fmt"
	"runtime"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// tracker is an Arrow allocator that counts what is live (over a checked Go
// allocator, so that leaks show) and remembers the peak.
type tracker struct {
	*memory.CheckedAllocator
	cur, peak atomic.Int64
}

func newTracker() *tracker {
	return &tracker{CheckedAllocator: memory.NewCheckedAllocator(memory.NewGoAllocator())}
}

func (t *tracker) add(n int) {
	c := t.cur.Add(int64(n))
	for {
		p := t.peak.Load()
		if c <= p || t.peak.CompareAndSwap(p, c) {
			return
		}
	}
}

func (t *tracker) Allocate(n int) []byte {
	b := t.CheckedAllocator.Allocate(n)
	t.add(len(b))
	return b
}

func (t *tracker) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := t.CheckedAllocator.Reallocate(n, b)
	t.add(len(nb) - old)
	return nb
}

func (t *tracker) Free(b []byte) {
	t.add(-len(b))
	t.CheckedAllocator.Free(b)
}

// heap measures the Go heap allocated (cumulatively) while f runs.
func heap(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// mib formats a byte count.
func mib(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d B", n)
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}
