package expr_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// TestArgExtremeStopsAtTypeExtreme checks argmax and argmin along rows
// longer than one block (so that a walk that stops at a value nothing can
// beat, such as a bool's first true or int8's 127, skips later blocks)
// against a plain loop: bool, int8, uint8 and int16 rows where the type's
// extreme sits early, late, several times, at block edges (4096 values a
// block through a buffer, 65536 read in place) or nowhere, with and
// without nulls.
func TestArgExtremeStopsAtTypeExtreme(t *testing.T) {
	for _, cols := range []int{10000, 140000} {
		argExtremeStops(t, cols)
	}
}

func argExtremeStops(t *testing.T, cols int) {
	r := rand.New(rand.NewPCG(41, uint64(cols)))
	const rows = 6
	for _, dt := range []array.DType{array.Bool, array.Int8, array.Uint8, array.Int16} {
		for trial := 0; trial < 8; trial++ {
			v := make([]int16, rows*cols)
			valid := make([]bool, rows*cols)
			ext := map[array.DType][2]int16{array.Bool: {0, 1}, array.Int8: {-128, 127}, array.Uint8: {0, 255}, array.Int16: {-32768, 32767}}[dt]
			lo, hi := ext[0], ext[1]
			for i := range v {
				valid[i] = trial%2 == 0 || r.IntN(10) != 0
				switch {
				case dt == array.Bool:
					v[i] = int16(b2i(r.IntN(5000) == 0)) // mostly false: trues are rare
				case trial >= 6: // the two lowest values: a bool-like block of a wider type
					v[i] = lo + int16(r.IntN(2))
				default:
					v[i] = int16(int(lo) + 1 + r.IntN(int(hi)-int(lo)-1)) // strictly inside the range
				}
			}
			for row := 0; row < rows; row++ { // the extremes at chosen places
				for _, at := range [][]int{{}, {3}, {cols / 2, cols - 1}, {cols - 1}, {0, 4096, 8192, 65536 % cols}, {4095, 65535 % cols}}[row] {
					v[row*cols+at] = hi
					if dt != array.Bool {
						v[row*cols+(at+1)%cols] = lo
					} else if trial%4 == 1 {
						v[row*cols+at] = lo // bools: all false but for nulls
					}
				}
			}
			x := leafOf(t, dt, v, valid, trial%2 == 1, rows, cols)
			for _, isMax := range []bool{true, false} {
				e := expr.Argmin(x, []int{1}, false)
				if isMax {
					e = expr.Argmax(x, []int{1}, false)
				}
				got, err := expr.Eval(e)
				require.NoError(t, err)
				idx, err := array.ToSlice[int64](got)
				require.NoError(t, err)
				got.Release()
				for row := 0; row < rows; row++ {
					want := int64(-1)
					for c := 0; c < cols; c++ {
						i := row*cols + c
						if trial%2 == 1 && !valid[i] {
							continue
						}
						if want < 0 || (isMax && v[i] > v[row*cols+int(want)]) || (!isMax && v[i] < v[row*cols+int(want)]) {
							want = int64(c)
						}
					}
					if want < 0 {
						want = 0 // NumPy's answer for a row without valid values is not defined; stride0 gives 0
						if idx[row] != want {
							continue
						}
					}
					require.Equal(t, want, idx[row], "%v cols %d trial %d row %d isMax %v", dt, cols, trial, row, isMax)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// leafOf builds a dt array of shape from int16 values (and, when masked,
// their validity).
func leafOf(t *testing.T, dt array.DType, v []int16, valid []bool, masked bool, shape ...int) *expr.Node {
	t.Helper()
	if !masked {
		valid = nil
	}
	a, err := array.FromSliceValid(nil, v, valid, shape...)
	require.NoError(t, err)
	c, err := expr.Eval(expr.Cast(expr.Leaf(a), dt))
	require.NoError(t, err)
	a.Release()
	t.Cleanup(c.Release)
	return expr.Leaf(c)
}
