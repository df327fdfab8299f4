package compute

import (
	"math/rand"
	"testing"
	"unsafe"
)

// TestReverseCopy checks the stride -1 gather (reverseCopy, through the
// AVX2 kernels where the build has them) of 4- and 8-byte elements against
// a naive loop, over every length to 300 and some large ones, every source
// and destination element offset within 32 bytes, and guards on both sides
// of the destination that must stay untouched.
func TestReverseCopy(t *testing.T) {
	lengths := make([]int, 0, 310)
	for n := 0; n <= 300; n++ {
		lengths = append(lengths, n)
	}
	lengths = append(lengths, 1023, 1024, 1025, 4096+17, 10000)
	t.Run("4", func(t *testing.T) { checkReverse[uint32](t, lengths, false) })
	t.Run("8", func(t *testing.T) { checkReverse[uint64](t, lengths, false) })
	// ReverseStream: the same copies with non-temporal stores
	t.Run("4 stream", func(t *testing.T) { checkReverse[uint32](t, lengths, true) })
	t.Run("8 stream", func(t *testing.T) { checkReverse[uint64](t, lengths, true) })
}

func checkReverse[T uint32 | uint64](t *testing.T, lengths []int, stream bool) {
	const guard = 40 // elements on each side of dst
	var z T
	sz := int(unsafe.Sizeof(z))
	offs := 32 / sz // element offsets that cover every alignment within 32 bytes
	rng := rand.New(rand.NewSource(int64(sz)))
	maxN := lengths[len(lengths)-1]
	src := make([]T, maxN+offs+8)
	for i := range src {
		src[i] = T(rng.Uint64())
	}
	dbuf := make([]T, maxN+offs+2*guard)
	pv := uint64(0xA5A5A5A5) // a variable: the constant overflows int on 386
	poison := T(pv)
	for _, n := range lengths {
		for so := 0; so < offs; so++ {
			for do := 0; do < offs; do++ {
				if n > 1100 && (so+do)%3 != 0 { // large lengths: a third of the pairs
					continue
				}
				for i := range dbuf {
					dbuf[i] = poison
				}
				top := so + n // src[top] is the first element read, src[top-i] the i-th
				d := dbuf[guard+do : guard+do+n]
				if stream {
					if n > 0 {
						ReverseStream(unsafe.Pointer(&d[0]), unsafe.Pointer(&src[top]), n, sz)
					}
					Fence()
				} else {
					reverseCopy(d, unsafe.Pointer(&src[top]))
				}
				for i := 0; i < n; i++ {
					if d[i] != src[top-i] {
						t.Fatalf("size %d n %d src off %d dst off %d: [%d] = %#x, want %#x", sz, n, so, do, i, d[i], src[top-i])
					}
				}
				for i := range dbuf {
					if (i < guard+do || i >= guard+do+n) && dbuf[i] != poison {
						t.Fatalf("size %d n %d src off %d dst off %d: wrote outside dst at %d", sz, n, so, do, i-guard-do)
					}
				}
			}
		}
	}
}
