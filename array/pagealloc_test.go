package array_test

import (
	"unsafe"

	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
)

func TestPageAllocator(t *testing.T) {
	a := array.NewPageAllocator()
	for _, n := range []int{0, 1, 100, array.PageAllocatorThreshold - 1, array.PageAllocatorThreshold, 3*array.PageAllocatorThreshold + 5} {
		b := a.Allocate(n)
		require.Len(t, b, n)
		if n > 1 {
			require.Zero(t, unsafePointer(b)%64, "64-byte aligned")
			require.Zero(t, b[0])
			require.Zero(t, b[n-1])
			b[0], b[n-1] = 1, 2
		}
		b = a.Reallocate(n+10, b)
		require.Len(t, b, n+10)
		if n > 1 {
			require.Equal(t, byte(1), b[0])
			require.Equal(t, byte(2), b[n-1])
		}
		a.Free(b)
	}
	// Arrays on it, checked for leaks.
	mem := memory.NewCheckedAllocator(a)
	x, err := array.Full(mem, float32(3), 2048, 1024) // 8 MiB: mapped
	require.NoError(t, err)
	s, err := array.ToSlice[float32](x)
	require.NoError(t, err)
	require.Equal(t, float32(3), s[len(s)-1])
	x.Release()
	mem.AssertSize(t, 0)
}

func unsafePointer(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }

func TestPageAllocatorRecyclesSmallBuffers(t *testing.T) {
	a := array.NewPageAllocator()
	b := a.Allocate(1000)
	for i := range b {
		b[i] = 0xFF
	}
	p := unsafePointer(b)
	a.Free(b)
	c := a.Allocate(1010) // same class: the freed buffer again, zeroed
	require.Equal(t, p, unsafePointer(c))
	for _, v := range c {
		require.Zero(t, v)
	}
	require.Zero(t, unsafePointer(c)%64)
	a.Free(c)
	// more frees than a class keeps: the extra buffers go to the GC
	var bs [][]byte
	for i := 0; i < 20; i++ {
		bs = append(bs, a.Allocate(5000))
	}
	for _, b := range bs {
		a.Free(b)
	}
	allocs := testing.AllocsPerRun(100, func() { a.Free(a.Allocate(5000)) })
	require.Zero(t, allocs)
}
