package compute

import (
	"testing"
	"unsafe"
)

// TestFoldsAndArgExtremesAllocateNothing: the integer folds, the float
// nanmax/nanmin folds, the bool any/all searches and the float, bool and
// (with the vector kernels) integer argmin/argmax call their kernels with
// accumulators on the stack; through
// a func value those escaped to the heap, an allocation per call (per row
// of a reduction along rows).
func TestFoldsAndArgExtremesAllocateNothing(t *testing.T) {
	x8 := make([]int8, 1000)
	f32 := make([]float32, 1000)
	f64 := make([]float64, 1000)
	for i := range x8 {
		x8[i] = int8(i * 7)
		f32[i] = float32(i % 13)
		f64[i] = float64(i % 11)
	}
	fold, err := LookupFold(Maximum, Int8)
	if err != nil {
		t.Fatal(err)
	}
	nanmax, err := LookupFold(Fmax, Float32)
	if err != nil {
		t.Fatal(err)
	}
	bools := make([]byte, 1000)
	bools[999] = 1
	anyB, err := LookupFold(Maximum, Bool)
	if err != nil {
		t.Fatal(err)
	}
	allB, err := LookupFold(Minimum, Bool)
	if err != nil {
		t.Fatal(err)
	}
	var accB uint8
	var acc int8 = -128
	var accF float32
	var p4 [4]unsafe.Pointer
	var at [4]int
	for i := range p4 {
		p4[i] = unsafe.Pointer(&f32[i*100])
	}
	for name, f := range map[string]func(){
		"int8 max fold":       func() { fold(unsafe.Pointer(&acc), unsafe.Pointer(&x8[0]), len(x8)) },
		"float32 nanmax fold": func() { nanmax(unsafe.Pointer(&accF), unsafe.Pointer(&f32[0]), len(f32)) },
		"argmax float32":      func() { ArgExtremeFloat32(unsafe.Pointer(&f32[0]), len(f32), true) },
		"argmin float64":      func() { ArgExtremeFloat64(unsafe.Pointer(&f64[0]), len(f64), false) },
		"argmax4 float32":     func() { ArgExtreme4Float32(&p4, 100, true, &at) },
		"bool any fold":       func() { accB = 0; anyB(unsafe.Pointer(&accB), unsafe.Pointer(&bools[0]), len(bools)) },
		"bool all fold":       func() { accB = 1; allB(unsafe.Pointer(&accB), unsafe.Pointer(&bools[0]), len(bools)) },
		"bool argmax":         func() { ArgExtremeInt(Bool, unsafe.Pointer(&bools[0]), len(bools), true) },
		"bool argmin":         func() { ArgExtremeInt(Bool, unsafe.Pointer(&bools[0]), len(bools), false) },
	} {
		if n := testing.AllocsPerRun(20, f); n != 0 {
			t.Errorf("%s: %v allocations a call", name, n)
		}
	}
	if argExtremeIntFast == nil {
		return // the Go fallback's extreme escapes through the func values
	}
	ints := make([]byte, 8000)
	for i := range ints {
		ints[i] = byte(i * 37)
	}
	for _, tt := range []Type{Int8, Uint8, Int16, Uint16, Int32, Uint32, Int64, Uint64} {
		for _, isMax := range []bool{true, false} {
			f := func() { ArgExtremeInt(tt, unsafe.Pointer(&ints[0]), len(ints)/tt.Size(), isMax) }
			if n := testing.AllocsPerRun(20, f); n != 0 {
				t.Errorf("%v arg extreme (max %v): %v allocations a call", tt, isMax, n)
			}
		}
	}
}
