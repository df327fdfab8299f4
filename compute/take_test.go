package compute_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stride0/stride0/compute"
)

// TestTakeBits checks TakeBits against direct indexing: negative indices
// wrap, the first index out of range is reported and nothing at or after
// it is written.
func TestTakeBits(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, n := range []int{0, 1, 5, 1000} {
		src := make([]uint32, n)
		for i := range src {
			src[i] = r.Uint32()
		}
		for _, m := range []int{0, 1, 100} {
			idx := make([]int64, m)
			for i := range idx {
				if n > 0 {
					idx[i] = int64(r.IntN(2*n) - n)
				}
			}
			dst := make([]uint32, m+1)
			dst[m] = 7
			bad := compute.TakeBits(dst[:m], src, idx)
			if n == 0 && m > 0 {
				if bad != 0 {
					t.Fatalf("n=0: bad = %d; want 0", bad)
				}
				continue
			}
			if bad != -1 {
				t.Fatalf("n=%d m=%d: bad = %d; want -1", n, m, bad)
			}
			for k, i := range idx {
				if i < 0 {
					i += int64(n)
				}
				if dst[k] != src[i] {
					t.Fatalf("n=%d: dst[%d] = %d; want %d", n, k, dst[k], src[i])
				}
			}
			if dst[m] != 7 {
				t.Fatal("write past the end")
			}
			if m > 10 && n > 0 {
				idx[10] = int64(n)
				clear(dst)
				if bad := compute.TakeBits(dst[:m], src, idx); bad != 10 {
					t.Fatalf("bad = %d; want 10", bad)
				}
				for k := 10; k < m; k++ {
					if dst[k] != 0 {
						t.Fatalf("dst[%d] written after the bad index", k)
					}
				}
			}
		}
	}
}

// takeRef is TakeBits written plainly: the reference the tests compare
// with.
func takeRef[K compute.SortKey](dst, src []K, idx []int64) int {
	n := int64(len(src))
	for k, i := range idx {
		if i < -n || i >= n {
			return k
		}
		if i < 0 {
			i += n
		}
		dst[k] = src[i]
	}
	return -1
}

// TestTakeBitsWidths checks TakeBits against takeRef for every element
// width, over sizes of src and idx from 0 to past the assembly's
// prefetch distance and unrolling (so that both the assembly and the Go
// tail run): indices in range, negative ones, and one index out of range
// (just past either end, or extreme) at positions that cover each lane of
// the assembly's step of 4 and the tail. dst must match the reference
// before the bad index and keep its old contents from there on, and
// nothing past len(idx) may be written.
func TestTakeBitsWidths(t *testing.T) {
	t.Run("1", func(t *testing.T) { testTakeWidth[uint8](t) })
	t.Run("2", func(t *testing.T) { testTakeWidth[uint16](t) })
	t.Run("4", func(t *testing.T) { testTakeWidth[uint32](t) })
	t.Run("8", func(t *testing.T) { testTakeWidth[uint64](t) })
}

func testTakeWidth[K compute.SortKey](t *testing.T) {
	r := rand.New(rand.NewPCG(11, uint64(unsafe.Sizeof(K(0)))))
	sizes := []int{0, 1, 2, 3, 7, 33, 35, 36, 37, 38, 67, 68, 69, 70, 71, 131, 1000, 4099}
	if !testing.Short() {
		sizes = append(sizes, 100003)
	}
	for _, n := range sizes {
		src := make([]K, n)
		for i := range src {
			src[i] = K(r.Uint64())
		}
		for _, m := range sizes {
			idx := make([]int64, m)
			for _, mode := range []string{"in", "neg", "mixed"} {
				for i := range idx {
					switch {
					case n == 0:
						idx[i] = int64(r.IntN(3) - 1)
					case mode == "in":
						idx[i] = int64(r.IntN(n))
					case mode == "neg":
						idx[i] = -1 - int64(r.IntN(n))
					default:
						idx[i] = int64(r.IntN(2*n) - n)
					}
				}
				checkTake(t, fmt.Sprintf("n=%d m=%d %s", n, m, mode), src, idx)
			}
			if m == 0 || n == 0 {
				continue
			}
			// one bad index, at positions over the lanes and the tail
			outs := []int64{int64(n), int64(-n - 1), math.MaxInt64, math.MinInt64, int64(n) + int64(r.IntN(1000)), -int64(n) - 1 - int64(r.IntN(1000))}
			for _, at := range []int{0, 1, 2, 3, m / 2, m/2 + 1, m - 70, m - 66, m - 65, m - 64, m - 36, m - 34, m - 33, m - 32, m - 5, m - 2, m - 1, r.IntN(m)} {
				if at < 0 || at >= m {
					continue
				}
				for i := range idx {
					idx[i] = int64(r.IntN(2*n) - n)
				}
				idx[at] = outs[r.IntN(len(outs))]
				if r.IntN(2) == 0 && at+1 < m {
					idx[at+1+r.IntN(m-at-1)] = int64(n) // a second bad one after it
				}
				checkTake(t, fmt.Sprintf("n=%d m=%d bad at %d (%d)", n, m, at, idx[at]), src, idx)
			}
		}
	}
}

// checkTake runs TakeBits and takeRef on copies of one dst and compares
// the results and the whole dst, including elements past len(idx).
func checkTake[K compute.SortKey](t *testing.T, what string, src []K, idx []int64) {
	t.Helper()
	m := len(idx)
	got := make([]K, m+8)
	for i := range got {
		got[i] = K(0xA5A5A5A5A5A5A5A5 + uint64(i))
	}
	want := append([]K(nil), got...)
	gb := compute.TakeBits(got[:m], src, idx)
	wb := takeRef(want[:m], src, idx)
	if gb != wb {
		t.Fatalf("%s: TakeBits returned %d; want %d", what, gb, wb)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: dst[%d] = %#x; want %#x", what, i, got[i], want[i])
		}
	}
}

// BenchmarkTake times TakeBits of 4M random indices from 16M random
// elements (the vocab harness's take), named like BenchmarkTake/f32.
// Bytes are the indices and elements read plus written.
func BenchmarkTake(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 3))
	const n, m = 1 << 24, 4 << 20
	idx := make([]int64, m)
	for i := range idx {
		idx[i] = int64(r.IntN(n))
	}
	b.Run("f32", func(b *testing.B) {
		src, dst := make([]uint32, n), make([]uint32, m)
		for i := range src {
			src[i] = r.Uint32()
		}
		b.SetBytes(int64(m * (8 + 4 + 4)))
		b.ReportAllocs()
		for b.Loop() {
			compute.TakeBits(dst, src, idx)
		}
	})
	b.Run("f32_cached", func(b *testing.B) {
		// 16K indices into 64 KiB: the gather's overhead when nothing misses
		const n, m = 1 << 14, 1 << 14
		src, dst, idx := make([]uint32, n), make([]uint32, m), make([]int64, m)
		for i := range src {
			src[i], idx[i] = r.Uint32(), int64(r.IntN(n))
		}
		b.SetBytes(int64(m * (8 + 4 + 4)))
		b.ReportAllocs()
		for b.Loop() {
			compute.TakeBits(dst, src, idx)
		}
	})
	b.Run("f64", func(b *testing.B) {
		src, dst := make([]uint64, n), make([]uint64, m)
		for i := range src {
			src[i] = r.Uint64()
		}
		b.SetBytes(int64(m * (8 + 8 + 8)))
		b.ReportAllocs()
		for b.Loop() {
			compute.TakeBits(dst, src, idx)
		}
	})
}
