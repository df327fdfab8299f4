package compute

import (
	"math"
	"math/rand"
	"testing"
	"unsafe"
)

// BenchmarkVmath times the kernels of vmath_amd64.s (new) against the Go
// loops they replaced (old: Go's math per element), on 1<<16 elements (in
// cache) of the vocab harness's ranges: uniform [-10, 10] for sin and cos,
// [0.01, 100] for log and power. Interleave runs of old and new with
// -count and compare best times (benchstat).
func BenchmarkVmath(b *testing.B) {
	const n = 1 << 16
	rng := rand.New(rand.NewSource(1))
	u64, p64 := make([]float64, n), make([]float64, n)
	u32, p32 := make([]float32, n), make([]float32, n)
	for i := range u64 {
		u64[i] = rng.Float64()*20 - 10
		p64[i] = 0.01 + rng.Float64()*99.99
		u32[i], p32[i] = float32(u64[i]), float32(p64[i])
	}
	d64, d32 := make([]float64, n), make([]float32, n)
	un := func(op Op, x []float64) func() {
		k := unTable[op][Float64]
		return func() { k(unsafe.Pointer(&d64[0]), unsafe.Pointer(&x[0]), n) }
	}
	pow := func(t Type, y float64) func() {
		k := binTable[Power][t][VS]
		if t == Float32 {
			y32 := float32(y)
			return func() { k(unsafe.Pointer(&d32[0]), unsafe.Pointer(&p32[0]), unsafe.Pointer(&y32), n) }
		}
		return func() { k(unsafe.Pointer(&d64[0]), unsafe.Pointer(&p64[0]), unsafe.Pointer(&y), n) }
	}
	cases := []struct {
		name     string
		size     int
		old, new func()
	}{
		{"sin/float64", 8, func() {
			for i, v := range u64 {
				d64[i] = math.Sin(v)
			}
		}, un(Sin, u64)},
		{"cos/float64", 8, func() {
			for i, v := range u64 {
				d64[i] = math.Cos(v)
			}
		}, un(Cos, u64)},
		{"log/float64", 8, func() {
			for i, v := range p64 {
				d64[i] = math.Log(v)
			}
		}, un(Log, p64)},
		{"power2.5/float64", 8, func() {
			for i, v := range p64 {
				d64[i] = math.Pow(v, 2.5)
			}
		}, pow(Float64, 2.5)},
		{"power2.5/float32", 4, func() {
			for i, v := range p32 {
				d32[i] = float32(math.Pow(float64(v), 2.5))
			}
		}, pow(Float32, 2.5)},
		{"power3/float64", 8, func() {
			for i, v := range p64 {
				d64[i] = powF(v, 3)
			}
		}, pow(Float64, 3)},
		{"power3/float32", 4, func() {
			for i, v := range p32 {
				d32[i] = float32(powF(float64(v), 3))
			}
		}, pow(Float32, 3)},
	}
	s64, s32 := make([]float64, n), make([]float32, n) // uniform [-1, 1]
	for i := range s64 {
		s64[i] = rng.Float64()*2 - 1
		s32[i] = float32(s64[i])
	}
	for _, f := range []struct {
		op     Op
		in     string
		f      func(float64) float64
		f32too bool
	}{{Log1p, "s", math.Log1p, true}, {Expm1, "u", math.Expm1, true}, {Tanh, "u", math.Tanh, false}, {Arctan, "u", math.Atan, true},
		{Arcsin, "s", math.Asin, true}, {Tan, "u", math.Tan, true}} {
		x64, x32 := u64, u32
		if f.in == "s" {
			x64, x32 = s64, s32
		}
		{
			k := unTable[f.op][Float64]
			cases = append(cases, struct {
				name     string
				size     int
				old, new func()
			}{f.op.String() + "/float64", 8, func() {
				for i, v := range x64 {
					d64[i] = f.f(v)
				}
			}, func() { k(unsafe.Pointer(&d64[0]), unsafe.Pointer(&x64[0]), n) }})
		}
		if f.f32too {
			k := unTable[f.op][Float32]
			cases = append(cases, struct {
				name     string
				size     int
				old, new func()
			}{f.op.String() + "/float32", 4, func() {
				for i, v := range x32 {
					d32[i] = float32(f.f(float64(v)))
				}
			}, func() { k(unsafe.Pointer(&d32[0]), unsafe.Pointer(&x32[0]), n) }})
		}
	}
	atan2 := binTable[Arctan2][Float64][VV]
	cases = append(cases, struct {
		name     string
		size     int
		old, new func()
	}{"arctan2/float64", 8, func() {
		for i, v := range u64 {
			d64[i] = math.Atan2(v, s64[i])
		}
	}, func() { atan2(unsafe.Pointer(&d64[0]), unsafe.Pointer(&u64[0]), unsafe.Pointer(&s64[0]), n) }})
	for _, c := range cases {
		for _, v := range []struct {
			name string
			f    func()
		}{{"old", c.old}, {"new", c.new}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				b.SetBytes(int64(2 * n * c.size))
				b.ReportAllocs()
				for b.Loop() {
					v.f()
				}
			})
		}
	}
}
