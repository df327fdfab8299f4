package array_test

import (
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

// waitFreed runs the garbage collector until mem has nothing outstanding
// (the cleanups of dropped arrays have run) or a few seconds have passed.
func waitFreed(t *testing.T, mem *memory.CheckedAllocator) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for mem.CurrentAlloc() != 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	mem.AssertSize(t, 0)
}

// makeDropped makes arrays of every kind on mem and drops them without
// Release; it returns nothing that reaches them.
func makeDropped(t *testing.T, mem memory.Allocator) {
	big := array.PageAllocatorThreshold/8 + 1000 // a large buffer
	a, err := array.New(mem, array.Float64, big)
	require.NoError(t, err)
	v, err := a.View([]int{10}, []int{3}, 5) // a view that outlives its base's Release
	require.NoError(t, err)
	a.Release()
	require.True(t, v.Live())
	s, err := array.FromSliceValid(mem, []int32{1, 2, 3}, []bool{true, false, true})
	require.NoError(t, err)
	require.NoError(t, s.SetNull(0))
	f, err := array.Full(mem, float32(2), 3, 4)
	require.NoError(t, err)
	c, err := array.Copy(nil, s)
	require.NoError(t, err)
	f.Retain() // an extra reference that nobody gives back
	r, err := array.Arange(mem, array.Int16, 0, 10, 1)
	require.NoError(t, err)
	for _, x := range []*array.Array{v, s, f, c, r} {
		require.True(t, x.Live())
	}
}

func TestDroppedArraysReclaimed(t *testing.T) {
	for name, under := range map[string]memory.Allocator{"page": array.NewPageAllocator(), "go": memory.NewGoAllocator()} {
		t.Run(name, func(t *testing.T) {
			mem := memory.NewCheckedAllocator(under)
			makeDropped(t, mem)
			require.NotZero(t, mem.CurrentAlloc())
			waitFreed(t, mem)
		})
	}
}

func TestReleaseThenDropDoesNotDoubleFree(t *testing.T) {
	mem := memory.NewCheckedAllocator(array.NewPageAllocator())
	for i := 0; i < 50; i++ {
		a, err := array.Full(mem, int64(i), 100)
		require.NoError(t, err)
		v, err := a.View([]int{2}, []int{1}, 0)
		require.NoError(t, err)
		a.Release()
		a.Release() // a no-op
		a.Retain()  // a no-op: released arrays stay released
		require.ErrorIs(t, array.Check(a), array.ErrReleased)
		_, err = array.Values[int64](a)
		require.ErrorIs(t, err, array.ErrReleased)
		if i%2 == 0 {
			v.Release() // released, then dropped
		} // else dropped live
	}
	waitFreed(t, mem)
	assert.Zero(t, mem.CurrentAlloc())
}

// A slice from Values outlives an array the program dropped: its memory is
// never handed to another array while the slice can reach it.
func TestValuesOutlivesDroppedArray(t *testing.T) {
	for _, n := range []int{100, array.PageAllocatorThreshold / 8 * 3} {
		mem := memory.NewCheckedAllocator(array.NewPageAllocator())
		s := droppedValues(t, mem, n)
		waitFreed(t, mem) // the array's cleanup ran and freed its buffer
		var others []*array.Array
		for i := 0; i < 20; i++ {
			o, err := array.Full(mem, float64(-1), n)
			require.NoError(t, err)
			ov, _ := array.Values[float64](o)
			require.NotEqual(t, unsafe.Pointer(&ov[0]), unsafe.Pointer(&s[0]), "size %d: a new array reuses a dropped array's memory", n)
			others = append(others, o)
			if i%2 == 0 {
				o.Release()
			}
		}
		for i, x := range s {
			if x != float64(i) {
				t.Fatalf("size %d: element %d of the slice changed to %v", n, i, x)
			}
		}
		for _, o := range others {
			o.Release()
		}
		runtime.KeepAlive(s)
	}
}

func droppedValues(t *testing.T, mem memory.Allocator, n int) []float64 {
	a, err := array.Arange(mem, array.Float64, 0, float64(n), 1)
	require.NoError(t, err)
	s, err := array.Values[float64](a)
	require.NoError(t, err)
	return s
}

func TestReleasedBufferIsReused(t *testing.T) {
	mem := array.NewPageAllocator()
	th := array.PageAllocatorThreshold
	for _, n := range []int{100, th/4 - 1, th / 4, th/4 + 1, th / 4 * 3} { // float32: bytes around the threshold
		a, err := array.Full(mem, float32(5), n)
		require.NoError(t, err)
		p := a.DataPointer()
		a.Release()
		b, err := array.New(mem, array.Float32, n) // the same buffer, zeroed
		require.NoError(t, err)
		require.Equal(t, p, b.DataPointer(), "%d elements", n)
		vals, _ := array.Values[float32](b)
		for i, v := range vals {
			if v != 0 {
				t.Fatalf("element %d of a reused buffer from New is %v", i, v)
			}
		}
		b.Release()
	}
	n := th / 4 * 3
	a, err := array.Empty(mem, array.Float32, n)
	require.NoError(t, err)
	p := a.DataPointer()
	a.Release()
	b, err := array.Empty(mem, array.Float32, n-1000) // close enough in size: reused
	require.NoError(t, err)
	require.Equal(t, p, b.DataPointer())
	b.Release()
	c, err := array.Empty(mem, array.Float32, 2*n) // too large for it: a new one
	require.NoError(t, err)
	require.NotEqual(t, p, c.DataPointer())
	c.Release()
}

