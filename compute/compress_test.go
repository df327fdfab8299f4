package compute

import (
	"math/rand/v2"
	"testing"
)

// checkCompress runs CompressMask over src with random masks of several
// densities and compares with a loop over the rows; dst is followed by
// guard values that must stay as they are.
func checkCompress[T ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~int32 | ~float64](t *testing.T, rng *rand.Rand, name string, src []T) {
	t.Helper()
	for _, p := range []float64{0, 0.01, 0.3, 0.5, 0.9, 1} {
		mask := make([]uint64, (len(src)+63)/64)
		var want []T
		for i := range src {
			if rng.Float64() < p {
				mask[i/64] |= 1 << (i % 64)
				want = append(want, src[i])
			}
		}
		const guard = 80
		dst := make([]T, len(want)+guard)
		for i := range dst {
			dst[i] = 7
		}
		n := CompressMask(dst[:len(want)], src, mask)
		if n != len(want) {
			t.Fatalf("%s len %d p %v: %d values, want %d", name, len(src), p, n, len(want))
		}
		for i, w := range want {
			if dst[i] != w {
				t.Fatalf("%s len %d p %v: value %d = %v, want %v", name, len(src), p, i, dst[i], w)
			}
		}
		for i := len(want); i < len(dst); i++ {
			if dst[i] != 7 {
				t.Fatalf("%s len %d p %v: wrote past the selected values (at %d)", name, len(src), p, i)
			}
		}
	}
}

// TestCompressMask checks every element width against a loop over the
// rows: lengths 0..200 and some large ones (partial last words, the
// kernels' stop before dst's end), unaligned starts, masks empty to full.
func TestCompressMask(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	lens := []int{}
	for n := 0; n <= 200; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, 640, 4097, 1<<16)
	for _, n := range lens {
		off := rng.IntN(4)
		u64 := make([]uint64, n+off)
		u32 := make([]uint32, n+off)
		f64 := make([]float64, n+off)
		i32 := make([]int32, n+off)
		u16 := make([]uint16, n+off)
		u8 := make([]uint8, n+off)
		for i := range u64 {
			u64[i] = rng.Uint64()
			u32[i] = uint32(u64[i])
			f64[i] = rng.NormFloat64()
			i32[i] = int32(u64[i] >> 7)
			u16[i] = uint16(u64[i])
			u8[i] = uint8(u64[i])
		}
		checkCompress(t, rng, "uint64", u64[off:])
		checkCompress(t, rng, "uint32", u32[off:])
		checkCompress(t, rng, "float64", f64[off:])
		checkCompress(t, rng, "int32", i32[off:])
		checkCompress(t, rng, "uint16", u16[off:])
		checkCompress(t, rng, "uint8", u8[off:])
	}
}

// TestCompressKernelsAgree: the kernels (AVX2 where the build has them)
// against the Go loop on whole words, with room for every word.
func TestCompressKernelsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(33, 34))
	const words = 40
	src64 := make([]uint64, words*64)
	src32 := make([]uint32, words*64)
	mask := make([]uint64, words)
	for i := range src64 {
		src64[i] = rng.Uint64()
		src32[i] = rng.Uint32()
	}
	for i := range mask {
		mask[i] = rng.Uint64() & rng.Uint64()
	}
	mask[3], mask[7] = 0, ^uint64(0)
	a64, b64 := make([]uint64, words*64+8), make([]uint64, words*64+8)
	a32, b32 := make([]uint32, words*64+8), make([]uint32, words*64+8)
	n := compressGo(b64, src64, mask)
	compressGo(b32, src32, mask)
	if k := CompressMask(a64[:n], src64, mask); k != n {
		t.Fatalf("64-bit: %d values, want %d", k, n)
	}
	if k := CompressMask(a32[:n], src32, mask); k != n {
		t.Fatalf("32-bit: %d values, want %d", k, n)
	}
	for i := 0; i < n; i++ {
		if a64[i] != b64[i] || a32[i] != b32[i] {
			t.Fatalf("value %d differs from the Go loop", i)
		}
	}
}

// BenchmarkCompressMask: half of 64 Ki 8- and 4-byte values, at random.
func BenchmarkCompressMask(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 16
	mask := make([]uint64, n/64)
	kept := 0
	for i := 0; i < n; i++ {
		if rng.IntN(2) == 0 {
			mask[i/64] |= 1 << (i % 64)
			kept++
		}
	}
	b.Run("8byte", func(b *testing.B) {
		src, dst := make([]uint64, n), make([]uint64, kept)
		b.SetBytes(n * 8)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			CompressMask(dst, src, mask)
		}
	})
	b.Run("4byte", func(b *testing.B) {
		src, dst := make([]uint32, n), make([]uint32, kept)
		b.SetBytes(n * 4)
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			CompressMask(dst, src, mask)
		}
	})
}
