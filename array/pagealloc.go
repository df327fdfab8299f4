package array

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// DefaultAllocator is where stride0 allocates when the caller names no
// allocator: every constructor of this package (New, Empty, FromSlice,
// Full, Arange, Copy, masks added by SetNull...) and every evaluation of
// package expr. It is a PageAllocator.
var DefaultAllocator memory.Allocator = NewPageAllocator()

// PageAllocatorThreshold is the size in bytes above which a PageAllocator
// treats a buffer as large: sized to the byte (rounded to 64 KiB) instead of
// a power-of-two class, and kept for reuse by size after Release (see
// SetReuse).
const PageAllocatorThreshold = 1 << 20

// NewPageAllocator returns stride0's allocator. Every buffer is memory of the
// Go heap, 64-byte aligned, so that:
//
//   - an array dropped without Release is reclaimed after the garbage
//     collector finds it unreachable (package array attaches a cleanup to
//     the header, or, for a small buffer, the collector frees the memory and
//     the buffer's own cleanup takes it off the books), and the collector's
//     pacing sees the bytes;
//   - a slice from Values keeps its memory alive like any Go slice: memory
//     released by the collector is never handed to another array while a
//     slice can reach it;
//   - no buffer is ever unmapped under a live pointer: misuse can read stale
//     values, never fault.
//
// Release is the fast path. A released buffer is reused: small ones (up to
// PageAllocatorThreshold bytes) by power-of-two size class, a few per class, so
// that a loop of small evaluations makes no garbage; large ones by size,
// bounded in bytes and in time (SetReuse), so that a loop of large
// evaluations stops paying page faults, and given back to the operating
// system when idle. Buffers are zero when handed out by Allocate; the
// package's own constructors skip the zeroing where they write every element.
//
// Requests are checked before they are made (CheckAlloc): Allocate of a size
// over the limit returns nil rather than crashing the process, and the
// package's constructors return an *AllocError instead.
func NewPageAllocator() memory.Allocator { return &pageAllocator{} }

type pageAllocator struct {
	small recycler
	large largeCache
}

// Allocate returns size zeroed bytes, or nil when size is negative or over
// the allocation limit.
func (p *pageAllocator) Allocate(size int) []byte {
	b, zero := p.alloc(size)
	if !zero {
		clear(b)
	}
	return b
}

// allocateUninit is Allocate without zeroing reused memory; zero reports
// whether the bytes are zero anyway (fresh memory).
func (p *pageAllocator) allocateUninit(size int) (b []byte, zero bool) { return p.alloc(size) }

func (p *pageAllocator) alloc(size int) ([]byte, bool) {
	if size < 0 || CheckAlloc(size) != nil {
		return nil, true
	}
	if size == 0 {
		return []byte{}, true
	}
	var b buf
	reused := false
	if size <= PageAllocatorThreshold {
		b, reused = p.small.take(size)
	} else {
		b, reused = p.large.take(size)
	}
	live.add(b)
	return b.b, !reused
}

func (p *pageAllocator) Reallocate(size int, b []byte) []byte {
	if size <= cap(b) {
		return b[:size]
	}
	nb := p.Allocate(size)
	if nb == nil {
		return nil
	}
	copy(nb, b)
	p.Free(b)
	return nb
}

// Free takes a buffer back. A buffer this allocator did not hand out, or
// already freed, is left to the garbage collector: a double free is a no-op.
// A buffer whose array was reclaimed by the garbage collector (rather than
// released) is left to it too, since a slice from Values may still reach it.
func (p *pageAllocator) Free(b []byte) {
	if cap(b) == 0 {
		return
	}
	st, ours, tainted := live.remove(b)
	if !ours || tainted {
		return
	}
	full := buf{b[:cap(b)], st}
	if debugOn.Load() {
		poison(full.b) // and never reused: a stale slice reads the poison
		return
	}
	if cap(b) <= PageAllocatorThreshold { // the largest class is the threshold
		p.small.put(full)
		return
	}
	p.large.put(full)
}

// poison fills a released buffer with 0xFF bytes: NaN as a float, -1 as a
// signed integer.
func poison(b []byte) {
	for i := range b {
		b[i] = 0xFF
	}
}

