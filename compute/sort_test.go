package compute_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/stride0/stride0/compute"
	"github.com/stride0/stride0/internal/half"
)

// sortCase is one element type for the sort tests: its bit patterns K, its
// key kind, the reference order on bits and a pool of special values.
type sortCase[K compute.SortKey] struct {
	name string
	kind compute.KeyKind
	less func(a, b K) bool // the reference order (NaNs last, -0 == 0)
	pool []K
	rand func(r *rand.Rand) K
}

func nanLast(a, b float64) bool { return a < b || !math.IsNaN(a) && math.IsNaN(b) }

// sortSizes are the lane lengths tested: the edges, around the pdqsort
// threshold and the digit sizes, and larger.
var sortSizes = []int{0, 1, 2, 3, 7, 16, 100, 191, 192, 193, 255, 256, 257, 1000, 2047, 2048, 2049, 5000, 70000}

// makeSortInput fills n elements by pattern: random bits, draws from the
// special pool, few distinct values, all equal, sorted, reverse sorted.
func makeSortInput[K compute.SortKey](c sortCase[K], r *rand.Rand, n, pattern int) []K {
	v := make([]K, n)
	for i := range v {
		switch pattern {
		case 0:
			v[i] = c.rand(r)
		case 1:
			v[i] = c.pool[r.IntN(len(c.pool))]
		case 2:
			v[i] = c.pool[r.IntN(min(3, len(c.pool)))]
		case 3:
			v[i] = c.pool[0]
		default:
			if r.IntN(4) == 0 {
				v[i] = c.pool[r.IntN(len(c.pool))]
			} else {
				v[i] = c.rand(r)
			}
		}
	}
	if pattern >= 4 {
		sort.SliceStable(v, func(i, j int) bool { return c.less(v[i], v[j]) })
		if pattern == 5 {
			for i, j := 0, n-1; i < j; i, j = i+1, j-1 {
				v[i], v[j] = v[j], v[i]
			}
		}
	}
	return v
}

func checkSortCase[K compute.SortKey](t *testing.T, c sortCase[K], sizes []int) {
	r := rand.New(rand.NewPCG(20, uint64(len(c.name))))
	for _, n := range sizes {
		for pattern := range 6 {
			src := makeSortInput(c, r, n, pattern)
			keep := append([]K(nil), src...)
			order := make([]int, n)
			for i := range order {
				order[i] = i
			}
			sort.SliceStable(order, func(i, j int) bool { return c.less(src[order[i]], src[order[j]]) })

			// guards around dst catch writes out of it; dst starts at
			// 0 to 3 elements past an allocation's start, so that the
			// write-combining scatter meets every phase of its lines
			lead := pattern % 4
			all := make([]K, lead+n+4)
			for i := range all {
				all[i] = 0x5a
			}
			dst := all[lead : lead+n]
			tmp := make([]K, n)
			compute.SortBits(dst, src, tmp, c.kind)
			for j, o := range order {
				if dst[j] != src[o] {
					t.Fatalf("%s n=%d pattern %d: sorted[%d] = %#x; want %#x (input %d)", c.name, n, pattern, j, dst[j], src[o], o)
				}
			}
			for i := range all {
				if (i < lead || i >= lead+n) && all[i] != 0x5a {
					t.Fatalf("%s n=%d: write outside dst at %d", c.name, n, i-lead)
				}
			}

			idx := make([]int64, n+2)
			idx[n], idx[n+1] = -7, -7
			var w K
			scratch := make([]uint64, compute.ArgsortScratch(n, int(sizeOf(w))))
			compute.ArgsortBits(idx[:n], src, c.kind, scratch)
			for j, o := range order {
				if idx[j] != int64(o) {
					t.Fatalf("%s n=%d pattern %d: argsort[%d] = %d; want %d", c.name, n, pattern, j, idx[j], o)
				}
			}
			if idx[n] != -7 || idx[n+1] != -7 {
				t.Fatalf("%s n=%d: argsort wrote past the end", c.name, n)
			}
			for i := range src {
				if src[i] != keep[i] {
					t.Fatalf("%s n=%d: the input changed", c.name, n)
				}
			}
		}
	}
}

