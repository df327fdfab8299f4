package compute

import (
	"fmt"
	"unsafe"

	"github.com/stride0/stride0/internal/half"
)

var castTable [numTypes][numTypes]UnaryFunc

// LookupCast returns the kernel converting elements of type from to type to,
// with Go's conversion rules (float to integer truncates toward zero; values
// out of range give an unspecified but deterministic result, never a panic;
// anything to bool is x != 0; bool to a number is 0 or 1; conversions to
// float16 round once to nearest-even from the exact value, as NumPy does).
func LookupCast(from, to Type) (UnaryFunc, error) {
	if from >= numTypes || to >= numTypes || castTable[from][to] == nil {
		return nil, fmt.Errorf("compute: no cast from %v to %v", from, to)
	}
	return castTable[from][to], nil
}

func castNum[S, D number](d []D, s []S) {
	d = d[:len(s)]
	for i := range s {
		d[i] = D(s[i])
	}
}

func castToBool[S number](d []uint8, s []S) {
	d = d[:len(s)]
	for i := range s {
		d[i] = b2u(s[i] != 0)
	}
}

func castFromF16[D number](d []D, s []uint16) {
	d = d[:len(s)]
	for i := range s {
		d[i] = D(half.ToFloat64(s[i]))
	}
}

func castToF16[S number](d []uint16, s []S) {
	d = d[:len(s)]
	for i := range s {
		d[i] = half.FromFloat64(float64(s[i]))
	}
}

func castF16ToBool(d []uint8, s []uint16) {
	d = d[:len(s)]
	for i := range s {
		d[i] = b2u(s[i]&0x7fff != 0)
	}
}

func copyKernel(size int) UnaryFunc {
	return func(d, s unsafe.Pointer, n int) {
		copy(unsafe.Slice((*byte)(d), n*size), unsafe.Slice((*byte)(s), n*size))
	}
}

func regCastFrom[S number](from Type) {
	castTable[from][Int8] = wrapUnary(castNum[S, int8])
	castTable[from][Int16] = wrapUnary(castNum[S, int16])
	castTable[from][Int32] = wrapUnary(castNum[S, int32])
	castTable[from][Int64] = wrapUnary(castNum[S, int64])
	castTable[from][Uint8] = wrapUnary(castNum[S, uint8])
	castTable[from][Uint16] = wrapUnary(castNum[S, uint16])
	castTable[from][Uint32] = wrapUnary(castNum[S, uint32])
	castTable[from][Uint64] = wrapUnary(castNum[S, uint64])
	castTable[from][Float32] = wrapUnary(castNum[S, float32])
	castTable[from][Float64] = wrapUnary(castNum[S, float64])
	castTable[from][Float16] = wrapUnary(castToF16[S])
	castTable[from][Bool] = wrapUnary(castToBool[S])
}

func registerCasts() {
	regCastFrom[int8](Int8)
	regCastFrom[int16](Int16)
	regCastFrom[int32](Int32)
	regCastFrom[int64](Int64)
	regCastFrom[uint8](Uint8)
	regCastFrom[uint16](Uint16)
	regCastFrom[uint32](Uint32)
	regCastFrom[uint64](Uint64)
	regCastFrom[float32](Float32)
	regCastFrom[float64](Float64)
	// bool is a uint8 holding 0 or 1: every cast from it is the uint8 one,
	// and bool to bool is a copy.
	regCastFrom[uint8](Bool)
	castTable[Float16][Int8] = wrapUnary(castFromF16[int8])
	castTable[Float16][Int16] = wrapUnary(castFromF16[int16])
	castTable[Float16][Int32] = wrapUnary(castFromF16[int32])
	castTable[Float16][Int64] = wrapUnary(castFromF16[int64])
	castTable[Float16][Uint8] = wrapUnary(castFromF16[uint8])
	castTable[Float16][Uint16] = wrapUnary(castFromF16[uint16])
	castTable[Float16][Uint32] = wrapUnary(castFromF16[uint32])
	castTable[Float16][Uint64] = wrapUnary(castFromF16[uint64])
	castTable[Float16][Float32] = wrapUnary(castFromF16[float32])
	castTable[Float16][Float64] = wrapUnary(castFromF16[float64])
	castTable[Float16][Bool] = wrapUnary(castF16ToBool)
	for t := Bool; t < numTypes; t++ {
		castTable[t][t] = copyKernel(t.Size())
	}
}
