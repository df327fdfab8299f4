package compute_test

import (
	"fmt"
	"testing"
	"unsafe"

	"github.com/stride0/stride0/compute"
)

// Benchmarks of every kernel per operator, element type and operand kind
// (vv: two contiguous vectors; vs: a vector and a repeated scalar), named
// like BenchmarkBinary/add/float32/vv/n=1024. SetBytes counts the bytes read
// and written per call, so `go test -bench` reports throughput; compare runs
// with benchstat.

var benchSizes = []int{1024}

// benchBuf returns n elements of type t holding small positive values (so
// that divisions, logarithms and powers stay on their ordinary paths), as
// an 8-byte aligned backing.
func benchBuf(t compute.Type, n int) unsafe.Pointer {
	b := make([]uint64, n+1)
	p := unsafe.Pointer(&b[0])
	for i := 0; i < n; i++ {
		v := 1 + i%7
		q := unsafe.Add(p, i*t.Size())
		switch t {
		case compute.Bool:
			*(*uint8)(q) = uint8(i & 1)
		case compute.Int8, compute.Uint8:
			*(*uint8)(q) = uint8(v)
		case compute.Int16, compute.Uint16:
			*(*uint16)(q) = uint16(v)
		case compute.Float16:
			*(*uint16)(q) = 0x3c00 // 1.0
		case compute.Int32, compute.Uint32:
			*(*uint32)(q) = uint32(v)
		case compute.Int64, compute.Uint64:
			*(*uint64)(q) = uint64(v)
		case compute.Float32:
			*(*float32)(q) = float32(v) / 4
		case compute.Float64:
			*(*float64)(q) = float64(v) / 4
		}
	}
	return p
}

func BenchmarkBinary(b *testing.B) {
	for _, op := range binaryOps {
		for _, typ := range allTypes {
			if !binaryExists(op, typ) {
				continue
			}
			for _, form := range []compute.Form{compute.VV, compute.VS} {
				f, err := compute.LookupBinary(op, typ, form)
				if err != nil {
					b.Fatal(err)
				}
				out := typ
				if op.IsComparison() {
					out = compute.Bool
				}
				for _, n := range benchSizes {
					b.Run(fmt.Sprintf("%v/%v/%s/n=%d", op, typ, formName(form), n), func(b *testing.B) {
						x, y, d := benchBuf(typ, n), benchBuf(typ, n), benchBuf(out, n)
						read := 2 * n * typ.Size()
						if form == compute.VS {
							read = n*typ.Size() + typ.Size()
						}
						b.SetBytes(int64(read + n*out.Size()))
						b.ReportAllocs()
						for b.Loop() {
							f(d, x, y, n)
						}
					})
				}
			}
		}
	}
}

func BenchmarkUnary(b *testing.B) {
	for _, op := range unaryOps {
		for _, typ := range allTypes {
			if !unaryExists(op, typ) {
				continue
			}
			f, err := compute.LookupUnary(op, typ)
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range benchSizes {
				b.Run(fmt.Sprintf("%v/%v/n=%d", op, typ, n), func(b *testing.B) {
					x, d := benchBuf(typ, n), benchBuf(typ, n)
					b.SetBytes(int64(2 * n * typ.Size()))
					b.ReportAllocs()
					for b.Loop() {
						f(d, x, n)
					}
				})
			}
		}
	}
}

func BenchmarkCast(b *testing.B) {
	for _, from := range allTypes {
		for _, to := range allTypes {
			f, err := compute.LookupCast(from, to)
			if err != nil {
				b.Fatal(err)
			}
			for _, n := range benchSizes {
				b.Run(fmt.Sprintf("%v/%v/n=%d", from, to, n), func(b *testing.B) {
					x, d := benchBuf(from, n), benchBuf(to, n)
					b.SetBytes(int64(n * (from.Size() + to.Size())))
					b.ReportAllocs()
					for b.Loop() {
						f(d, x, n)
					}
				})
			}
		}
	}
}

func BenchmarkWhere(b *testing.B) {
	for _, size := range []int{1, 2, 4, 8} {
		f, err := compute.LookupWhere(size)
		if err != nil {
			b.Fatal(err)
		}
		for _, steps := range [][3]int{{1, 1, 1}, {1, 1, 0}, {1, 0, 0}, {0, 1, 1}} {
			for _, n := range benchSizes {
				b.Run(fmt.Sprintf("size=%d/steps=%d%d%d/n=%d", size, steps[0], steps[1], steps[2], n), func(b *testing.B) {
					c := benchBuf(compute.Bool, n)
					x, y, d := make([]uint64, n), make([]uint64, n), make([]uint64, n)
					b.SetBytes(int64(n * (steps[0] + (steps[1]+steps[2]+1)*size)))
					b.ReportAllocs()
					for b.Loop() {
						f(ptr(d, 0), c, ptr(x, 0), ptr(y, 0), n, steps[0], steps[1], steps[2])
					}
				})
			}
		}
	}
}

func BenchmarkMove(b *testing.B) {
	for _, size := range []int{1, 2, 4, 8} {
		g, _ := compute.Gather(size)
		s, _ := compute.Scatter(size)
		for _, stride := range []int{1, 0, 2, -1, 7} {
			for _, n := range benchSizes {
				src := make([]uint64, 8*n+8)
				base := 4 * n // room for negative strides
				for _, k := range []struct {
					name string
					f    compute.MoveFunc
				}{{"gather", g}, {"scatter", s}} {
					if k.name == "scatter" && stride == 0 {
						continue
					}
					b.Run(fmt.Sprintf("%s/size=%d/stride=%d/n=%d", k.name, size, stride, n), func(b *testing.B) {
						d := make([]uint64, n)
						p := unsafe.Add(unsafe.Pointer(&src[0]), base*size)
						b.SetBytes(int64(2 * n * size))
						b.ReportAllocs()
						for b.Loop() {
							if k.name == "gather" {
								k.f(ptr(d, 0), p, n, stride)
							} else {
								k.f(p, ptr(d, 0), n, stride)
							}
						}
					})
				}
			}
		}
	}
}

func BenchmarkReduce(b *testing.B) {
	for _, op := range reduceOps {
		for _, typ := range allTypes {
			if !reduceExists(op, typ) {
				continue
			}
			acc, _ := compute.LookupAccumulate(op, typ)
			fold, _ := compute.LookupFold(op, typ)
			for _, n := range benchSizes {
				b.Run(fmt.Sprintf("accumulate/%v/%v/n=%d", op, typ, n), func(b *testing.B) {
					a, x := benchBuf(typ, n), benchBuf(typ, n)
					b.SetBytes(int64(3 * n * typ.Size()))
					b.ReportAllocs()
					for b.Loop() {
						acc(a, x, n)
					}
				})
				b.Run(fmt.Sprintf("fold/%v/%v/n=%d", op, typ, n), func(b *testing.B) {
					a, x := benchBuf(typ, 1), benchBuf(typ, n)
					b.SetBytes(int64(n * typ.Size()))
					b.ReportAllocs()
					for b.Loop() {
						fold(a, x, n)
					}
				})
			}
		}
	}
}