func sizeOf[K compute.SortKey](K) uintptr {
	var k K
	switch any(k).(type) {
	case uint8:
		return 1
	case uint16:
		return 2
	case uint32:
		return 4
	}
	return 8
}

// TestSortBits checks SortBits and ArgsortBits against sort.SliceStable
// for every key kind and width, over the sizes and input patterns above,
// with each type's extremes (int min/max, ±Inf, ±0, subnormals, NaNs of
// either sign and several payloads). Fixed seed.
func TestSortBits(t *testing.T) {
	sizes := sortSizes
	if !testing.Short() && !raceOn {
		sizes = append(sizes, 1<<20)
	}
	f64 := func(v float64) uint64 { return math.Float64bits(v) }
	f32 := func(v float32) uint32 { return math.Float32bits(v) }
	checkSortCase(t, sortCase[uint64]{
		name: "float64", kind: compute.KeyFloat,
		less: func(a, b uint64) bool { return nanLast(math.Float64frombits(a), math.Float64frombits(b)) },
		pool: []uint64{f64(0), f64(math.Copysign(0, -1)), f64(math.NaN()), 0xfff8000000000001, 0x7ff0000000000001, f64(math.Inf(1)), f64(math.Inf(-1)),
			f64(-math.MaxFloat64), f64(math.MaxFloat64), 1, 0x8000000000000001, f64(2.5), f64(-2.5)},
		rand: func(r *rand.Rand) uint64 { return f64(r.NormFloat64() * 100) },
	}, sizes)
	checkSortCase(t, sortCase[uint32]{
		name: "float32", kind: compute.KeyFloat,
		less: func(a, b uint32) bool {
			return nanLast(float64(math.Float32frombits(a)), float64(math.Float32frombits(b)))
		},
		pool: []uint32{f32(0), 0x80000000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, f32(float32(math.Inf(1))), f32(float32(math.Inf(-1))),
			f32(math.MaxFloat32), f32(-math.MaxFloat32), 1, 0x80000001, f32(1.5)},
		rand: func(r *rand.Rand) uint32 { return f32(float32(r.NormFloat64() * 100)) },
	}, sizes)
	checkSortCase(t, sortCase[uint16]{
		name: "float16", kind: compute.KeyFloat,
		less: func(a, b uint16) bool { return nanLast(half.ToFloat64(a), half.ToFloat64(b)) },
		pool: []uint16{0, 0x8000, 0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7c00, 0xfc00, 0x7bff, 0xfbff, 1, 0x8001, 0x3c00},
		rand: func(r *rand.Rand) uint16 { return uint16(r.Uint32()) },
	}, sizes)
	checkSortCase(t, sortCase[uint64]{
		name: "int64", kind: compute.KeySigned,
		less: func(a, b uint64) bool { return int64(a) < int64(b) },
		pool: []uint64{math.MaxInt64, 1 << 63, 0, ^uint64(0), 1, 1<<63 + 1, math.MaxInt64 - 1},
		rand: func(r *rand.Rand) uint64 { return r.Uint64() >> r.IntN(64) },
	}, sizes)
	checkSortCase(t, sortCase[uint64]{
		name: "uint64", kind: compute.KeyUnsigned,
		less: func(a, b uint64) bool { return a < b },
		pool: []uint64{7, 0, ^uint64(0), 1 << 63, 1<<63 - 1},
		rand: func(r *rand.Rand) uint64 { return r.Uint64() >> r.IntN(64) },
	}, sizes)
	checkSortCase(t, sortCase[uint32]{
		name: "int32", kind: compute.KeySigned,
		less: func(a, b uint32) bool { return int32(a) < int32(b) },
		pool: []uint32{1 << 31, math.MaxInt32, 0, ^uint32(0), 1},
		rand: func(r *rand.Rand) uint32 { return r.Uint32() >> r.IntN(32) },
	}, sizes)
	checkSortCase(t, sortCase[uint32]{
		name: "uint32", kind: compute.KeyUnsigned,
		less: func(a, b uint32) bool { return a < b },
		pool: []uint32{5, 0, ^uint32(0), 1 << 31},
		rand: func(r *rand.Rand) uint32 { return r.Uint32() },
	}, sizes)
	checkSortCase(t, sortCase[uint16]{
		name: "int16", kind: compute.KeySigned,
		less: func(a, b uint16) bool { return int16(a) < int16(b) },
		pool: []uint16{1 << 15, math.MaxInt16, 0, ^uint16(0), 1},
		rand: func(r *rand.Rand) uint16 { return uint16(r.Uint32()) },
	}, sizes)
	checkSortCase(t, sortCase[uint16]{
		name: "uint16", kind: compute.KeyUnsigned,
		less: func(a, b uint16) bool { return a < b },
		pool: []uint16{9, 0, ^uint16(0), 1 << 15},
		rand: func(r *rand.Rand) uint16 { return uint16(r.Uint32()) },
	}, sizes)
	checkSortCase(t, sortCase[uint8]{
		name: "int8", kind: compute.KeySigned,
		less: func(a, b uint8) bool { return int8(a) < int8(b) },
		pool: []uint8{1 << 7, math.MaxInt8, 0, ^uint8(0), 1},
		rand: func(r *rand.Rand) uint8 { return uint8(r.Uint32()) },
	}, sizes)
	checkSortCase(t, sortCase[uint8]{
		name: "uint8", kind: compute.KeyUnsigned,
		less: func(a, b uint8) bool { return a < b },
		pool: []uint8{3, 0, 255, 128},
		rand: func(r *rand.Rand) uint8 { return uint8(r.Uint32()) },
	}, sizes)
	checkSortCase(t, sortCase[uint8]{
		name: "bool", kind: compute.KeyBool,
		less: func(a, b uint8) bool { return a < b },
		pool: []uint8{1, 0},
		rand: func(r *rand.Rand) uint8 { return uint8(r.IntN(2)) },
	}, sizes)
}