// liveSet records the buffers the page allocators have made, by base
// address (not a reference: a buffer nobody frees stays collectable), each
// with its state: its id, whether it is handed out (live: taken and not
// freed) and whether an array that held it was reclaimed by the garbage
// collector (tainted). Every buffer a page allocator makes is entered once,
// when it is made, and carries a cleanup that deletes its entry once the
// collector frees its memory (forget), so that a buffer dropped without
// Free leaves nothing behind: arrays of the default allocator need no
// cleanup of their own for that (see newHeader). Handing a buffer out
// (add) and taking it back (remove) change its state with atomic
// operations: a reused buffer costs no map update (issue 20: the insert
// and delete under a lock were 0.1 us of every small result), and Free
// only looks its base address up.
type liveSet struct {
	m sync.Map // base address -> *bufState
}

// bufState is the state of one buffer of a page allocator (see liveSet).
type bufState struct {
	id    uint64 // the buffer's, unique in the process: an entry is only forgotten by its own buffer's cleanup
	flags atomic.Uint32
}

const (
	stateLive    = 1 << iota // handed out and not taken back
	stateTainted             // an array that held it was reclaimed by the collector
)

var live liveSet

func base(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

// register enters a new buffer (not handed out yet).
func (s *liveSet) register(b buf) { s.m.Store(base(b.b), b.st) }

// add marks a buffer of the set as handed out (and not tainted: a tainted
// buffer is never taken back for reuse).
func (s *liveSet) add(b buf) { b.st.flags.Store(stateLive) }

// remove takes a handed-out buffer back: ours reports whether b's base is
// a buffer of the set that is handed out (so a second Free of it, or a
// Free of memory that is not ours, is refused).
func (s *liveSet) remove(b []byte) (st *bufState, ours, tainted bool) {
	v, ok := s.m.Load(base(b))
	if !ok {
		return nil, false, false
	}
	st = v.(*bufState)
	for {
		f := st.flags.Load()
		if f&stateLive == 0 {
			return nil, false, false
		}
		if st.flags.CompareAndSwap(f, 0) {
			return st, true, f&stateTainted != 0
		}
	}
}

// taint marks a buffer handed out by a page allocator as reachable by
// slices nobody accounts for: when it is freed, it goes to the garbage
// collector instead of being reused.
func (s *liveSet) taint(b []byte) {
	if cap(b) == 0 {
		return
	}
	v, ok := s.m.Load(base(b))
	if !ok {
		return
	}
	st := v.(*bufState)
	for {
		f := st.flags.Load()
		if f&stateLive == 0 || st.flags.CompareAndSwap(f, f|stateTainted) {
			return
		}
	}
}

// forget is the cleanup of a buffer's memory: the collector freed it, so
// its entry goes. The id keeps it from deleting the entry of a newer
// buffer at the same address.
func forget(k bufKey) {
	if v, ok := live.m.Load(k.p); ok && v.(*bufState).id == k.id {
		live.m.CompareAndDelete(k.p, v)
	}
}

type bufKey struct {
	p  uintptr
	id uint64
}

// entries counts the buffers handed out and not taken back (tests).
func (s *liveSet) entries() int {
	n := 0
	s.m.Range(func(_, v any) bool {
		if v.(*bufState).flags.Load()&stateLive != 0 {
			n++
		}
		return true
	})
	return n
}

// buf is a buffer of a page allocator with its state (see liveSet).
type buf struct {
	b  []byte
	st *bufState
}

var bufIDs atomic.Uint64

// alignedBytes returns n bytes of fresh, zeroed Go memory, 64-byte aligned,
// with a new id, entered in the live set (not handed out yet), and a
// cleanup that forgets it once the collector frees it.
func alignedBytes(n int) buf {
	raw := make([]byte, n+64)
	off := int((64 - base(raw)%64) % 64)
	b := buf{raw[off : off+n : off+n], &bufState{id: bufIDs.Add(1)}}
	live.register(b)
	runtime.AddCleanup(unsafe.SliceData(raw), forget, bufKey{base(b.b), b.st.id})
	return b
}
