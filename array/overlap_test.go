package array

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// bruteOverlaps enumerates every index of (shape, strides) and reports
// whether two reach one offset.
func bruteOverlaps(shape, strides []int) bool {
	n := 1
	for _, d := range shape {
		n *= d
	}
	seen := map[int]bool{}
	idx := make([]int, len(shape))
	for e := 0; e < n; e++ {
		off := 0
		for k, i := range idx {
			off += i * strides[k]
		}
		if seen[off] {
			return true
		}
		seen[off] = true
		for k := len(idx) - 1; k >= 0; k-- {
			idx[k]++
			if idx[k] < shape[k] {
				break
			}
			idx[k] = 0
		}
	}
	return false
}

// TestSelfOverlapsRandom compares the decision with enumeration on random
// small layouts, where it must be exact.
func TestSelfOverlapsRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	counts := [2]int{}
	for it := 0; it < 200000; it++ {
		rank := r.IntN(6)
		shape := make([]int, rank)
		strides := make([]int, rank)
		for k := range shape {
			shape[k] = r.IntN(6)
			if r.IntN(10) > 0 && shape[k] == 0 {
				shape[k] = 1 + r.IntN(5)
			}
			strides[k] = r.IntN(41) - 20
			if r.IntN(4) == 0 {
				strides[k] = r.IntN(7) - 3
			}
		}
		want := bruteOverlaps(shape, strides)
		got := selfOverlaps(shape, strides)
		if got != want {
			t.Fatalf("shape %v strides %v: selfOverlaps = %v, enumeration says %v", shape, strides, got, want)
		}
		if want {
			counts[1]++
		} else {
			counts[0]++
		}
	}
	require.Greater(t, counts[0], 10000, "too few non-overlapping cases")
	require.Greater(t, counts[1], 10000, "too few overlapping cases")
}

func TestSelfOverlapsCases(t *testing.T) {
	for _, c := range []struct {
		shape, strides []int
		want           bool
	}{
		{[]int{3, 3}, []int{1, 1}, true},  // the report's view
		{[]int{3, 3}, []int{3, 1}, false}, // contiguous
		{[]int{3, 3}, []int{1, 3}, false}, // transposed
		{[]int{3, 3}, []int{-3, -1}, false},
		{[]int{2, 3}, []int{3, 2}, false}, // interleaved, fails the quick test, exact says no
		{[]int{3, 3}, []int{3, 2}, false}, // 0 2 4 3 5 7 6 8 10
		{[]int{3, 4}, []int{3, 2}, true},  // 2*3 = 3*2
		{[]int{4, 1, 5}, []int{0, 7, 1}, true},
		{[]int{4, 1, 5}, []int{9, 0, 1}, false},
		{[]int{0, 5}, []int{0, 0}, false},
		{[]int{}, []int{}, false},
		{[]int{1 << 20, 3}, []int{2, 3}, true},              // pigeonhole over a large span
		{[]int{1 << 12, 1 << 12}, []int{1 << 12, 1}, false}, // large, nested
		{[]int{1 << 11, 1 << 12}, []int{1, 1 << 11}, false}, // large transpose
		{[]int{3, 1 << 21}, []int{1 << 21, 2}, true},        // large span, not nested (and 2^21 = 2*2^20)
		{[]int{2, 1 << 20}, []int{3, 2}, true},              // no overlap (odd and even offsets), but past the exact bound: conservative
		{[]int{2, 1 << 18}, []int{3, 2}, false},             // the same within the bound: exact
		{[]int{2, 2}, []int{1 << 62, 1 << 62}, true},        // equal strides
		{[]int{2, 3}, []int{1 << 62, 1 << 62}, true},        // span overflows int
		{[]int{5, 7, 11}, []int{77, 11, 1}, false},          // contiguous
		{[]int{5, 7, 11}, []int{-1, 55, 5}, false},          // a permuted contiguous
		{[]int{2, 2, 2}, []int{4, 3, 2}, false},             // 0 2 3 5 4 6 7 9
		{[]int{2, 2, 2}, []int{4, 3, 1}, true},              // 4 = 3 + 1
	} {
		require.Equal(t, c.want, selfOverlaps(c.shape, c.strides), "shape %v strides %v", c.shape, c.strides)
	}
}

// TestViewSelfOverlapReadOnly is the report's reproduction: a [3 3] view
// with strides [1 1] over a 9-element array was writable.
func TestViewSelfOverlapReadOnly(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	z, err := New(mem, Float32, 9)
	require.NoError(t, err)
	defer z.Release()
	v, err := z.View([]int{3, 3}, []int{1, 1}, 0)
	require.NoError(t, err)
	defer v.Release()
	require.True(t, v.ReadOnly())
	err = Set(v, float32(1), 1, 0)
	require.True(t, errors.Is(err, ErrReadOnly), "%v", err)
	require.True(t, errors.Is(v.SetNull(0, 1), ErrReadOnly))
	require.Equal(t, []float32{0, 0, 0, 0, 0, 0, 0, 0, 0}, typed[float32](z.data)[:9])
	// the same elements without overlap stay writable
	w, err := z.View([]int{3, 3}, []int{1, 3}, 0)
	require.NoError(t, err)
	defer w.Release()
	require.False(t, w.ReadOnly())
	require.NoError(t, Set(w, float32(5), 1, 0))
	require.False(t, z.ReadOnly())
	require.True(t, (*Array)(nil).ReadOnly())
}
