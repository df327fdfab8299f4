package expr_test

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/broadcast"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
)

// TestParseFolding checks Parse's arithmetic on numbers against Python's:
// testdata/parse_fold.txt holds 600 random constant expressions and the
// value Python 3 gives each (parse_fold_gen.py), or "error" where Python
// raises, rejects the syntax, or gives an int beyond int64 or a complex.
// The result must be a weak scalar: f * (expr) stays float32.
func TestParseFolding(t *testing.T) {
	mem := checkedMem(t)
	fh, err := os.Open("testdata/parse_fold.txt")
	require.NoError(t, err)
	defer fh.Close()
	env := map[string]*expr.Node{"f": expr.Var("f", array.Float32, broadcast.StaticShape(2))}
	sc := bufio.NewScanner(fh)
	n := 0
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		require.Len(t, parts, 3, "%q", sc.Text())
		src, kind, want := parts[0], parts[1], parts[2]
		n++
		e, err := expr.Parse(src, nil)
		if kind == "error" {
			require.Error(t, err, "%s: Python raises", src)
			continue
		}
		require.NoError(t, err, "%s", src)
		out, err := expr.Eval(e, expr.WithAllocator(mem))
		require.NoError(t, err, "%s", src)
		t.Cleanup(out.Release)
		switch kind {
		case "bool":
			require.Equal(t, array.Bool, out.DType(), "%s", src)
			require.Equal(t, want == "True", arraytest.At[bool](t, out), "%s", src)
		case "int":
			require.Equal(t, array.Int64, out.DType(), "%s", src)
			w, err := strconv.ParseInt(want, 10, 64)
			require.NoError(t, err)
			require.Equal(t, w, arraytest.At[int64](t, out), "%s", src)
		case "float":
			require.Equal(t, array.Float64, out.DType(), "%s", src)
			w, err := strconv.ParseFloat(want, 64)
			require.NoError(t, err)
			got := arraytest.At[float64](t, out)
			ulps := uint64(0)
			if strings.Contains(src, "**") {
				ulps = 1 // Go's math.Pow, not C's pow
			}
			require.True(t, math.IsNaN(w) && math.IsNaN(got) || ulpDiff(w, got) <= ulps, "%s: %v, Python %v", src, got, w)
		default:
			t.Fatalf("bad kind %q", kind)
		}
		weak, err := expr.Parse("f * ("+src+")", env)
		require.NoError(t, err, "%s", src)
		require.Equal(t, array.Float32, weak.DType(), "f * (%s): a weak scalar", src)
	}
	require.NoError(t, sc.Err())
	require.Equal(t, 600, n)
}

// ulpDiff is the distance of two floats of the same sign in units in the
// last place (MaxUint64 for different signs).
func ulpDiff(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x>>63 != y>>63 {
		return math.MaxUint64
	}
	if x > y {
		return x - y
	}
	return y - x
}
