package compute

import (
	"bytes"
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// TestExtremeRows checks the multi-row max, min, nanmax and nanmin
// (LookupExtremeRows)
// against one accumulation per row (the accumulate kernels), bit for bit:
// float32 and float64 (and the max and min of bool and the 1-, 2- and
// 4-byte integers: any bytes, bools 0 or 1), widths 0-70 (whole vectors and a tail), 0-11 rows
// (blocks of four and the rest), row strides wider than a row, values with
// NaNs of different payloads, signed zeros, infinities and ties.
func TestExtremeRows(t *testing.T) {
	rng := rand.New(rand.NewSource(43))
	for _, tt := range []Type{Float32, Float64, Bool, Uint8, Int8, Uint16, Int16, Uint32, Int32} {
		sz := tt.Size()
		ops := []Op{Maximum, Minimum}
		if tt == Float32 || tt == Float64 {
			ops = append(ops, Fmax, Fmin)
		}
		for _, op := range ops {
			rows, ok := LookupExtremeRows(op, tt)
			if !ok {
				t.Skipf("no multi-row %v %v kernel in this build", op, tt)
			}
			step, err := LookupAccumulate(op, tt)
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n <= 70; n++ {
				for r := 0; r <= 11; r++ {
					stride := n + rng.Intn(5)
					x := make([]byte, (r*stride+n+1)*sz)
					acc := make([]byte, (n+1)*sz)
					fill := func(b []byte) {
						if tt != Float32 && tt != Float64 {
							// integers: any bytes, often a type's extremes
							// (0x00, 0xff, 0x80, 0x7f in the top byte)
							for i := range b {
								b[i] = byte(rng.Intn(256))
								if rng.Intn(4) == 0 {
									b[i] = []byte{0, 0xff, 0x80, 0x7f}[rng.Intn(4)]
								}
								if tt == Bool { // bools are 0 or 1
									b[i] &= 1
								}
							}
							return
						}
						for i := 0; i+sz <= len(b); i += sz {
							v := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), rng.NormFloat64(), rng.NormFloat64()}[rng.Intn(8)]
							if tt == Float32 {
								*(*float32)(unsafe.Pointer(&b[i])) = float32(v)
								if rng.Intn(40) == 0 { // a NaN with its own payload
									*(*uint32)(unsafe.Pointer(&b[i])) = 0x7fc00000 | uint32(rng.Intn(1<<20))
								}
							} else {
								*(*float64)(unsafe.Pointer(&b[i])) = v
								if rng.Intn(40) == 0 {
									*(*uint64)(unsafe.Pointer(&b[i])) = 0xfff8000000000000 | uint64(rng.Int63n(1<<40))
								}
							}
						}
					}
					fill(x)
					fill(acc)
					want := append([]byte(nil), acc...)
					for k := 0; k < r && n > 0; k++ {
						step(unsafe.Pointer(&want[0]), unsafe.Pointer(&x[k*stride*sz]), n)
					}
					if n > 0 {
						rows(unsafe.Pointer(&acc[0]), unsafe.Pointer(&x[0]), n, r, stride)
					}
					if !bytes.Equal(acc, want) {
						t.Fatalf("%v %v n=%d rows=%d stride=%d: % x, want % x", op, tt, n, r, stride, acc, want)
					}
				}
			}
		}
	}
	if _, ok := LookupExtremeRows(Add, Float32); ok {
		t.Error("LookupExtremeRows(Add) gave a kernel")
	}
	if _, ok := LookupExtremeRows(Maximum, Type(99)); ok {
		t.Error("LookupExtremeRows of type 99 gave a kernel")
	}
}
