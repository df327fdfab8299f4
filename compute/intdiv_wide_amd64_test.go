//go:build amd64 && !noasm

package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// TestFloorDivI64Wide holds the AVX-512 int64 division by a scalar
// (floorDivI64Wide: vectors of 8 small magnitudes by floorDivI64Z, the
// rest by the AVX2 kernel) to the AVX2 kernel bit for bit: lengths that
// are multiples of 4 around 8 and the 256-element fallback, data with no,
// sparse and dense magnitudes of 2^31 or more (just beyond it, and any), quotient and remainder,
// plain and streaming stores into dst 64-byte aligned and 32 bytes off.
func TestFloorDivI64Wide(t *testing.T) {
	if !Asm || !hasVmath512 {
		t.Skip("needs AVX-512")
	}
	rng := rand.New(rand.NewSource(65))
	for _, c := range []int64{3, 7, 1000, 1<<31 - 1, 1<<30 + 3} {
		d := newUdiv(uint64(c), 64)
		m31 := newUdiv31(uint64(c)).m
		for _, n := range []int{4, 8, 12, 16, 20, 252, 256, 260, 1024} {
			for _, big := range []int{0, 3, 50} { // percent of magnitudes >= 2^31
				xs := make([]int64, n)
				for i := range xs {
					xs[i] = int64(rng.Intn(2001)) - 1000
					if rng.Intn(100) < big {
						// just beyond the one-multiply path's 2^31, or anything
						xs[i] = []int64{1<<31 + rng.Int63n(1<<33), -(1 << 31) - 1 - rng.Int63n(1<<33), int64(rng.Uint64())}[rng.Intn(3)]
					}
				}
				for _, mod := range []int{0, 1} {
					for _, nt := range []int{0, 1} {
						for _, off := range []int{0, 4} {
							want := make([]int64, n)
							floorDivI64AVX2(unsafe.Pointer(&want[0]), unsafe.Pointer(&xs[0]), n, d.m, uint64(d.sh), c, mod, 0, m31)
							buf := make([]int64, n+16)
							al := (64 - int(uintptr(unsafe.Pointer(&buf[0]))&63)) % 64 / 8
							got := buf[al+off : al+off+n]
							floorDivI64Wide(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n, d.m, uint64(d.sh), c, mod, nt, m31)
							Fence()
							for i := range want {
								if got[i] != want[i] {
									t.Fatalf("c %d n %d big %d%% mod %d nt %d off %d: element %d (x %d) = %d, AVX2 %d",
										c, n, big, mod, nt, off, i, xs[i], got[i], want[i])
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestFloorDivI32Wide holds the AVX-512 int32 division by a scalar
// (floorDivI32Wide: sixteen lanes a vector by floorDivI32Z, a first and a
// last 8 by the AVX2 kernel) to the AVX2 kernel bit for bit: lengths that
// are multiples of 8 around 16 and 32, quotient and remainder, plain and
// streaming stores into dst 64-byte aligned and 32 bytes off.
func TestFloorDivI32Wide(t *testing.T) {
	if !Asm || !hasVmath512 {
		t.Skip("needs AVX-512")
	}
	rng := rand.New(rand.NewSource(66))
	for _, c := range []int64{2, 3, 7, 1000, 1<<31 - 1, 1<<30 + 3, 65537} {
		d := newUdiv31(uint64(c))
		for _, n := range []int{8, 16, 24, 32, 40, 48, 56, 1000} {
			xs := make([]int32, n)
			for i := range xs {
				xs[i] = int32(rng.Uint32())
				if i%5 == 0 {
					xs[i] = []int32{math.MinInt32, math.MaxInt32, 0, -1, 1, int32(c), -int32(c)}[rng.Intn(7)]
				}
			}
			for _, mod := range []int{0, 1} {
				for _, nt := range []int{0, 1} {
					for _, off := range []int{0, 8} {
						want := make([]int32, n)
						floorDivI32AVX2(unsafe.Pointer(&want[0]), unsafe.Pointer(&xs[0]), n, d.m, uint64(d.l), c, mod, 0)
						buf := make([]int32, n+32)
						al := (64 - int(uintptr(unsafe.Pointer(&buf[0]))&63)) % 64 / 4
						got := buf[al+off : al+off+n]
						floorDivI32Wide(unsafe.Pointer(&got[0]), unsafe.Pointer(&xs[0]), n, d.m, uint64(d.l), c, mod, nt)
						Fence()
						for i := range want {
							if got[i] != want[i] {
								t.Fatalf("c %d n %d mod %d nt %d off %d: element %d (x %d) = %d, AVX2 %d",
									c, n, mod, nt, off, i, xs[i], got[i], want[i])
							}
						}
					}
				}
			}
		}
	}
}
