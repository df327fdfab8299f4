package compute

import "unsafe"

// TakeBits gathers src[idx[k]] into dst[k] for elements of K's width
// (numpy.take of a 1-D src): a negative index counts from the end of src.
// It returns -1, or the position in idx of the first index outside
// [-len(src), len(src)), in which case dst is written only before it.
// dst holds at least len(idx) elements and does not overlap idx; as copy
// does, only the first len(dst) indices are taken from a longer idx.
//
// One pass, bounds checked per index by one unsigned comparison (the
// negative ones take a second). On amd64 an assembly loop does all but the
// last few indices, prefetching the source of the index a few dozen
// places ahead so that many cache misses overlap (takeFast); Go's loop
// does the rest.
func TakeBits[K SortKey](dst, src []K, idx []int64) int {
	idx = idx[:min(len(idx), len(dst))]
	dst = dst[:len(idx)]
	k := takeFast(dst, src, idx)
	if bad := takeGo(dst[k:], src, idx[k:]); bad >= 0 {
		return k + bad
	}
	return -1
}

// takeGo is TakeBits' Go loop.
func takeGo[K SortKey](dst, src []K, idx []int64) int {
	n := int64(len(src))
	p := unsafe.Pointer(unsafe.SliceData(src))
	sz := unsafe.Sizeof(K(0))
	dst = dst[:len(idx)]
	for k, i := range idx {
		if uint64(i) >= uint64(n) {
			if i < -n || i >= n {
				return k
			}
			i += n
		}
		dst[k] = *(*K)(unsafe.Add(p, uintptr(i)*sz))
	}
	return -1
}
