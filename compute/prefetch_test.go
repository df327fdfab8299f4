package compute

import (
	"math"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestPrefetchHints: Prefetch and PrefetchAt are hints that never fault
// and never write, also for addresses far outside any array (a hash
// table's home slots computed from a stale mask, an index past the end).
func TestPrefetchHints(t *testing.T) {
	buf := make([]uint64, 64)
	for i := range buf {
		buf[i] = uint64(i) * 3
	}
	p := unsafe.Pointer(&buf[0])
	Prefetch(p, 0)
	Prefetch(p, len(buf)*8)
	Prefetch(p, 1<<20) // past the end
	PrefetchAt(p, 8, nil)
	PrefetchAt(p, 8, []uint64{0, 5, 63})
	PrefetchAt(p, 24, []uint64{1 << 40, math.MaxUint64, 1 << 62})
	PrefetchAt(p, 0, []uint64{7})
	for i := range buf {
		require.Equal(t, uint64(i)*3, buf[i])
	}
}
