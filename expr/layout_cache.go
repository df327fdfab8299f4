package expr

import (
	"sync/atomic"

	"github.com/stride0/stride0/array"
)

// layoutSlots is how many layouts a Plan keeps built passes for.
const layoutSlots = 8

// layoutCache is a Plan's small cache of built passes, one per layout of
// the leaves and the output (see fastGroup): a stream whose batch sizes
// alternate (1000 and 1001 rows), or a plan used both with Eval and with
// EvalInto, runs each layout's pass again without resolving or planning.
// It holds at most layoutSlots passes; a new layout replaces the least
// recently used. Lookups and inserts are lock-free: concurrent inserts may
// drop an entry (then the next call plans again), never corrupt one.
type layoutCache struct {
	slots [layoutSlots]struct {
		fg   atomic.Pointer[fastGroup]
		used atomic.Uint64 // clock tick of the last hit or insert
	}
	clock atomic.Uint64
}

// run runs the cached pass built for this call's layout, if there is one
// (ok), and marks it used.
func (c *layoutCache) run(o *options, dst *array.Array, b Bindings) (*array.Array, bool, error) {
	for i := range c.slots {
		s := &c.slots[i]
		fg := s.fg.Load()
		if fg == nil || !fg.matches(dst, b) {
			continue
		}
		if out, ok, err := fg.try(o, dst, b); ok {
			if s.used.Load() != c.clock.Load() { // not the most recent already: a loop over one layout skips the atomic add
				s.used.Store(c.clock.Add(1))
			}
			return out, true, err
		}
	}
	return nil, false, nil
}

// add caches fg in an empty slot or in place of the least recently used.
func (c *layoutCache) add(fg *fastGroup) {
	if fg == nil {
		return
	}
	victim, oldest := 0, ^uint64(0)
	for i := range c.slots {
		s := &c.slots[i]
		if s.fg.Load() == nil {
			victim = i
			break
		}
		if u := s.used.Load(); u < oldest {
			victim, oldest = i, u
		}
	}
	s := &c.slots[victim]
	s.fg.Store(fg)
	s.used.Store(c.clock.Add(1))
}

// len counts the cached passes (tests).
func (c *layoutCache) len() int {
	n := 0
	for i := range c.slots {
		if c.slots[i].fg.Load() != nil {
			n++
		}
	}
	return n
}

// matches is a quick check that this call's leaves have fg's layout (and
// that there is an output if fg was built for one), without touching any
// pool; try checks the rest of the output as it runs.
func (fg *fastGroup) matches(dst *array.Array, b Bindings) bool {
	if (dst == nil) != (fg.dst == nil) {
		return false
	}
	for k, n := range fg.nodes {
		a := n.arr
		if n.kind == kVar {
			a = b[n.name]
		}
		if !fg.same(k, a) {
			return false
		}
	}
	return true
}
