package compute

import (
	"math"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// naiveMoments is the two-pass definition in float64.
func naiveMoments(x []float64) Moments {
	if len(x) == 0 {
		return Moments{}
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	m := s / float64(len(x))
	q := 0.0
	for _, v := range x {
		q += (v - m) * (v - m)
	}
	return Moments{Count: int64(len(x)), Mean: m, M2: q}
}

func closeMoments(t *testing.T, want, got Moments, tol float64, msg ...any) {
	t.Helper()
	require.Equal(t, want.Count, got.Count, msg...)
	require.InDelta(t, want.Mean, got.Mean, tol*(1+math.Abs(want.Mean)), msg...)
	require.InDelta(t, want.M2, got.M2, tol*(1+math.Abs(want.M2)), msg...)
}

func TestMomentsMergeAndPush(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for c := 0; c < 200; c++ {
		n := rng.IntN(300)
		x := make([]float64, n)
		for i := range x {
			x[i] = 1e6 + rng.NormFloat64()*float64(1+c%7)
		}
		want := naiveMoments(x)
		// Welford
		var w Moments
		for _, v := range x {
			w.Push(v)
		}
		closeMoments(t, want, w, 1e-9, "push")
		// any split into parts, merged in any grouping
		cut := []int{0, rng.IntN(n + 1), n}
		if cut[1] > 0 {
			cut = []int{0, rng.IntN(cut[1] + 1), cut[1], n}
		}
		var parts []Moments
		for i := 0; i+1 < len(cut); i++ {
			parts = append(parts, naiveMoments(x[cut[i]:cut[i+1]]))
		}
		left := Moments{}
		for _, p := range parts {
			left = left.Merge(p)
		}
		right := Moments{}
		for i := len(parts) - 1; i >= 0; i-- {
			right = parts[i].Merge(right)
		}
		closeMoments(t, want, left, 1e-9, "merged left to right")
		closeMoments(t, want, right, 1e-9, "merged right to left")
	}
	// the zero value is the identity; Var follows NumPy's division
	m := Moments{Count: 2, Mean: 1.5, M2: 0.5}
	require.Equal(t, m, m.Merge(Moments{}))
	require.Equal(t, m, Moments{}.Merge(m))
	require.Equal(t, 0.25, m.Var(0))
	require.Equal(t, 0.5, m.Var(1))
	require.True(t, math.IsInf(m.Var(2), 1))
	require.True(t, math.IsNaN(Moments{}.Var(0)))
	require.True(t, math.IsNaN(Moments{Count: 1, Mean: 3}.Var(1)))
	require.Equal(t, math.Sqrt(0.5), m.Std(1))
}

func TestMomentsOfBlocks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	tmp64 := make([]float64, MomentsBlock)
	tmp32 := make([]float32, MomentsBlock)
	for c := 0; c < 100; c++ {
		n := rng.IntN(MomentsBlock + 1)
		x := make([]float64, n)
		x32 := make([]float32, n)
		off := float64(rng.IntN(3)) * 1e4
		for i := range x {
			x32[i] = float32(off + rng.NormFloat64())
			x[i] = float64(x32[i])
		}
		want := naiveMoments(x)
		closeMoments(t, want, MomentsOf64(x, tmp64), 1e-12, "float64 n=%d", n)
		got := MomentsOf32(x32, tmp32)
		require.Equal(t, want.Count, got.Count)
		require.InDelta(t, want.Mean, got.Mean, 1e-6*(1+math.Abs(want.Mean)))
		require.InDelta(t, want.M2, got.M2, 1e-4*(1+want.M2), "float32 n=%d", n) // float32 sums of a well-centred block
	}
	// NaN and Inf propagate
	require.True(t, math.IsNaN(MomentsOf64([]float64{1, math.NaN(), 2}, tmp64).M2))
	require.True(t, math.IsNaN(MomentsOf64([]float64{math.Inf(1)}, tmp64).M2))
	require.True(t, math.IsNaN(MomentsOf32([]float32{1, float32(math.Inf(-1))}, tmp32).M2))
}

func TestLaneMomentsRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for c := 0; c < 60; c++ {
		lanes, nrows := 1+rng.IntN(70), 1+rng.IntN(40)
		stride := lanes + rng.IntN(3)
		x := make([]float64, nrows*stride)
		x32 := make([]float32, len(x))
		for i := range x {
			x32[i] = float32(100 + rng.NormFloat64())
			x[i] = float64(x32[i])
		}
		for _, wide := range []bool{false, true} {
			l := LaneMoments{Mean: make([]float64, lanes), M2: make([]float64, lanes)}
			bs, bq, tmp := make([]float64, lanes), make([]float64, lanes), make([]float64, lanes)
			bs32, bq32, tmp32 := make([]float32, lanes), make([]float32, lanes), make([]float32, lanes)
			// in blocks of random sizes, rows evenly spaced or not
			for r0 := 0; r0 < nrows; {
				nb := min(nrows-r0, 1+rng.IntN(9))
				var rows []unsafe.Pointer
				order := rng.Perm(nb)
				if rng.IntN(2) == 0 {
					for i := range order {
						order[i] = i
					}
				}
				for _, i := range order {
					if wide {
						rows = append(rows, unsafe.Pointer(&x[(r0+i)*stride]))
					} else {
						rows = append(rows, unsafe.Pointer(&x32[(r0+i)*stride]))
					}
				}
				if wide {
					l.MergeRows64(rows, bs, bq, tmp)
				} else {
					l.MergeRows32(rows, bs32, bq32, tmp32)
				}
				r0 += nb
			}
			require.Equal(t, int64(nrows), l.Count)
			for i := 0; i < lanes; i++ {
				col := make([]float64, nrows)
				for r := range col {
					col[r] = x[r*stride+i]
				}
				want := naiveMoments(col)
				tol := 1e-12
				if !wide {
					tol = 1e-4
				}
				closeMoments(t, want, Moments{Count: l.Count, Mean: l.Mean[i], M2: l.M2[i]}, tol, "lane %d wide %v", i, wide)
			}
		}
	}
}

