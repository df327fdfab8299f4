package compute

import (
	"bytes"
	"math/rand"
	"testing"
	"unsafe"
)

// TestAccumulateWiden: the fused float32 -> float64 product step gives what
// the cast and then the float64 product step give, bit for bit (NaN
// payloads, infinities, zeros, subnormals), for every length to 300 and
// unaligned starts.
func TestAccumulateWiden(t *testing.T) {
	k, ok := LookupAccumulateWiden(Mul, Float64, Float32)
	if !ok {
		t.Fatal("no fused float32 product step")
	}
	if _, ok := LookupAccumulateWiden(Add, Float64, Float32); ok {
		t.Fatal("a fused add step that does not exist")
	}
	cast, _ := LookupCast(Float32, Float64)
	mul, _ := LookupAccumulate(Mul, Float64)
	rng := rand.New(rand.NewSource(61))
	src := make([]byte, 4*320)
	accBits := make([]byte, 8*320)
	for n := 0; n <= 300; n++ {
		off := rng.Intn(8)
		specialBits(rng, src, Float32)
		specialBits(rng, accBits, Float64)
		x := unsafe.Pointer(&src[4*off])
		got := append([]byte(nil), accBits[8*off:8*(off+n)]...)
		want := append([]byte(nil), got...)
		tmp := make([]float64, n+1)
		if n > 0 {
			k(unsafe.Pointer(&got[0]), x, n)
			cast(unsafe.Pointer(&tmp[0]), x, n)
			mul(unsafe.Pointer(&want[0]), unsafe.Pointer(&tmp[0]), n)
		}
		if !bytes.Equal(got, want) {
			for i := 0; i < n; i++ {
				if g, w := got[8*i:8*i+8], want[8*i:8*i+8]; !bytes.Equal(g, w) {
					t.Fatalf("n=%d element %d: % x, want % x", n, i, g, w)
				}
			}
		}
	}
}
