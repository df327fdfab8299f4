package array

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
)

// allocLimit is the largest single allocation, in bytes (see SetAllocLimit).
var allocLimit atomic.Int64

func init() { allocLimit.Store(defaultAllocLimit()) }

// defaultAllocLimit is three quarters of the memory this process may use
// (the machine's, or its cgroup's limit).
func defaultAllocLimit() int64 { return physicalMemory() / 4 * 3 }

// SetAllocLimit sets the largest buffer, in bytes, that one allocation may
// ask for; larger requests return an *AllocError instead of being made. A
// limit <= 0 restores the default: three quarters of the machine's memory
// (or of the cgroup's memory limit). It returns the previous limit.
func SetAllocLimit(bytes int64) (previous int64) {
	if bytes <= 0 {
		bytes = defaultAllocLimit()
	}
	return allocLimit.Swap(bytes)
}

// AllocLimit returns the largest buffer, in bytes, that one allocation may
// ask for (see SetAllocLimit).
func AllocLimit() int64 { return allocLimit.Load() }

// addressSpaceSlack is what an allocation leaves free of the address space
// under RLIMIT_AS, for the Go runtime's own needs (its heap grows in arenas
// of 64 MiB).
const addressSpaceSlack = 128 << 20

// CheckAlloc reports whether a buffer of size bytes may be allocated: not
// over the limit (AllocLimit), and, when the process runs under an address
// space limit (ulimit -v), within what is left of it. The Go heap cannot
// report a failed allocation (the process dies), so every allocation of this
// package is checked first. The error wraps ErrAlloc.
func CheckAlloc(size int) error {
	if size < 0 {
		return &AllocError{Bytes: -1, Reason: "byte count overflows int"}
	}
	if lim := allocLimit.Load(); int64(size) > lim {
		return &AllocError{Bytes: int64(size), Reason: "more than the allocation limit of " + formatBytes(float64(lim)) + " (array.SetAllocLimit)"}
	}
	if size >= addressSpaceSlack/4 {
		left := addressSpaceLeft()
		if left < 0 {
			return nil // no address space limit
		}
		left += reusableHeap()
		if int64(size) > left-addressSpaceSlack {
			collectNow() // dropped arrays may free enough
			left = addressSpaceLeft() + reusableHeap()
		}
		if int64(size) > left-addressSpaceSlack {
			return &AllocError{Bytes: int64(size), Reason: "more than the " + formatBytes(float64(max(left, 0))) + " of address space left under the process's limit (ulimit -v)"}
		}
	}
	return nil
}

// AllocError is the error of an allocation that was refused before it was
// made: too large for the limit or for the address space left, or with an
// element or byte count that overflows. It unwraps to ErrAlloc (and to
// ErrShape for an overflowing shape). Its message follows NumPy's
// MemoryError: "unable to allocate 8 TiB for an array with shape [1048576
// 1048576] and data type float64: ...".
type AllocError struct {
	Shape  []int   // nil when the request was for a buffer of no array
	DType  DType   // Invalid when the request was for a buffer of no array
	Bytes  int64   // the bytes requested; -1 when the count overflows
	Approx float64 // the bytes requested, approximately, when Bytes is -1
	Reason string  // why it was refused
}

// Error formats the request like NumPy's MemoryError ("array: <nil
// error>" for a nil *AllocError).
func (e *AllocError) Error() string {
	if e == nil {
		return "array: <nil error>"
	}
	size := formatBytes(float64(e.Bytes))
	if e.Bytes < 0 {
		size = "more bytes than an int can count"
		if e.Approx > 0 {
			size = fmt.Sprintf("%s (more than an int can count)", formatBytes(e.Approx))
		}
	}
	what := ""
	if e.Shape != nil || e.DType.Valid() {
		what = fmt.Sprintf(" for an array with shape %v and data type %v", e.Shape, e.DType)
	}
	return fmt.Sprintf("unable to allocate %s%s: %s: %v", size, what, e.Reason, ErrAlloc)
}

// Unwrap returns ErrAlloc, and ErrShape too when the shape's element or
// byte count overflows; nil for a nil *AllocError.
func (e *AllocError) Unwrap() []error {
	if e == nil {
		return nil
	}
	if e.Bytes < 0 {
		return []error{ErrAlloc, ErrShape}
	}
	return []error{ErrAlloc}
}

// formatBytes writes a byte count like NumPy: 3 significant digits and a
// binary unit.
func formatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB", "ZiB", "YiB"}
	u := 0
	for b >= 1024 && u < len(units)-1 {
		b /= 1024
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f %s", b, units[u])
	}
	return fmt.Sprintf("%.3g %s", b, units[u])
}

// checkRequest checks the allocation of an array of shape and dtype and
// returns its element count; errors name the shape, the dtype and the bytes.
func checkRequest(op string, dt DType, shape []int) (int, error) {
	n, err := numel(shape)
	if err != nil {
		if !shapeOverflows(shape) {
			return 0, fmt.Errorf("%s %v: %w", op, shape, err)
		}
		return 0, fmt.Errorf("%s: %w", op, &AllocError{Shape: clone(shape), DType: dt, Bytes: -1, Approx: approxBytes(shape, dt), Reason: "element count overflows int"})
	}
	if n > math.MaxInt/dt.Size() {
		return 0, fmt.Errorf("%s: %w", op, &AllocError{Shape: clone(shape), DType: dt, Bytes: -1, Approx: approxBytes(shape, dt), Reason: "byte count overflows int"})
	}
	if err := CheckAlloc(n * dt.Size()); err != nil {
		e := err.(*AllocError)
		e.Shape, e.DType = clone(shape), dt
		return 0, fmt.Errorf("%s: %w", op, e)
	}
	return n, nil
}

// shapeOverflows reports whether numel failed for overflow (not for a
// negative dim).
func shapeOverflows(shape []int) bool {
	for _, d := range shape {
		if d < 0 {
			return false
		}
	}
	return true
}

func approxBytes(shape []int, dt DType) float64 {
	f := float64(dt.Size())
	for _, d := range shape {
		f *= float64(d)
	}
	return f
}

// parallel splits [0, n) into up to workers contiguous parts and runs f on
// each, on its own goroutine, returning when all are done.
func parallel(workers, n int, f func(lo, hi int)) {
	workers = max(1, min(workers, n))
	if workers == 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for k := 0; k < workers; k++ {
		lo, hi := n*k/workers, n*(k+1)/workers
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}
