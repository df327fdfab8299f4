package expr_test

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/view"
)

// TestExtremaLongRuns checks ReduceMax, ReduceMin, Argmax and Argmin of
// float arrays whose runs are long enough for the vector kernels (and
// longer than the 65536 values a block of a run read in place), with NaN
// absent, once (first, last, anywhere) or everywhere, and signed zeros,
// through contiguous, transposed and reversed views, against loops over
// the logical elements (Go's max/min: NaN wins, max(-0, 0) = 0).
func TestExtremaLongRuns(t *testing.T) {
	rng := rand.New(rand.NewSource(27))
	for trial := 0; trial < 300; trial++ {
		rows := []int{1, 2, 3, 7, 9, 33}[rng.Intn(6)] // 4+ rows: four rows side by side (argRows4)
		cols := []int{31, 32, 64, 65, 200, 1025, 4100, 70001}[rng.Intn(8)]
		if cols > 65536 { // a run of more than one block read in place
			rows = min(rows, 2)
		}
		vals := make([]float64, rows*cols)
		kind := rng.Intn(6)
		for i := range vals {
			switch kind {
			case 0: // signed zeros and negatives
				vals[i] = []float64{0, math.Copysign(0, -1), -1}[rng.Intn(3)]
			case 1:
				vals[i] = []float64{0, math.Copysign(0, -1)}[rng.Intn(2)]
			default:
				vals[i] = rng.NormFloat64()
			}
		}
		switch rng.Intn(5) {
		case 0:
			vals[0] = math.NaN()
		case 1:
			vals[len(vals)-1] = math.NaN()
		case 2:
			vals[rng.Intn(len(vals))] = math.NaN()
			vals[rng.Intn(len(vals))] = math.NaN()
		case 3:
			if rng.Intn(4) == 0 {
				for i := range vals {
					vals[i] = math.NaN()
				}
			}
		}
		f32 := rng.Intn(2) == 0
		var a *array.Array
		var err error
		if f32 {
			v32 := make([]float32, len(vals))
			for i, v := range vals {
				v32[i] = float32(v)
			}
			a, err = array.Wrap(v32, rows, cols)
		} else {
			a, err = array.Wrap(append([]float64(nil), vals...), rows, cols)
		}
		if err != nil {
			t.Fatal(err)
		}
		switch rng.Intn(3) {
		case 1:
			if a, err = view.Transpose(a, 1, 0); err != nil {
				t.Fatal(err)
			}
		case 2:
			if a, err = view.Slice(a, view.All(), view.Reverse()); err != nil {
				t.Fatal(err)
			}
		}
		shape := a.Shape()
		logical, err := array.ToSlice[float64](a)
		if err != nil {
			t.Fatal(err)
		}
		at := func(i, j int) float64 { return logical[i*shape[1]+j] }
		for _, axis := range [][]int{nil, {0}, {1}} {
			for _, isMax := range []bool{true, false} {
				red := expr.ReduceMin
				arg := expr.Argmin
				if isMax {
					red, arg = expr.ReduceMax, expr.Argmax
				}
				got, err := expr.Eval(red(expr.Leaf(a), axis, false))
				if err != nil {
					t.Fatal(err)
				}
				gv, _ := array.ToSlice[float64](got)
				ga, err := expr.Eval(arg(expr.Leaf(a), axis, false))
				if err != nil {
					t.Fatal(err)
				}
				gi, _ := array.ToSlice[int64](ga)
				// the references, over groups of logical elements
				var groups [][][2]int
				switch {
				case axis == nil:
					g := [][2]int{}
					for i := 0; i < shape[0]; i++ {
						for j := 0; j < shape[1]; j++ {
							g = append(g, [2]int{i, j})
						}
					}
					groups = [][][2]int{g}
				case axis[0] == 0:
					for j := 0; j < shape[1]; j++ {
						g := [][2]int{}
						for i := 0; i < shape[0]; i++ {
							g = append(g, [2]int{i, j})
						}
						groups = append(groups, g)
					}
				default:
					for i := 0; i < shape[0]; i++ {
						g := [][2]int{}
						for j := 0; j < shape[1]; j++ {
							g = append(g, [2]int{i, j})
						}
						groups = append(groups, g)
					}
				}
				for k, g := range groups {
					want := math.Inf(1)
					if isMax {
						want = math.Inf(-1)
					}
					wi := -1
					for p, ij := range g {
						v := at(ij[0], ij[1])
						if isMax {
							want = max(want, v)
						} else {
							want = min(want, v)
						}
						if wi >= 0 && math.IsNaN(at(g[wi][0], g[wi][1])) {
							continue
						}
						if b := at(g[max(wi, 0)][0], g[max(wi, 0)][1]); wi < 0 || math.IsNaN(v) || isMax && v > b || !isMax && v < b {
							wi = p
						}
					}
					if !(gv[k] == want && math.Signbit(gv[k]) == math.Signbit(want) || math.IsNaN(gv[k]) && math.IsNaN(want)) {
						t.Fatalf("trial %d %v f32=%v axis %v max=%v [%d]: %v, want %v", trial, shape, f32, axis, isMax, k, gv[k], want)
					}
					if gi[k] != int64(wi) {
						t.Fatalf("trial %d %v f32=%v axis %v argmax=%v [%d]: %d, want %d", trial, shape, f32, axis, isMax, k, gi[k], wi)
					}
				}
			}
		}
	}
}
