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
	bind    Bindings
}

// DefaultTile is the default number of elements evaluated per tile: a few
// scratch registers of this many float64 stay in a 48 KiB L1 data cache.
const DefaultTile = 1024

// minParallel is the output size below which evaluation stays on the
// calling goroutine: starting workers costs more than the work.
const minParallel = 1 << 16

func makeOptions(opts []Option) options {
	o := options{mem: array.DefaultAllocator, workers: runtime.GOMAXPROCS(0), tile: DefaultTile}
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
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
// sequential; the default is GOMAXPROCS. Small outputs use one goroutine
// whatever the setting.
func WithWorkers(n int) Option {
	return func(o *options) {
		if n >= 1 {
			o.workers = n
		}
	}
}

// WithTileSize sets the number of elements evaluated per tile (default
// DefaultTile; at least 16).
func WithTileSize(n int) Option {
	return func(o *options) {
		if n >= 16 {
			o.tile = n
		}
	}
}

// WithBindings binds variables for Eval and EvalInto (a Plan takes its
// bindings per call instead).
func WithBindings(b Bindings) Option {
	return func(o *options) { o.bind = b }
}
