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
	id, ours, tainted := live.remove(b)
	if !ours || tainted {
		return
	}
	full := buf{b[:cap(b)], id}
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

// liveSet records the buffers the page allocators have handed out and not
// taken back, by base address (not a reference: a buffer nobody frees stays
// collectable), with the buffer's id and a flag set when an array that held
// the buffer was reclaimed by the garbage collector. Every buffer a page
// allocator makes carries a cleanup that deletes its entry once the
// collector frees its memory (forget), so that a buffer dropped without
// Free leaves nothing behind: arrays of the default allocator need no
// cleanup of their own for that (see newHeader).
type liveSet struct {
	shards [32]struct {
		mu sync.Mutex
		m  map[uintptr]liveEntry
		_  [40]byte // keep shards on separate cache lines
	}
}

type liveEntry struct {
	id      uint64 // the buffer's (buf.id): an entry is only forgotten by its own buffer's cleanup
	tainted bool
}

var live liveSet

func base(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }

func (s *liveSet) shard(p uintptr) int { return int((p>>6 ^ p>>12 ^ p>>20) % 32) }

func (s *liveSet) add(b buf) {
	p := base(b.b)
	sh := &s.shards[s.shard(p)]
	sh.mu.Lock()
	if sh.m == nil {
		sh.m = map[uintptr]liveEntry{}
	}
	sh.m[p] = liveEntry{id: b.id}
	sh.mu.Unlock()
}

func (s *liveSet) remove(b []byte) (id uint64, ours, tainted bool) {
	p := base(b)
	sh := &s.shards[s.shard(p)]
	sh.mu.Lock()
	e, ours := sh.m[p]
	delete(sh.m, p)
	sh.mu.Unlock()
	return e.id, ours, e.tainted
}

// taint marks a buffer handed out by a page allocator as reachable by
// slices nobody accounts for: when it is freed, it goes to the garbage
// collector instead of being reused.
func (s *liveSet) taint(b []byte) {
	if cap(b) == 0 {
		return
	}
	p := base(b)
	sh := &s.shards[s.shard(p)]
	sh.mu.Lock()
	if e, ok := sh.m[p]; ok {
		e.tainted = true
		sh.m[p] = e
	}
	sh.mu.Unlock()
}

// forget is the cleanup of a buffer's memory: the collector freed it, so an
// entry for it (handed out, never freed) goes. The id keeps it from
// deleting the entry of a newer buffer at the same address.
func forget(k bufKey) {
	sh := &live.shards[live.shard(k.p)]
	sh.mu.Lock()
	if e, ok := sh.m[k.p]; ok && e.id == k.id {
		delete(sh.m, k.p)
	}
	sh.mu.Unlock()
}

type bufKey struct {
	p  uintptr
	id uint64
}

// entries counts the buffers handed out and not taken back (tests).
func (s *liveSet) entries() int {
	n := 0
	for i := range s.shards {
		sh := &s.shards[i]
		sh.mu.Lock()
		n += len(sh.m)
		sh.mu.Unlock()
	}
	return n
}

// buf is a buffer of a page allocator with its id, unique in the process.
type buf struct {
	b  []byte
	id uint64
}

var bufIDs atomic.Uint64

// alignedBytes returns n bytes of fresh, zeroed Go memory, 64-byte aligned,
// with a new id and a cleanup that forgets it once the collector frees it.
func alignedBytes(n int) buf {
	raw := make([]byte, n+64)
	off := int((64 - base(raw)%64) % 64)
	b := buf{raw[off : off+n : off+n], bufIDs.Add(1)}
	runtime.AddCleanup(unsafe.SliceData(raw), forget, bufKey{base(b.b), b.id})
	return b
}
