package frame

import (
	"sync"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// recycler is an allocator for a worker's per-batch scratch columns (the
// rows a worker owns in a batch, gathered: about the same sizes batch
// after batch). A buffer freed to it is kept, up to recycleKeep of them,
// and handed out again for an allocation of no more bytes, so that the
// scratch of a 10^7-row group-by is a few buffers, not 10^7 rows' worth
// of garbage waiting for the collector. release gives the buffers kept
// back to the allocator it wraps; a buffer freed after that goes straight
// back too. Safe for concurrent use (a state may keep a scratch column
// past its batch and free it from another goroutine).
type recycler struct {
	mem      memory.Allocator
	mu       sync.Mutex
	free     [][]byte                  // kept, each as the wrapped allocator gave it
	out      map[unsafe.Pointer][]byte // handed out: first byte -> as given
	released bool
}

// recycleKeep is the most buffers a recycler keeps.
const recycleKeep = 16

func newRecycler(mem memory.Allocator) *recycler {
	return &recycler{mem: mem, out: map[unsafe.Pointer][]byte{}}
}

// Allocate returns size bytes: the smallest kept buffer that holds them,
// zeroed, else a new one with an eighth more room (the next batch's
// scratch may be a little larger).
func (r *recycler) Allocate(size int) []byte {
	if size <= 0 {
		return r.mem.Allocate(size)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	best := -1
	for i, b := range r.free {
		if len(b) >= size && (best < 0 || len(b) < len(r.free[best])) {
			best = i
		}
	}
	var b []byte
	if best >= 0 {
		b = r.free[best]
		last := len(r.free) - 1
		r.free[best] = r.free[last]
		r.free[last] = nil
		r.free = r.free[:last]
		clear(b[:size]) // (arrow-go's kernels count on zeroed memory, as Go's allocator gives)
	} else {
		b = r.mem.Allocate(size + size/8)
	}
	r.out[unsafe.Pointer(&b[0])] = b
	return b[:size:size] // (arrow-go reads a buffer's capacity as its size)
}

// Reallocate grows or shrinks b to size bytes, in place when its buffer
// holds them.
func (r *recycler) Reallocate(size int, b []byte) []byte {
	if len(b) == 0 {
		return r.Allocate(size)
	}
	r.mu.Lock()
	whole, ok := r.out[unsafe.Pointer(&b[0])]
	r.mu.Unlock()
	if ok && size > 0 && size <= len(whole) {
		if size > len(b) {
			clear(whole[len(b):size]) // (the new bytes zero, as Go's allocator gives them)
		}
		return whole[:size:size]
	}
	if !ok { // (not ours: cannot happen)
		return r.mem.Reallocate(size, b)
	}
	nb := r.Allocate(size)
	copy(nb, b)
	r.Free(b)
	return nb
}

// Free keeps b's buffer for the next allocation, or gives it back.
func (r *recycler) Free(b []byte) {
	if len(b) == 0 {
		r.mem.Free(b)
		return
	}
	r.mu.Lock()
	p := unsafe.Pointer(&b[0])
	whole, ok := r.out[p]
	if !ok { // (not ours: cannot happen)
		r.mu.Unlock()
		r.mem.Free(b)
		return
	}
	delete(r.out, p)
	if !r.released && len(r.free) < recycleKeep {
		r.free = append(r.free, whole)
		whole = nil
	}
	r.mu.Unlock()
	if whole != nil {
		r.mem.Free(whole)
	}
}

// release gives the buffers kept back to the wrapped allocator; those
// still out go back when freed.
func (r *recycler) release() {
	r.mu.Lock()
	free := r.free
	r.free, r.released = nil, true
	r.mu.Unlock()
	for _, b := range free {
		r.mem.Free(b)
	}
}
