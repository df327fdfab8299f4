//go:build amd64 && !noasm

package linalg

import (
	"math/rand"
	"testing"
	"unsafe"
)

// tileKernel is a Go micro-kernel of any mr×nr tile with the assembly
// kernels' contract (modes 0-4, see gemmKernel), for running a blocking
// this CPU has no kernels for.
func tileKernel[T float32 | float64](mr, nr int) gemmKernel {
	return func(k int, a unsafe.Pointer, ars, astep int, b unsafe.Pointer, bstep int, c unsafe.Pointer, ldc, mode int, c2 unsafe.Pointer, ldc2 int) {
		var z T
		esz := int(unsafe.Sizeof(z))
		acc := make([]T, mr*nr)
		for p := 0; p < k; p++ {
			bp, ap := unsafe.Add(b, p*bstep), unsafe.Add(a, p*astep)
			for i := 0; i < mr; i++ {
				x := *(*T)(unsafe.Add(ap, i*ars))
				for j := 0; j < nr; j++ {
					acc[i*nr+j] += x * *(*T)(unsafe.Add(bp, j*esz))
				}
			}
		}
		for i := 0; i < mr; i++ {
			row := unsafe.Add(c, i*ldc)
			for j := 0; j < nr; j++ {
				v := acc[i*nr+j]
				switch mode {
				case 0, 1:
					d := (*T)(unsafe.Add(row, j*esz))
					if mode == 1 {
						v += *d
					}
					*d = v
				case 4:
					src := *(*float64)(unsafe.Add(row, j*8))
					*(*T)(unsafe.Add(c2, i*ldc2+j*esz)) = T(float64(v) + src)
				default:
					d := (*float64)(unsafe.Add(row, j*8))
					w := float64(v)
					if mode == 3 {
						w += *d
					}
					*d = w
				}
			}
		}
	}
}

// emulate replaces s's kernels (the full tile's and the smaller ones of the
// edges) by Go kernels of the same tiles, keeping its blocking and its
// assembly packing routines.
func emulate[T float32 | float64](s gemmShape) gemmShape {
	small := map[int]gemmKernel{}
	for r := 1; r < s.mr; r++ {
		if s.rowsOf[r] == r {
			small[r] = tileKernel[T](r, s.nr)
		}
	}
	s.kern = tileKernel[T](s.mr, s.nr)
	if s.tiled != nil {
		s.tiled = tiledOf(s.kern, s.mr, s.nr, s.pair)
	}
	if s.one != nil {
		s.one = tiledOf(s.kern, s.mr, s.nr, s.pair)
	}
	s.edges(small)
	return s
}

// TestGemmShapesEmulated runs the AVX-512 and AVX2 blockings (tiles of 12
// and 6 rows, panels of 64 and 128 bytes, the assembly packing, the edge
// kernels' row counts, rounding into C) with Go kernels of their tiles, so
// that a machine without AVX-512 still checks everything of that path but
// the micro-kernels' own instructions.
func TestGemmShapesEmulated(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	a64, a32 := avx512Shapes()
	b64, b32 := avx2Shapes()
	for _, s := range []gemmShape{emulate[float64](a64), emulate[float64](b64)} {
		for _, x := range shapesFor(s, nil, goKernel[float64]) {
			for it := 0; it < raceIters(12); it++ {
				m, n, k := pick(rng, dimsFor(x.mr)), pick(rng, dimsFor(x.nr)), pick(rng, dimsFor(x.kc))
				checkGemm[float64](t, rng, &x, m, n, k, layout(rng.Intn(int(numLayouts))), layout(rng.Intn(int(numLayouts))))
			}
		}
	}
	for _, s := range []gemmShape{emulate[float32](a32), emulate[float32](b32)} {
		for _, x := range shapesFor(s, nil, goKernel[float32]) {
			for it := 0; it < raceIters(12); it++ {
				m, n, k := pick(rng, dimsFor(x.mr)), pick(rng, dimsFor(x.nr)), pick(rng, dimsFor(x.kc))
				checkGemm[float32](t, rng, &x, m, n, k, layout(rng.Intn(int(numLayouts))), layout(rng.Intn(int(numLayouts))))
			}
		}
	}
}
