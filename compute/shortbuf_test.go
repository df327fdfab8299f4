package compute_test

import (
	"slices"
	"testing"

	"github.com/stride0/stride0/compute"
)

// TestShortBuffers: the slice kernels follow copy's rule when an output is
// shorter than the input (they do as much as fits) and replace short
// scratch with their own, instead of panicking on a slice bound; bits and
// indices past the input select nothing. Found by the API sweep
// (internal/apisweep).
func TestShortBuffers(t *testing.T) {
	src := []uint64{5, 3, 9, 1, 7}

	// CompressMask: bits past len(src) select nothing; a full dst stops it.
	dst := make([]uint64, 8)
	if k := compute.CompressMask(dst, src, []uint64{^uint64(0), ^uint64(0)}); k != 5 || !slices.Equal(dst[:5], src) {
		t.Errorf("CompressMask past src: %d %v", k, dst)
	}
	short := make([]uint64, 2)
	if k := compute.CompressMask(short, src, []uint64{0b11110}); k != 2 || !slices.Equal(short, []uint64{3, 9}) {
		t.Errorf("CompressMask into short dst: %d %v", k, short)
	}
	big := make([]float64, 200)
	for i := range big {
		big[i] = float64(i)
	}
	out := make([]float64, 70)
	if k := compute.CompressMask(out, big, []uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}); k != 70 || out[69] != 69 {
		t.Errorf("CompressMask of words into short dst: %d %v", k, out[60:])
	}
	if k := compute.CompressMask(nil, src, []uint64{1 << 62}); k != 0 {
		t.Errorf("CompressMask into nil: %d", k)
	}

	// TakeBits: only the first len(dst) indices are taken.
	tk := make([]uint64, 2)
	if bad := compute.TakeBits(tk, src, []int64{4, 0, 2}); bad != -1 || !slices.Equal(tk, []uint64{7, 5}) {
		t.Errorf("TakeBits into short dst: %d %v", bad, tk)
	}
	if bad := compute.TakeBits(nil, src, []int64{-1, 1 << 62}); bad != -1 {
		t.Errorf("TakeBits into nil: %d", bad)
	}

	// SortBits: sorts src[:len(dst)]; a short tmp is replaced.
	sd := make([]uint64, 3)
	compute.SortBits(sd, src, nil, compute.KeyUnsigned)
	if !slices.Equal(sd, []uint64{3, 5, 9}) {
		t.Errorf("SortBits into short dst: %v", sd)
	}
	long := make([]uint32, 1000)
	for i := range long {
		long[i] = uint32(997 * i % 1000)
	}
	sl := make([]uint32, len(long))
	compute.SortBits(sl, long, nil, compute.KeyUnsigned)
	if !slices.IsSorted(sl) {
		t.Errorf("SortBits with nil tmp: not sorted")
	}

	// ArgsortBits: the order of src[:len(idx)]; short scratch replaced.
	idx := make([]int64, 3)
	compute.ArgsortBits(idx, src, compute.KeyUnsigned, nil)
	if !slices.Equal(idx, []int64{1, 0, 2}) {
		t.Errorf("ArgsortBits into short idx: %v", idx)
	}
	for _, n := range []int{5, 1000} {
		s64 := make([]uint64, n)
		for i := range s64 {
			s64[i] = uint64(997 * i % n)
		}
		ix := make([]int64, n)
		compute.ArgsortBits(ix, s64, compute.KeyUnsigned, nil)
		for i := 1; i < n; i++ {
			if s64[ix[i-1]] > s64[ix[i]] {
				t.Fatalf("ArgsortBits n=%d with nil scratch: not sorted at %d", n, i)
			}
		}
		ix32 := make([]int64, n)
		s32 := make([]uint32, n)
		for i := range s32 {
			s32[i] = uint32(s64[i])
		}
		compute.ArgsortBits(ix32, s32, compute.KeyUnsigned, nil)
		for i := 1; i < n; i++ {
			if s32[ix32[i-1]] > s32[ix32[i]] {
				t.Fatalf("ArgsortBits uint32 n=%d with nil scratch: not sorted at %d", n, i)
			}
		}
	}
}

// TestMomentsNil: Push on a nil *Moments, MergeRows on a nil
// *LaneMoments do nothing, and Lane of a nil or zero LaneMoments, or of a
// lane outside it, is the zero Moments. Found by the API sweep.
func TestMomentsNil(t *testing.T) {
	var m *compute.Moments
	m.Push(1)
	var l *compute.LaneMoments
	l.MergeRows32(nil, nil, nil, nil)
	l.MergeRows64(nil, nil, nil, nil)
	if got := l.Lane(0); got != (compute.Moments{}) {
		t.Errorf("nil Lane(0) = %+v", got)
	}
	var z compute.LaneMoments
	for _, i := range []int{-1, 0, 1 << 62} {
		if got := z.Lane(i); got != (compute.Moments{}) {
			t.Errorf("zero Lane(%d) = %+v", i, got)
		}
	}
	two := compute.LaneMoments{Count: 1, Mean: []float64{1, 2}, M2: []float64{0, 0}}
	if got := two.Lane(1); got.Mean != 2 || got.Count != 1 {
		t.Errorf("Lane(1) = %+v", got)
	}
	if got := two.Lane(2); got != (compute.Moments{}) {
		t.Errorf("Lane(2) of 2 lanes = %+v", got)
	}
}
