package expr_test

import (
	"errors"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
)

// FuzzParse feeds any text to Parse: it must not panic, an error must be a
// *ParseError with a position inside the text (or at its end) and no node,
// and a node must be valid and evaluate (or fail cleanly) without leaking.
//
//	go test -run '^$' -fuzz FuzzParse -fuzztime 60s ./expr/
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"x + y * 2", "-x**2", "2**3**2", "2**-1", "(x - mean(x)) / std(x)", "where(b, x, -x)",
		"sum(y, axis=(0, 1), keepdims=True)", "mean(y, axis=-1)", "clip(x, 0, None)", "round(y, 2)",
		"i << 2 | i >> 1 ^ ~i & 7", "x < y <= 3 != b", "not b and b or not b", "arctan2(x, 1.5e3)",
		"u + 300", "u * -1", "0x1f + 0o7 + 0b1 + 1_0", "1/0", "2**10**10", "x +", "(x", "x ) ",
		"sqrt(x, out=y)", "max(i, 0)", "isnan(x / 0.0)", "x if b else y", "lambda: 1", "\xff", "(((x)))",
		"fmax(x, y) + hypot(x, y) - copysign(1, x)", "sum(b) // 2 % 3", "prod(i, axis=())",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		var arrs []*array.Array
		leaf := func(a *array.Array, err error) *expr.Node {
			if err != nil {
				t.Fatal(err)
			}
			arrs = append(arrs, a)
			return expr.Leaf(a)
		}
		env := map[string]*expr.Node{
			"x": leaf(array.FromSlice(mem, []float64{-1.5, 0, 2.25}, 3)),
			"y": leaf(array.FromSlice(mem, []float32{1, -2, 3, 0.5, 5, -6}, 2, 3)),
			"i": leaf(array.FromSlice(mem, []int32{-7, 0, 9}, 3)),
			"u": leaf(array.FromSlice(mem, []uint8{0, 1, 255}, 3)),
			"b": leaf(array.FromSlice(mem, []bool{true, false, true, true, false, false}, 2, 3)),
		}
		e, err := expr.Parse(src, env)
		if err != nil {
			var pe *expr.ParseError
			switch {
			case !errors.As(err, &pe):
				t.Fatalf("%q: %T is not a *ParseError: %v", src, err, err)
			case pe.Pos < 0 || pe.Pos > len(src) && pe.Pos != expr.MaxParseLength:
				t.Fatalf("%q: position %d outside the text", src, pe.Pos)
			case e != nil:
				t.Fatalf("%q: a node with an error", src)
			}
		} else {
			if err := e.Err(); err != nil {
				t.Fatalf("%q: Parse returned a node with an error: %v", src, err)
			}
			if out, err := expr.Eval(e, expr.WithAllocator(mem)); err == nil {
				out.Release()
			}
		}
		for _, a := range arrs {
			a.Release()
		}
		mem.AssertSize(t, 0)
	})
}
