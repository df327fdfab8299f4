package frame

import (
	"sync"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestRecycler: a buffer freed to the recycler comes back for the next
// allocation of no more bytes, zeroed as Go's allocator gives memory
// (arrow-go's take kernels count on it), with its capacity equal to its
// size (arrow-go reads it as the size); a grow in place zeroes the new
// bytes; release gives everything back to the wrapped allocator, also
// what is freed after it, from other goroutines too.
func TestRecycler(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := newRecycler(mem)
	a := r.Allocate(1000)
	require.Len(t, a, 1000)
	require.Equal(t, 1000, cap(a))
	for i := range a {
		a[i] = 0xee
	}
	r.Free(a)
	b := r.Allocate(900) // the same buffer, zeroed
	require.Equal(t, &a[0], &b[0])
	require.Equal(t, 900, cap(b))
	for i, x := range b {
		require.Zero(t, x, "byte %d", i)
	}
	for i := range b {
		b[i] = 0xdd
	}
	// grown in place within the buffer's room: the new bytes are zero
	c := r.Reallocate(1100, b)
	require.Equal(t, &a[0], &c[0])
	require.Len(t, c, 1100)
	require.Equal(t, byte(0xdd), c[899])
	for i := 900; i < 1100; i++ {
		require.Zero(t, c[i], "byte %d", i)
	}
	// grown past it: moved, the bytes kept
	d := r.Reallocate(5000, c)
	require.Len(t, d, 5000)
	require.Equal(t, byte(0xdd), d[0])
	require.Zero(t, d[4999])
	// the smallest kept buffer that holds the bytes
	small := r.Allocate(10)
	r.Free(d)
	r.Free(small)
	e := r.Allocate(8)
	require.Equal(t, &small[0], &e[0])
	// more than recycleKeep freed: the rest go back at once
	var many [][]byte
	for i := 0; i < recycleKeep+5; i++ {
		many = append(many, r.Allocate(64+i))
	}
	for _, x := range many {
		r.Free(x)
	}
	require.LessOrEqual(t, len(r.free), recycleKeep)
	// zero-size allocations pass through
	z := r.Allocate(0)
	r.Free(z)
	// buffers out at release are given back when freed, from any goroutine
	var out [][]byte
	for i := 0; i < 8; i++ {
		out = append(out, r.Allocate(128))
	}
	r.Free(e)
	r.release()
	var wg sync.WaitGroup
	for _, x := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.Free(x)
		}()
	}
	wg.Wait()
	require.Empty(t, r.out)
}
