//go:build amd64 && !noasm

package compute

import "unsafe"

//go:noescape
func take1Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int

//go:noescape
func take2Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int

//go:noescape
func take4Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int

//go:noescape
func take8Prefetch(dst, src unsafe.Pointer, n int, idx, ahead *int64, m int) int

// takeAhead is how many indices ahead of the gather the assembly
// prefetches: 16, 32 and 64 measured within noise of each other on the
// vocab harness's 4M indices into 16M elements, 32 a little ahead.
const takeAhead = 32

// takeFast gathers a prefix of idx (all but the last takeAhead or so
// indices, whose sources the kernel has prefetched) with the prefetching
// assembly, stopping at the first index outside [-len(src), len(src));
// it returns how many elements of dst it wrote. dst holds len(idx)
// elements.
func takeFast[K SortKey](dst, src []K, idx []int64) int {
	m := (len(idx) - takeAhead) &^ 3
	if m <= 0 || len(src) == 0 {
		return 0
	}
	// the m indices gathered, the m prefetched and the m elements written
	// (slicing checks that they are inside idx and dst)
	x, ahead, d := &idx[:m][0], &idx[takeAhead : takeAhead+m][0], unsafe.Pointer(&dst[:m][0])
	s, n := unsafe.Pointer(unsafe.SliceData(src)), len(src)
	switch unsafe.Sizeof(K(0)) {
	case 1:
		return take1Prefetch(d, s, n, x, ahead, m)
	case 2:
		return take2Prefetch(d, s, n, x, ahead, m)
	case 4:
		return take4Prefetch(d, s, n, x, ahead, m)
	default:
		return take8Prefetch(d, s, n, x, ahead, m)
	}
}
