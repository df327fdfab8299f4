package array

import (
	"runtime"
	"runtime/metrics"
	"sync/atomic"
	"time"
)

// The memory of an array dropped without Release stays reachable from its
// cleanup until the cleanup has run, so the collection that finds the
// header unreachable still counts the buffer as live, and the collector's
// pacing (next collection at twice the live heap) lets such results pile
// up: 200 dropped results of 64 MiB reached 3.4 GiB of RSS. Once the
// cleanups have released collectGoal bytes of large buffers, one more
// collection is started at once, which frees them.
var (
	reclaimed  atomic.Int64 // bytes released by cleanups since the last collection started here
	collecting atomic.Bool
)

const collectGoal = 256 << 20

// collectSoon counts n bytes released by a cleanup and starts a collection
// when enough have been.
func collectSoon(n int) {
	if n <= PageAllocatorThreshold {
		return
	}
	if reclaimed.Add(int64(n)) < collectGoal || !collecting.CompareAndSwap(false, true) {
		return
	}
	reclaimed.Store(0)
	go func() {
		runtime.GC()
		collecting.Store(false)
	}()
}

// collectNow runs the collector, lets the cleanups of the arrays it finds
// dropped run, and collects their memory: the last resort before refusing
// an allocation for lack of address space.
func collectNow() {
	runtime.GC()
	time.Sleep(5 * time.Millisecond)
	runtime.GC()
}

var heapReusable = []metrics.Sample{
	{Name: "/memory/classes/heap/free:bytes"},
	{Name: "/memory/classes/heap/released:bytes"},
}

// reusableHeap is the Go heap's address space that is mapped but free: new
// allocations can use it without mapping more.
func reusableHeap() int64 {
	s := make([]metrics.Sample, len(heapReusable))
	copy(s, heapReusable)
	metrics.Read(s)
	var n int64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			n += int64(x.Value.Uint64())
		}
	}
	return n
}