// BenchmarkSort times SortBits and ArgsortBits on uniform random floats
// (as the vocab harness's inputs), named like BenchmarkSort/sort/f32/n=16M.
func BenchmarkSort(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1000, 1 << 16, 1 << 22, 1 << 24} {
		s32 := make([]uint32, n)
		s64 := make([]uint64, n)
		for i := range s32 {
			f := r.Float64()*20 - 10
			s32[i] = math.Float32bits(float32(f))
			s64[i] = math.Float64bits(f)
		}
		name := fmt.Sprintf("n=%d", n)
		b.Run("sort/f32/"+name, func(b *testing.B) {
			dst, tmp := make([]uint32, n), make([]uint32, n)
			b.SetBytes(int64(8 * n))
			b.ReportAllocs()
			for b.Loop() {
				compute.SortBits(dst, s32, tmp, compute.KeyFloat)
			}
		})
		b.Run("sort/f64/"+name, func(b *testing.B) {
			dst, tmp := make([]uint64, n), make([]uint64, n)
			b.SetBytes(int64(16 * n))
			b.ReportAllocs()
			for b.Loop() {
				compute.SortBits(dst, s64, tmp, compute.KeyFloat)
			}
		})
		if n > 1<<22 {
			continue
		}
		b.Run("argsort/f32/"+name, func(b *testing.B) {
			idx, sc := make([]int64, n), make([]uint64, compute.ArgsortScratch(n, 4))
			b.SetBytes(int64(12 * n))
			b.ReportAllocs()
			for b.Loop() {
				compute.ArgsortBits(idx, s32, compute.KeyFloat, sc)
			}
		})
		b.Run("argsort/f64/"+name, func(b *testing.B) {
			idx, sc := make([]int64, n), make([]uint64, compute.ArgsortScratch(n, 8))
			b.SetBytes(int64(16 * n))
			b.ReportAllocs()
			for b.Loop() {
				compute.ArgsortBits(idx, s64, compute.KeyFloat, sc)
			}
		})
	}
}
