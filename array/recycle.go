package array

import (
	"math/bits"
	"sync"
	"unsafe"
)

// recycler hands out small buffers (below PageAllocatorThreshold) by
// power-of-two size class and takes freed ones back for reuse, so that a
// loop that allocates and releases results of one size (a plan evaluated per
// record batch, per request) produces no garbage for the collector. Buffers
// are 64-byte aligned and zeroed when handed out, like fresh memory. Each
// class keeps at most recycleKeep buffers; more are left to the GC.
type recycler struct {
	mu    sync.Mutex
	class [bits.UintSize][][]byte
}

const (
	minClass    = 7 // 128 bytes: the smallest class that holds 64 bytes of alignment slack
	recycleKeep = 8
)

// classOf returns the size class whose buffers hold size bytes after
// alignment.
func classOf(size int) int {
	c := bits.Len(uint(size + 63))
	if c < minClass {
		c = minClass
	}
	return c
}

func (r *recycler) Allocate(size int) []byte {
	b, reused := r.take(size)
	if reused {
		clear(b)
	}
	return b
}

// allocateUninit is Allocate without zeroing a reused buffer, for arrays
// that are about to be written in full (array.Empty).
func (r *recycler) allocateUninit(size int) []byte {
	b, _ := r.take(size)
	return b
}

// take returns a buffer of size bytes, a freed one of its class if there is
// one (reused: its contents are old), else a new, zeroed one.
func (r *recycler) take(size int) (b []byte, reused bool) {
	c := classOf(size)
	r.mu.Lock()
	free := r.class[c]
	if n := len(free); n > 0 {
		b := free[n-1]
		free[n-1] = nil
		r.class[c] = free[:n-1]
		r.mu.Unlock()
		return b[:size], true
	}
	r.mu.Unlock()
	raw := make([]byte, 1<<c)
	off := int((64 - uintptr(unsafe.Pointer(unsafe.SliceData(raw)))%64) % 64)
	return raw[off : off+size : len(raw)], false
}

// uninitAllocator is an allocator that can hand out memory without zeroing
// it (the PageAllocator); Empty uses it.
type uninitAllocator interface {
	allocateUninit(size int) []byte
}

func (r *recycler) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

func (r *recycler) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	// An aligned buffer of class c has a capacity in (2^c - 64, 2^c].
	c := bits.Len(uint(cap(b) - 1))
	if c < minClass || c >= len(r.class) || cap(b) <= 1<<c-64 {
		return // not one of ours: leave it to the GC
	}
	r.mu.Lock()
	if len(r.class[c]) < recycleKeep {
		r.class[c] = append(r.class[c], b[:cap(b)])
	}
	r.mu.Unlock()
}
