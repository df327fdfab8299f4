package array

import (
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of the reuse of large released buffers (see SetReuse).
var (
	reuseBytes atomic.Int64 // 0: no reuse
	reuseDecay atomic.Int64 // nanoseconds
)

// DefaultReuseDecay is how long a released large buffer stays ready for
// reuse before its memory goes back to the operating system.
const DefaultReuseDecay = 2 * time.Second

func init() {
	reuseBytes.Store(defaultReuseBytes())
	reuseDecay.Store(int64(DefaultReuseDecay))
}

// defaultReuseBytes is 1 GiB, or an eighth of the memory stride0 may use
// when that is less.
func defaultReuseBytes() int64 {
	return min(1<<30, physicalMemory()/8)
}

// SetReuse bounds the reuse of large buffers (more than PageAllocatorThreshold
// bytes) by the page allocators: at most maxBytes of released buffers
// are kept, each for at most decay after its release, after which its
// memory goes back to the operating system. maxBytes 0 turns reuse off;
// negative values restore the defaults (1 GiB or an eighth of physical
// memory, DefaultReuseDecay). It returns the previous settings.
func SetReuse(maxBytes int64, decay time.Duration) (prevBytes int64, prevDecay time.Duration) {
	if maxBytes < 0 {
		maxBytes = defaultReuseBytes()
	}
	if decay < 0 {
		decay = DefaultReuseDecay
	}
	prevBytes = reuseBytes.Swap(maxBytes)
	prevDecay = time.Duration(reuseDecay.Swap(int64(decay)))
	return prevBytes, prevDecay
}

// ReuseStats reports the large released buffers that the default allocator
// keeps for reuse: how many, and their bytes.
func ReuseStats() (buffers int, bytes int64) {
	if p, ok := DefaultAllocator.(*pageAllocator); ok {
		return p.large.stats()
	}
	return 0, 0
}

// Trim gives the memory of every large buffer that the default allocator
// keeps for reuse back to the operating system now.
func Trim() {
	if p, ok := DefaultAllocator.(*pageAllocator); ok {
		p.large.trim(0)
	}
}

// largeGranule is what large buffers are rounded up to, so that results of
// nearby sizes can share buffers.
const largeGranule = 64 << 10

type cached struct {
	b    buf
	when time.Time
}

// largeCache keeps released large buffers for reuse, newest last.
type largeCache struct {
	mu    sync.Mutex
	bufs  []cached
	bytes int64
	armed bool // a sweep is scheduled
}

// take returns a released buffer that fits size closely (reused), or a new
// zeroed one.
func (c *largeCache) take(size int) (b buf, reused bool) {
	n := (size + largeGranule - 1) &^ (largeGranule - 1)
	c.mu.Lock()
	best := -1
	for i, e := range c.bufs {
		if k := cap(e.b.b); k >= n && k <= n+n/8 && (best < 0 || k <= cap(c.bufs[best].b.b)) { // the newest of the closest
			best = i
		}
	}
	if best >= 0 {
		b = c.bufs[best].b
		c.bytes -= int64(cap(b.b))
		c.bufs = append(c.bufs[:best], c.bufs[best+1:]...)
		c.mu.Unlock()
		b.b = b.b[:size]
		return b, true
	}
	c.mu.Unlock()
	b = alignedBytes(n)
	adviseHuge(b.b)
	b.b = b.b[:size]
	return b, false
}

// put keeps a released buffer, evicting the oldest ones past the byte
// bound.
func (c *largeCache) put(b buf) {
	limit := reuseBytes.Load()
	if int64(cap(b.b)) > limit {
		giveBack(b.b)
		return
	}
	var evicted [][]byte
	c.mu.Lock()
	for c.bytes+int64(cap(b.b)) > limit && len(c.bufs) > 0 {
		evicted = append(evicted, c.bufs[0].b.b)
		c.bytes -= int64(cap(c.bufs[0].b.b))
		c.bufs[0] = cached{}
		c.bufs = c.bufs[1:]
	}
	c.bufs = append(c.bufs, cached{b: b, when: time.Now()})
	c.bytes += int64(cap(b.b))
	if !c.armed {
		c.armed = true
		time.AfterFunc(time.Duration(reuseDecay.Load())/2+time.Millisecond, c.sweep)
	}
	c.mu.Unlock()
	for _, e := range evicted {
		giveBack(e)
	}
}

// sweep gives back the buffers released longer than the decay ago, and
// schedules itself again while buffers remain.
func (c *largeCache) sweep() {
	decay := time.Duration(reuseDecay.Load())
	c.trim(decay)
	c.mu.Lock()
	if len(c.bufs) > 0 {
		time.AfterFunc(decay/2+time.Millisecond, c.sweep)
	} else {
		c.armed = false
	}
	c.mu.Unlock()
}

// trim gives back every buffer released more than age ago.
func (c *largeCache) trim(age time.Duration) {
	now := time.Now()
	var old [][]byte
	c.mu.Lock()
	k := 0
	for _, e := range c.bufs {
		if now.Sub(e.when) >= age {
			old = append(old, e.b.b)
			c.bytes -= int64(cap(e.b.b))
			continue
		}
		c.bufs[k] = e
		k++
	}
	clear(c.bufs[k:])
	c.bufs = c.bufs[:k]
	c.mu.Unlock()
	for _, b := range old {
		giveBack(b)
	}
}

func (c *largeCache) stats() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.bufs), c.bytes
}

// HugePageThreshold is the size in bytes from which the page allocators ask
// the operating system for transparent huge pages for a new buffer (Linux,
// where transparent huge pages are "always" or "madvise"; NumPy asks from
// 4 MiB too). Streaming through a large array on huge pages takes one TLB
// entry per 2 MiB instead of per 4 KiB, and faulting it in zeroes 2 MiB at a
// time.
const HugePageThreshold = 4 << 20

// SetHugePages turns the huge page advice for new large buffers on (the
// default) or off, and returns the previous setting; the environment
// variable STRIDE0_HUGEPAGES=0 turns it off at start. Buffers allocated
// before keep the advice they had. The advice costs latency where memory is
// fragmented: with transparent huge pages set to defrag=madvise (a common
// default) the kernel compacts memory when such a buffer is first written,
// which on a loaded machine made touching a fresh 64 MiB buffer take up to
// 1.8 s instead of 0.1 to 0.3 s. Streaming through arrays on huge pages is
// 20 to 45 % faster, and reused buffers (see SetReuse) fault nothing.
func SetHugePages(on bool) (prev bool) { return !hugeOff.Swap(!on) }

func init() {
	if os.Getenv("STRIDE0_HUGEPAGES") == "0" {
		hugeOff.Store(true)
	}
}

// hugeOff turns the huge page advice off (SetHugePages).
var hugeOff atomic.Bool
