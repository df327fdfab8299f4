//go:build linux

package linalg

import (
	"math/rand"
	"syscall"
	"testing"
	"unsafe"
)

// guarded copies buf into memory between two inaccessible pages, its end
// against the second (atEnd) or its start against the first, so that a
// read past either end faults. The memory is unmapped when the test ends.
func guarded[T any](t *testing.T, buf []T, atEnd bool) []T {
	var z T
	size := len(buf) * int(unsafe.Sizeof(z))
	page := syscall.Getpagesize()
	data := (size + page - 1) / page * page
	m, err := syscall.Mmap(-1, 0, data+2*page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Munmap(m) })
	if err := syscall.Mprotect(m[:page], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mprotect(m[page+data:], syscall.PROT_NONE); err != nil {
		t.Fatal(err)
	}
	start := page
	if atEnd {
		start = page + data - size
	}
	out := unsafe.Slice((*T)(unsafe.Pointer(&m[start])), len(buf))
	copy(out, buf)
	return out
}

// TestGemmReadsInBounds runs the products of every tile kind (full tiles,
// the edge rows' kernels, padded tiles, widened float32 runs and pairs,
// whole panels a call or a tile a call)
// with A and B against inaccessible pages on either side: a kernel that
// reads rows or steps its tile does not have (a padded tile's rows read
// in place) faults.
func TestGemmReadsInBounds(t *testing.T) {
	rng := rand.New(rand.NewSource(26))
	for _, atEnd := range []bool{true, false} {
		for it := 0; it < raceIters(60); it++ {
			m, n := 1+rng.Intn(14), 1+rng.Intn(40)
			k := []int{1, 7, 257, 300, 513, 700}[rng.Intn(6)]
			la, lb := layout(rng.Intn(int(numLayouts))), layout(rng.Intn(int(numLayouts)))
			f32, f64 := gemmF32, gemmF64
			if rng.Intn(2) == 0 { // packed operands, not read in place
				f32.direct, f64.direct = 0, 0
			}
			ahead := rng.Intn(2) == 0 // a tile a call, as in a batch
			checkGemmIn[float32](t, rng, &f32, m, n, k, la, lb, func(b []float32) []float32 { return guarded(t, b, atEnd) }, ahead)
			checkGemmIn[float64](t, rng, &f64, m, n, k, la, lb, func(b []float64) []float64 { return guarded(t, b, atEnd) }, ahead)
		}
	}
}
