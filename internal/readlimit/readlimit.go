// Package readlimit holds what every stride0 reader of untrusted bytes
// shares (arrowio's IPC readers, parquetio's Parquet reader): the error
// sentinels the limits report, the default limits, an allocator that
// enforces them, the recover that turns arrow-go's panics into errors, and
// the few validity-bitmap helpers both need. arrowio re-exports the
// sentinels and defaults; each public package has its own options, which
// fill a Config.
package readlimit

import (
	"errors"
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// The sentinels arrowio exports as arrowio.ErrInvalid and arrowio.ErrLimit
// (see their documentation there); they live here so that the allocator
// and Guard can wrap them.
var (
	ErrInvalid = errors.New("invalid Arrow data")
	ErrLimit   = errors.New("reader limit exceeded")
)

// The default limits, exported by arrowio under the same names.
const (
	DefaultMaxBuffer  = min(4<<30, math.MaxInt)
	DefaultTotalBase  = 1 << 30
	DefaultTotalRatio = 64
)

// Config is the allocator and limits a reader's options set.
type Config struct {
	Mem   memory.Allocator
	Max   int   // WithMaxBuffer: <= 0 the default
	Total int64 // WithMaxTotal: > 0 bytes, < 0 none, 0 the default
}

// Fill fills in the defaults.
func (c *Config) Fill() {
	if c.Mem == nil {
		c.Mem = memory.DefaultAllocator
	}
	if c.Max <= 0 {
		c.Max = DefaultMaxBuffer
	}
}

// Limiter returns the Allocator c's allocator and limits make (c filled).
func (c Config) Limiter() *Allocator {
	c.Fill()
	return &Allocator{Mem: c.Mem, Max: c.Max, Total: c.Total}
}

// Allocator refuses (by panicking with an error that the readers recover)
// any single allocation larger than Max, and any that would take the bytes
// it has handed out over its life past its total limit. While a decode is
// under way (Begin .. Commit/Abandon) it also remembers what it hands out
// and is not yet freed, so that when arrow-go fails half-way through a
// batch the buffers it allocated and dropped can be given back (Abandon)
// instead of leaking from the caller's allocator.
type Allocator struct {
	Mem   memory.Allocator
	Max   int
	Total int64        // WithMaxTotal: > 0 bytes, < 0 none, 0 the default
	Input atomic.Int64 // input bytes read so far
	used  atomic.Int64 // bytes handed out so far (growth of reallocations)

	mu      sync.Mutex
	active  bool
	pending map[*byte][]byte
	failed  error // the last limit refused (arrow-go's stream reader loses it)
}

// TakeFailed returns and forgets the last refusal.
func (l *Allocator) TakeFailed() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	err := l.failed
	l.failed = nil
	return err
}

func (l *Allocator) refuse(err error) {
	l.mu.Lock()
	l.failed = err
	l.mu.Unlock()
	panic(err)
}

// Limit is the current total limit (-1: none).
func (l *Allocator) Limit() int64 {
	switch {
	case l.Total > 0:
		return l.Total
	case l.Total < 0:
		return -1
	}
	in := l.Input.Load()
	if in > (math.MaxInt64-DefaultTotalBase)/DefaultTotalRatio {
		return -1
	}
	return DefaultTotalBase + DefaultTotalRatio*in
}

// check panics (with an error wrapping ErrLimit) unless a buffer of n bytes,
// grown from old bytes, is within the limits, and counts the growth.
func (l *Allocator) check(n, old int) {
	if n < 0 || n > l.Max {
		l.refuse(fmt.Errorf("%w: a buffer of %d bytes exceeds the limit of %d (WithMaxBuffer)", ErrLimit, n, l.Max))
	}
	grow := int64(max(n-old, 0))
	used := l.used.Add(grow)
	if lim := l.Limit(); lim >= 0 && used > lim {
		l.used.Add(-grow)
		l.refuse(fmt.Errorf("%w: %d more bytes would take the reader past %d bytes allocated in total for %d input bytes (WithMaxTotal)", ErrLimit, grow, lim, l.Input.Load()))
	}
}

func (l *Allocator) Allocate(n int) []byte {
	l.check(n, 0)
	b := l.Mem.Allocate(n)
	l.note(nil, b)
	return b
}

func (l *Allocator) Reallocate(n int, b []byte) []byte {
	l.check(n, len(b))
	nb := l.Mem.Reallocate(n, b)
	l.note(b, nb)
	return nb
}

func (l *Allocator) Free(b []byte) {
	l.note(b, nil)
	l.Mem.Free(b)
}

// note records that old was given back and nb handed out.
func (l *Allocator) note(old, nb []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(old) > 0 && l.pending != nil {
		delete(l.pending, &old[0])
	}
	if len(nb) > 0 && l.active {
		l.pending[&nb[0]] = nb
	}
}

// Begin starts tracking what is handed out (a decode begins).
func (l *Allocator) Begin() {
	l.mu.Lock()
	l.active, l.pending = true, map[*byte][]byte{}
	l.mu.Unlock()
}

// Keep stops tracking b (it is owned by a live object).
func (l *Allocator) Keep(b []byte) { l.note(b, nil) }

// Commit: everything handed out belongs to the decoded batch.
func (l *Allocator) Commit() {
	l.mu.Lock()
	l.active, l.pending = false, nil
	l.mu.Unlock()
}

// Abandon frees what the failed decode handed out and nobody gave back,
// except the buffers in live (which the reader keeps: its dictionaries).
func (l *Allocator) Abandon(live map[*byte]bool) {
	l.mu.Lock()
	orphans := l.pending
	l.active, l.pending = false, nil
	l.mu.Unlock()
	for p, b := range orphans {
		if !live[p] {
			l.Mem.Free(b)
		}
	}
}

// Guard, deferred, turns a panic of arrow-go's decoder into an error
// wrapping ErrInvalid (and the panic's value, when it is an error).
func Guard(err *error, what string) {
	if p := recover(); p != nil {
		if pe, ok := p.(error); ok {
			*err = fmt.Errorf("%s: %w: arrow-go panicked: %w", what, ErrInvalid, pe)
		} else {
			*err = fmt.Errorf("%s: %w: arrow-go panicked: %v", what, ErrInvalid, p)
		}
	}
}