func TestMemDebugPoisonsReleasedBuffersAndListsLeaks(t *testing.T) {
	prev := array.SetMemDebug(true)
	defer array.SetMemDebug(prev)
	array.ResetLeaks()
	for _, n := range []int{100, array.PageAllocatorThreshold / 8 * 2} {
		a, err := array.Full(nil, float64(1), n)
		require.NoError(t, err)
		s, _ := array.Values[float64](a)
		a.Release()
		require.True(t, math.IsNaN(s[0]) && math.IsNaN(s[n-1]), "released buffer not poisoned")
		b, err := array.Full(nil, float64(2), n)
		require.NoError(t, err)
		bs, _ := array.Values[float64](b)
		require.NotEqual(t, unsafe.Pointer(&bs[0]), unsafe.Pointer(&s[0]), "a released buffer was reused in debug mode")
		require.True(t, math.IsNaN(s[n/2]))
		b.Release()
	}

	kept, err := array.New(nil, array.Int8, 7)
	require.NoError(t, err)
	dropLeak(t)
	var leaks []array.Leak
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
		leaks = array.Leaks()
		if countLeaks(leaks, true) > 0 {
			break
		}
	}
	require.Equal(t, 1, countLeaks(leaks, false), "%v", leaks)
	require.Equal(t, 1, countLeaks(leaks, true), "%v", leaks)
	for _, l := range leaks {
		if strings.Contains(l.Site, "reclaim_test.go") {
			assert.Equal(t, map[bool]int{false: 7, true: 24}[l.Dropped], l.Bytes, l.String())
			if l.Dropped {
				assert.Contains(t, l.Site, "dropLeak", l.String())
			}
		}
	}
	kept.Release()
	assert.Equal(t, 0, countLeaks(array.Leaks(), false))
	array.ResetLeaks()
	assert.Equal(t, 0, countLeaks(array.Leaks(), true))
}

func dropLeak(t *testing.T) {
	_, err := array.New(nil, array.Int64, 3)
	require.NoError(t, err)
}

// countLeaks counts the leaks made by this file, live or dropped.
func countLeaks(ls []array.Leak, dropped bool) int {
	n := 0
	for _, l := range ls {
		if l.Dropped == dropped && strings.Contains(l.Site, "reclaim_test.go") {
			n++
		}
	}
	return n
}

func TestAllocationRequestsChecked(t *testing.T) {
	a, err := array.New(nil, array.Float64, 1<<49)
	require.Error(t, err)
	assert.Nil(t, a)
	require.ErrorIs(t, err, array.ErrAlloc)
	var ae *array.AllocError
	require.True(t, errors.As(err, &ae))
	assert.Equal(t, []int{1 << 49}, ae.Shape)
	assert.Equal(t, array.Float64, ae.DType)
	assert.Equal(t, int64(1)<<52, ae.Bytes)
	assert.Contains(t, err.Error(), "unable to allocate 4 PiB for an array with shape [562949953421312] and data type float64")

	// overflow: ErrShape as before, and ErrAlloc
	_, err = array.New(nil, array.Int64, math.MaxInt/4)
	require.ErrorIs(t, err, array.ErrShape)
	require.ErrorIs(t, err, array.ErrAlloc)
	assert.Contains(t, err.Error(), "data type int64")
	_, err = array.Empty(nil, array.Int8, 1<<40, 1<<40)
	require.ErrorIs(t, err, array.ErrAlloc)
	assert.Contains(t, err.Error(), "1 YiB")

	// every constructor, under a small limit
	prev := array.SetAllocLimit(1 << 20)
	defer array.SetAllocLimit(prev)
	assert.Equal(t, int64(1<<20), array.AllocLimit())
	mem := memory.NewCheckedAllocator(array.NewPageAllocator())
	ok, err := array.New(mem, array.Float64, 1<<17)
	require.NoError(t, err)
	for name, f := range map[string]func() (*array.Array, error){
		"New":       func() (*array.Array, error) { return array.New(mem, array.Float64, 1<<17+1) },
		"Empty":     func() (*array.Array, error) { return array.Empty(mem, array.Int32, 1024, 1024) },
		"FromSlice": func() (*array.Array, error) { return array.FromSlice(mem, make([]int64, 1<<17+1)) },
		"Full":      func() (*array.Array, error) { return array.Full(mem, int16(1), 1<<19+1) },
		"Arange":    func() (*array.Array, error) { return array.Arange(mem, array.Float32, 0, 1<<19, 1) },
		"Copy": func() (*array.Array, error) {
			v, err := ok.View([]int{2, 1 << 17}, []int{0, 1}, 0)
			require.NoError(t, err)
			defer v.Release()
			return array.Copy(nil, v)
		},
	} {
		x, err := f()
		require.ErrorIs(t, err, array.ErrAlloc, name)
		assert.Nil(t, x, name)
		assert.Contains(t, err.Error(), "allocation limit of 1 MiB", name)
	}
	assert.Nil(t, array.NewPageAllocator().Allocate(1<<20+1), "the allocator refuses too")
	ok.Release()
	mem.AssertSize(t, 0)
	array.SetAllocLimit(0)
	assert.Equal(t, prev, array.AllocLimit(), "0 restores the default")
}

// A zeroed header (not made by a constructor) is a released array, not a
// fault.
func TestZeroedHeaderIsReleased(t *testing.T) {
	var z array.Array
	z.Retain()
	z.Release()
	z.Release()
	assert.False(t, z.Live())
	require.ErrorIs(t, array.Check(&z), array.ErrReleased)
	_, err := array.Values[float64](&z)
	require.ErrorIs(t, err, array.ErrReleased)
	_, err = z.View([]int{1}, []int{1}, 0)
	require.ErrorIs(t, err, array.ErrReleased)
	_, err = array.Copy(nil, &z)
	require.ErrorIs(t, err, array.ErrReleased)
}
