package array

import (
	"runtime"
	"testing"
	"time"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// Small arrays of the default page allocator carry no cleanup of their
// own (newPageHeader): dropped without Release, their buffers are freed by
// the garbage collector, and the buffers' cleanups take them off the books
// (live), so that nothing accumulates; released ones are reused.
func TestDroppedSmallPageArraysLeaveNothing(t *testing.T) {
	if debugOn.Load() {
		t.Skip("debug mode gives every array a cleanup")
	}
	p := NewPageAllocator()
	settle := func() int {
		for i := 0; i < 3; i++ {
			runtime.GC()
			time.Sleep(5 * time.Millisecond)
		}
		return live.entries()
	}
	before := settle()
	for i := 0; i < 2000; i++ {
		a, err := Full(p, float32(i), 16+i%300) // several size classes
		require.NoError(t, err)
		require.True(t, a.cleanup == (runtime.Cleanup{}), "a small page array has no cleanup")
		if i%3 == 0 {
			require.NoError(t, a.SetNull(0)) // a validity buffer from the same allocator
		}
		if i%2 == 0 {
			a.Release()
		} // else dropped
	}
	deadline := time.Now().Add(10 * time.Second)
	n := settle()
	for n > before && time.Now().Before(deadline) {
		n = settle()
	}
	require.LessOrEqual(t, n, before, "buffers of dropped arrays still on the books")

	// A released small buffer is reused; a dropped one is not, even while a
	// slice from Values still reaches it.
	a, err := Full(p, float64(7), 100)
	require.NoError(t, err)
	s, err := Values[float64](a)
	require.NoError(t, err)
	a = nil
	for i := 0; i < 3; i++ {
		runtime.GC()
	}
	for i := 0; i < 50; i++ {
		b, err := Full(p, float64(-1), 100)
		require.NoError(t, err)
		require.NotEqual(t, unsafe.Pointer(&s[0]), b.DataPointer(), "a dropped array's memory handed out again")
		b.Release()
	}
	for i, v := range s {
		require.Equal(t, float64(7), v, "element %d", i)
	}
	_ = a
}

// Every buffer a page allocator makes is forgotten by its own cleanup only:
// an entry of a newer buffer at the same address stays.
func TestForgetMatchesID(t *testing.T) {
	b := buf{make([]byte, 128), &bufState{id: 1 << 60}}
	live.register(b)
	live.add(b)
	forget(bufKey{base(b.b), b.st.id + 1})
	st, ours, _ := live.remove(b.b)
	require.True(t, ours)
	require.Equal(t, b.st, st)
	_, ours, _ = live.remove(b.b)
	require.False(t, ours, "a second Free")
	live.add(b)
	forget(bufKey{base(b.b), b.st.id})
	_, ours, _ = live.remove(b.b)
	require.False(t, ours)
}