func TestScans(t *testing.T) {
	x := []int32{1, 2, 3, 4, 5, 6}
	k, err := LookupScan(Add, Int32)
	require.NoError(t, err)
	k(unsafe.Pointer(&x[0]), 2, 3, 3) // two rows of three
	require.Equal(t, []int32{1, 2, 3, 5, 7, 9}, x)
	k(unsafe.Pointer(&x[0]), 3, 1, 1) // the first three as one line
	require.Equal(t, []int32{1, 3, 6, 5, 7, 9}, x)
	f := []float64{1, 2, 3, 4}
	m, err := LookupScan(Mul, Float64)
	require.NoError(t, err)
	m(unsafe.Pointer(&f[0]), 4, 1, 1)
	require.Equal(t, []float64{1, 2, 6, 24}, f)
	// float16: each step rounded: 2048 + 1 stays 2048
	h := []uint16{0x6800, 0x3c00, 0x3c00} // 2048, 1, 1
	hs, err := LookupScan(Add, Float16)
	require.NoError(t, err)
	hs(unsafe.Pointer(&h[0]), 3, 1, 1)
	require.Equal(t, []uint16{0x6800, 0x6800, 0x6800}, h)
	_, err = LookupScan(Add, Bool)
	require.Error(t, err)
	_, err = LookupScan(Sub, Int8)
	require.Error(t, err)
	_, err = LookupScan(Op(250), Int8)
	require.Error(t, err)
}

// TestMomentsOverflow: blocks of finite values near the top of the range,
// whose plain sums overflow (a mean of ±Inf, then Inf - Inf), give the
// variance's true value: +Inf when it is beyond float64 (NumPy's answer
// too), finite when it is not (all equal: 0, where NumPy's overflowed mean
// gives Inf). A NaN or an infinity in the data still gives NaN. Both the
// one-block functions and the lanes (a reduction over an outer axis), for
// float32 and float64.
func TestMomentsOverflow(t *testing.T) {
	const n = 24
	cases := []struct {
		name string
		f    func(i int) float64
		want float64 // Var(0): +Inf, NaN or a finite value
	}{
		{"spread", func(i int) float64 { return math.MaxFloat64 * float64(1-2*(i%2)) * (0.5 + float64(i)/64) }, math.Inf(1)},
		{"equal", func(i int) float64 { return 1e308 }, 0},
		{"nan", func(i int) float64 { return []float64{1e308, math.NaN()}[i%2] }, math.NaN()},
		{"inf", func(i int) float64 { return []float64{1e308, math.Inf(1), -1e308}[i%3] }, math.NaN()},
	}
	check := func(name string, got, want float64) {
		t.Helper()
		if !(got == want || math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("%s: var %v, want %v", name, got, want)
		}
	}
	for _, c := range cases {
		x64 := make([]float64, n)
		for i := range x64 {
			x64[i] = c.f(i)
		}
		check(c.name+" float64", MomentsOf64(x64, make([]float64, n)).Var(0), c.want)
		// lanes: column 0 holds the case, column 1 zeros
		rows := make([]unsafe.Pointer, n)
		buf := make([]float64, 2*n)
		for i := range rows {
			buf[2*i] = x64[i]
			rows[i] = unsafe.Pointer(&buf[2*i])
		}
		l := LaneMoments{Mean: make([]float64, 2), M2: make([]float64, 2)}
		l.MergeRows64(rows[:n/2], make([]float64, 2), make([]float64, 2), make([]float64, 2))
		l.MergeRows64(rows[n/2:], make([]float64, 2), make([]float64, 2), make([]float64, 2))
		check(c.name+" float64 lanes", l.Lane(0).Var(0), c.want)
		check(c.name+" float64 lanes, zero column", l.Lane(1).Var(0), 0)
		// float32: the same shapes at float32's top
		x32 := make([]float32, n)
		for i := range x32 {
			x32[i] = float32(x64[i] / math.MaxFloat64 * math.MaxFloat32)
		}
		// (spread: +Inf, as NumPy's, whose squares in float32 overflow too)
		check(c.name+" float32", MomentsOf32(x32, make([]float32, n)).Var(0), c.want)
	}
}
