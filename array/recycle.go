package array

import (
	"math/bits"
	"sync"
)

// recycler keeps small buffers (up to PageAllocatorThreshold bytes) by
// power-of-two size class for reuse, so that a loop that allocates and
// releases results of one size (a plan evaluated per record batch, per
// request) produces no garbage for the collector. Each class keeps at most
// recycleKeep buffers; more are left to the GC.
type recycler struct {
	mu    sync.Mutex
	class [bits.UintSize][]buf
}

const (
	minClass    = 7 // 128 bytes: the smallest class that holds 64 bytes of alignment slack
	recycleKeep = 8
)

// classOf returns the size class whose buffers hold size bytes.
func classOf(size int) int {
	c := bits.Len(uint(size - 1))
	if c < minClass {
		c = minClass
	}
	return c
}

// take returns a buffer of size bytes, a released one of its class if there
// is one (reused: its contents are old), else a new, zeroed one.
func (r *recycler) take(size int) (b buf, reused bool) {
	c := classOf(size)
	r.mu.Lock()
	free := r.class[c]
	if n := len(free); n > 0 {
		b := free[n-1]
		free[n-1] = buf{}
		r.class[c] = free[:n-1]
		r.mu.Unlock()
		b.b = b.b[:size]
		return b, true
	}
	r.mu.Unlock()
	b = alignedBytes(1 << c)
	b.b = b.b[:size]
	return b, false
}

// put keeps a released buffer (its full capacity) for reuse, if its class
// has room.
func (r *recycler) put(b buf) {
	c := bits.Len(uint(cap(b.b) - 1))
	if cap(b.b) != 1<<c || c < minClass {
		return // not one of ours: leave it to the GC
	}
	b.b = b.b[:cap(b.b)]
	r.mu.Lock()
	if len(r.class[c]) < recycleKeep {
		r.class[c] = append(r.class[c], b)
	}
	r.mu.Unlock()
}
