package array

import (
	"runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLargeReuseBoundedByBytesAndTime(t *testing.T) {
	pb, pd := SetReuse(5<<20, 50*time.Millisecond)
	defer SetReuse(pb, pd)
	p := NewPageAllocator().(*pageAllocator)
	a, b := p.Allocate(2<<20), p.Allocate(2<<20)
	c := p.Allocate(2 << 20)
	p.Free(a)
	p.Free(b)
	n, bytes := p.large.stats()
	require.Equal(t, 2, n)
	require.Equal(t, int64(4<<20), bytes)
	p.Free(c) // over 5 MiB: the oldest goes
	n, bytes = p.large.stats()
	require.Equal(t, 2, n)
	require.Equal(t, int64(4<<20), bytes)
	d := p.Allocate(2<<20 - 100) // reuses the newest fitting buffer
	require.Equal(t, base(c), base(d))
	p.Free(d)
	deadline := time.Now().Add(5 * time.Second)
	for n > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		n, bytes = p.large.stats()
	}
	require.Zero(t, n, "released buffers not given back after the decay")
	require.Zero(t, bytes)

	SetReuse(0, -1) // reuse off
	e := p.Allocate(2 << 20)
	p.Free(e)
	n, _ = p.large.stats()
	require.Zero(t, n)
	p.Free(e) // a double free is a no-op
}

func TestTouchPagesKeepsContents(t *testing.T) {
	b := alignedBytes(8 << 20).b
	for i := 0; i < len(b); i += 3 << 20 {
		b[i] = 7 // some pages mapped with data
	}
	touchPages(b, 2)
	for i := range b {
		want := byte(0)
		if i%(3<<20) == 0 {
			want = 7
		}
		if b[i] != want {
			t.Fatalf("byte %d is %d", i, b[i])
		}
	}
}

// Fresh large buffers get the huge page advice; where the runtime had
// already faulted the memory in (heap memory it reuses), the interior is
// dropped and reads as zero again, as Allocate promises. Contents are
// checked with the advice on and off, over memory the previous round
// dirtied and gave back to the collector.
func TestHugePageAdviceKeepsZeroes(t *testing.T) {
	pb, pd := SetReuse(0, -1) // every large buffer fresh
	defer SetReuse(pb, pd)
	defer SetHugePages(SetHugePages(true))
	p := NewPageAllocator().(*pageAllocator)
	for round := 0; round < 6; round++ {
		SetHugePages(round%3 != 2)
		n := HugePageThreshold + round*(3<<20) + 4096*round + 64
		b := p.Allocate(n)
		require.Len(t, b, n)
		require.Zero(t, base(b)%64)
		for i, v := range b {
			if v != 0 {
				t.Fatalf("round %d: byte %d of a fresh buffer is %d", round, i, v)
			}
		}
		for i := range b {
			b[i] = 0xA5
		}
		p.Free(b)
		runtime.GC() // the dirty memory goes back to the heap for the next round
	}
	small := p.Allocate(HugePageThreshold - 1) // below the threshold: no advice, still zero
	for _, v := range small {
		require.Zero(t, v)
	}
	p.Free(small)
}
