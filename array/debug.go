package array

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// debugOn turns on the memory debug mode (SetMemDebug).
var debugOn atomic.Bool

func init() {
	if v := os.Getenv("STRIDE0_MEMDEBUG"); v != "" && v != "0" {
		debugOn.Store(true)
	}
}

// SetMemDebug turns the memory debug mode on or off and returns the previous
// setting; the environment variable STRIDE0_MEMDEBUG=1 turns it on at start.
// In debug mode:
//
//   - the page allocators fill every released buffer with 0xFF bytes (NaN as
//     a float, -1 as a signed integer) and never reuse it, so that a slice
//     from Values used after its array's Release reads the poison instead
//     of another array's values;
//   - every array records where it was made, and Leaks lists the arrays
//     that are live or were reclaimed by the garbage collector without a
//     Release.
//
// It costs a stack trace per array and the reuse of memory: for tests and
// debugging only. Arrays made before it was turned on are not tracked.
func SetMemDebug(on bool) (previous bool) { return debugOn.Swap(on) }

// Leak is an array that was not released: where it was made and its buffer
// size. Dropped: the garbage collector reclaimed it (the program lost it
// without calling Release); otherwise it is still live.
type Leak struct {
	Site    string // the calls that made it, innermost first, outside package array
	Bytes   int
	Dropped bool
}

// String formats a leak on one line.
func (l Leak) String() string {
	state := "live"
	if l.Dropped {
		state = "dropped without Release"
	}
	return fmt.Sprintf("%s, %d bytes, made at %s", state, l.Bytes, l.Site)
}

type site struct {
	pcs   []uintptr
	bytes int
}

// maxDropped bounds the record of arrays reclaimed without Release.
const maxDropped = 1000

var tracked struct {
	mu      sync.Mutex
	live    map[*owner]*site
	dropped []*site
}

// track records where the array of o is being made.
func track(o *owner, bytes int) *site {
	pcs := make([]uintptr, 16)
	pcs = pcs[:runtime.Callers(3, pcs)]
	s := &site{pcs: pcs, bytes: bytes}
	tracked.mu.Lock()
	if tracked.live == nil {
		tracked.live = map[*owner]*site{}
	}
	tracked.live[o] = s
	tracked.mu.Unlock()
	return s
}

// untrack forgets a released array, or records a dropped one.
func untrack(o *owner, dropped bool) {
	tracked.mu.Lock()
	delete(tracked.live, o)
	if dropped && len(tracked.dropped) < maxDropped {
		tracked.dropped = append(tracked.dropped, o.site)
	}
	tracked.mu.Unlock()
}

// Leaks lists, in debug mode (SetMemDebug), the arrays made while it was on
// that are live now, and those the garbage collector reclaimed without a
// Release (the first 1000), sorted by site. ResetLeaks forgets the latter.
func Leaks() []Leak {
	tracked.mu.Lock()
	var out []Leak
	for _, s := range tracked.live {
		out = append(out, Leak{Site: s.String(), Bytes: s.bytes})
	}
	for _, s := range tracked.dropped {
		out = append(out, Leak{Site: s.String(), Bytes: s.bytes, Dropped: true})
	}
	tracked.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if out[i].Site != out[j].Site {
			return out[i].Site < out[j].Site
		}
		return !out[i].Dropped && out[j].Dropped
	})
	return out
}

// ResetLeaks forgets the arrays recorded as reclaimed without a Release.
func ResetLeaks() {
	tracked.mu.Lock()
	tracked.dropped = nil
	tracked.mu.Unlock()
}

// String formats the site's frames outside package array, innermost first.
func (s *site) String() string {
	var b strings.Builder
	frames := runtime.CallersFrames(s.pcs)
	n := 0
	for {
		f, more := frames.Next()
		if !strings.HasPrefix(f.Function, "github.com/stride0/stride0/array.") && f.Function != "" {
			if n > 0 {
				b.WriteString(" <- ")
			}
			fmt.Fprintf(&b, "%s (%s:%d)", f.Function, f.File, f.Line)
			n++
		}
		if !more || n == 4 {
			break
		}
	}
	return b.String()
}
