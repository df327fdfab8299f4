package apisweep

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/apisweep/listing"
)

// sweepCase is one generated call. Any panic fails it: no exported
// function or method has a documented panic (DESIGN.md, Errors and
// panics).
type sweepCase struct {
	name string
	fn   func()
}

// sweepSkip is a call the generator does not make, with the reason.
type sweepSkip struct{ name, reason string }

var (
	callTimeout        = 5 * time.Second
	allocBound  uint64 = 256 << 20 // bytes one call may allocate
)

// sweepArray is a valid 2x3 float64 array (0..5).
func sweepArray() *array.Array {
	a, err := array.Arange(nil, array.Float64, 0, 6, 1)
	if err != nil {
		panic(err)
	}
	v, err := a.View([]int{2, 3}, array.ContiguousStrides([]int{2, 3}), 0)
	if err != nil {
		panic(err)
	}
	a.Release()
	return v
}

// sweepReleased is a 2x3 float64 array already released.
func sweepReleased() *array.Array {
	a := sweepArray()
	a.Release()
	return a
}

// sweepScalar is a 0-d float64 array.
func sweepScalar() *array.Array {
	a, err := array.Full(nil, 1.5)
	if err != nil {
		panic(err)
	}
	return a
}

// globals are the package-level settings that a swept setter may change;
// restore puts them back after each call.
type globals struct {
	allocLimit int64
	memDebug   bool
	reuseBytes int64
	reuseDecay time.Duration
	hugePages  bool
}

func saveGlobals() globals {
	var g globals
	g.allocLimit = array.AllocLimit()
	g.memDebug = array.SetMemDebug(false)
	array.SetMemDebug(g.memDebug)
	g.reuseBytes, g.reuseDecay = array.SetReuse(0, 0)
	array.SetReuse(g.reuseBytes, g.reuseDecay)
	g.hugePages = array.SetHugePages(false)
	array.SetHugePages(g.hugePages)
	return g
}

func (g globals) restore() {
	array.SetAllocLimit(g.allocLimit)
	array.SetMemDebug(g.memDebug)
	array.SetReuse(g.reuseBytes, g.reuseDecay)
	array.SetHugePages(g.hugePages)
}

type outcome struct {
	panicked bool
	value    any
	stack    []byte
}

// call runs fn on a goroutine of its own under a recover; it reports a
// panic, a call still running after callTimeout, and a call that
// allocated more than allocBound bytes.
func call(c sweepCase) (msg string) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	done := make(chan outcome, 1)
	go func() {
		o := outcome{panicked: true}
		defer func() {
			if o.panicked {
				o.value = recover()
				o.stack = debug.Stack()
			}
			done <- o
		}()
		c.fn()
		o.panicked = false
	}()
	select {
	case o := <-done:
		if o.panicked {
			return fmt.Sprintf("panic: %v\n%s", o.value, o.stack)
		}
	case <-time.After(callTimeout):
		return fmt.Sprintf("still running after %v", callTimeout)
	}
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > allocBound {
		return fmt.Sprintf("allocated %d bytes (bound %d)", d, allocBound)
	}
	return ""
}

func runCases(t *testing.T, cases []sweepCase) {
	g := saveGlobals()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer g.restore()
			if msg := call(c); msg != "" {
				t.Errorf("%s: %s", c.name, msg)
			}
		})
	}
}

// TestSweepZero calls every exported function and method with zero
// values, on nil and zero-valued receivers.
func TestSweepZero(t *testing.T) { runCases(t, sweepZero) }

// TestSweepHostile calls them with -1 and 1<<62 for integers and with
// released and 0-d arrays.
func TestSweepHostile(t *testing.T) { runCases(t, sweepHostile) }

// TestSweepSkipped lists what the sweep does not call, and why.
func TestSweepSkipped(t *testing.T) {
	for _, s := range sweepSkipped {
		if s.reason == "" {
			t.Errorf("%s skipped without a reason", s.name)
		}
		t.Logf("skipped %s: %s", s.name, s.reason)
	}
}

// TestSweepListing fails when the exported API differs from the listing
// the sweep was generated from: a new exported function or method has no
// entry (or one is gone). Run go generate in internal/apisweep.
func TestSweepListing(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root: %v", err)
	}
	keys, err := listing.List(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range keys {
		if _, found := slices.BinarySearch(sweepListing, k); !found {
			t.Errorf("%s has no sweep entry: sweep_gen_test.go is stale; run go generate in internal/apisweep", k)
		}
	}
	for _, k := range sweepListing {
		if _, found := slices.BinarySearch(keys, k); !found {
			t.Errorf("%s is swept but no longer exported: sweep_gen_test.go is stale; run go generate in internal/apisweep", k)
		}
	}
}

var sink []byte

// TestCallHarness: the harness reports a panic (the package's own
// message as well as a runtime error: none is documented), a blocked call
// and an allocation past the bound.
func TestCallHarness(t *testing.T) {
	if msg := call(sweepCase{name: "x.F", fn: func() { panic("boom") }}); !strings.HasPrefix(msg, "panic: boom") {
		t.Errorf("panic: %q", msg)
	}
	var p *int
	if msg := call(sweepCase{name: "array.F", fn: func() { _ = *p }}); !strings.Contains(msg, "nil pointer") {
		t.Errorf("runtime error: %q", msg)
	}
	if msg := call(sweepCase{name: "array.F", fn: func() { panic("array: index out of range") }}); !strings.HasPrefix(msg, "panic: array: index out of range") {
		t.Errorf("the package's own panic: %q", msg)
	}
	defer func(d time.Duration, b uint64) { callTimeout, allocBound = d, b }(callTimeout, allocBound)
	callTimeout, allocBound = 50*time.Millisecond, 1<<20
	block := make(chan struct{})
	defer close(block)
	if msg := call(sweepCase{name: "x.F", fn: func() { <-block }}); !strings.HasPrefix(msg, "still running") {
		t.Errorf("blocked: %q", msg)
	}
	if msg := call(sweepCase{name: "x.F", fn: func() { sink = make([]byte, 4<<20) }}); !strings.HasPrefix(msg, "allocated") {
		t.Errorf("allocation: %q", msg)
	}
}
