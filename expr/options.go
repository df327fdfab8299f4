package expr

import (
	"runtime"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
)

// Bindings maps variable names to the arrays they stand for in one
// evaluation.
type Bindings map[string]*array.Array

// Option configures compilation and evaluation.
type Option func(*options)

type options struct {
	mem     memory.Allocator
	workers int
	tile    int
	tileSet bool // WithTileSize gave the tile: every pass uses it as given
	bind    Bindings
}

// DefaultTile is the default number of elements evaluated per tile: a few
// scratch registers of this many float64 stay in a 48 KiB L1 data cache.
// Unless WithTileSize sets the tile, a pass whose values are all narrower
// takes more elements a tile, as many as fill the same 8 KiB a register
// (2048 float32s, 8192 int8s): fewer calls per element, the same cache.
const DefaultTile = 1024

// MaxTile is the largest tile WithTileSize accepts; larger requests are
// clamped to it. A pass never uses a tile longer than its own element
// count, so its scratch (a few registers of tile 8-byte elements) is bounded
// by both.
const MaxTile = 1 << 20

// minTile is the smallest tile: shorter ones cost more in calls than they
// save in cache.
const minTile = 16

// minParallel is the output size below which evaluation stays on the
// calling goroutine: starting workers costs more than the work.
const minParallel = 1 << 16

// minPerWorker is the least number of elements a worker is given: a pass of
// n elements uses at most n/minPerWorker goroutines.
const minPerWorker = 1 << 13

// oversubscribe is the number of goroutines a pass may use even when
// GOMAXPROCS is smaller, so that splits stay exercised on small machines.
const oversubscribe = 8

// maxWorkers is the most goroutines one pass starts: GOMAXPROCS (more
// cannot run at once), or oversubscribe if that is larger.
func maxWorkers() int { return max(runtime.GOMAXPROCS(0), oversubscribe) }

func makeOptions(opts []Option) options {
	o := options{mem: array.DefaultAllocator, workers: runtime.GOMAXPROCS(0), tile: DefaultTile}
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	o.workers = max(1, min(o.workers, maxWorkers()))
	o.tile = min(max(o.tile, minTile), MaxTile)
	return o
}

// WithAllocator sets where result arrays and temporaries come from
// (array.DefaultAllocator, a PageAllocator, when not given).
func WithAllocator(mem memory.Allocator) Option {
	return func(o *options) {
		if mem != nil {
			o.mem = mem
		}
	}
}

// WithWorkers sets how many goroutines evaluate one expression: 1 is
// sequential; the default is GOMAXPROCS; n < 1 keeps the default. The
// request is an upper bound, clamped to the work and the machine: a pass
// uses at most max(GOMAXPROCS, 8) goroutines, at most one per 8192
// elements, and one for outputs under 65536 elements, whatever n is.
func WithWorkers(n int) Option {
	return func(o *options) {
		if n >= 1 {
			o.workers = n
		}
	}
}

// WithTileSize sets the number of elements evaluated per tile in every pass
// (default DefaultTile, scaled up for narrow types). n < 1 keeps the
// default; other values are clamped to [16, MaxTile], and a pass uses no
// longer a tile than its element count.
func WithTileSize(n int) Option {
	return func(o *options) {
		if n >= 1 {
			o.tile, o.tileSet = n, true
		}
	}
}

// WithBindings binds variables for Eval and EvalInto (a Plan takes its
// bindings per call instead).
func WithBindings(b Bindings) Option {
	return func(o *options) { o.bind = b }
}
