package conformance_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/internal/conformance"
)

// checked returns a Library over a checked allocator and asserts, when
// the test ends, that every array it made was released.
func checked(t testing.TB) *conformance.Library {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	t.Cleanup(func() {
		if n := mem.CurrentAlloc(); n != 0 {
			t.Errorf("%d bytes leaked", n)
		}
	})
	return conformance.NewLibrary(mem)
}

// Every testdata file, value cases computed by the library.
func TestLibraryTestdata(t *testing.T) {
	lib := checked(t)
	files, err := filepath.Glob("testdata/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var skips []string
	total := 0
	for _, name := range files {
		if strings.Contains(name, "numpy") {
			continue // TestNumpy2Sample, TestNumpyEdgeCases
		}
		f, err := conformance.Load(name)
		require.NoError(t, err)
		tl := run(t, f, lib)
		assert.Zero(t, tl.fail, "%s: %v", name, tl.lines)
		for _, l := range tl.lines {
			if strings.HasPrefix(l, "SKIP") {
				skips = append(skips, l)
			}
		}
		total += tl.pass
	}
	assert.Equal(t, []string{
		"SKIP stride0/values/divide/int_by_zero: integer division by zero: an error in the source, 0 in stride0 (documented)",
		"SKIP stride0/values/arithmetic/several_ops: arithmetic: the values of a typed suite run for [add subtract] belong to no single op",
		"SKIP stride0/values/broadcast/numpy/u2: dtype u2: not supported by the library",
	}, skips)
	t.Logf("%d passed, %d skipped", total, len(skips))
}

// The derived value cases cover every op of the README's list and every
// Broadcast mode, with int, float and bool cases and errors.
func TestDerivedValueCoverage(t *testing.T) {
	f, err := conformance.Load("testdata/derived_value_cases.json")
	require.NoError(t, err)
	type key struct{ op, cat string }
	seen := map[key]bool{}
	modes := map[string]bool{}
	ids := map[string]bool{}
	for _, c := range f.Cases {
		assert.False(t, ids[c.ID], "duplicate id %s", c.ID)
		ids[c.ID] = true
		assert.True(t, strings.HasPrefix(c.ID, "stride0/values/"), c.ID)
		assert.True(t, c.Derived, c.ID)
		assert.True(t, c.NeedsEvaluation(), c.ID)
		op := c.Op
		if op == "arithmetic" && len(c.Ops) == 1 {
			op = c.Ops[0]
		}
		cat := "error"
		if !c.Expected.Error {
			dt := c.Inputs[len(c.Inputs)-1].DType
			switch {
			case dt == "boolean":
				cat = "bool"
			case dt[0] == 'f':
				cat = "float"
			default:
				cat = "int"
			}
		}
		seen[key{op, cat}] = true
		if c.Op == "broadcast" || c.Op == "expand" {
			modes[c.Kind+"/"+c.Mode+"/"+cat] = true
		}
	}
	need := func(op string, cats ...string) {
		for _, cat := range cats {
			assert.True(t, seen[key{op, cat}], "no %s case for %s", cat, op)
		}
	}
	for _, op := range []string{"add", "subtract", "multiply", "divide", "power", "maximum", "minimum",
		"squared_difference", "floor_mod", "mod", "sub", "mul", "div", "pow"} {
		need(op, "int", "float", "error")
	}
	for _, op := range []string{"equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "select"} {
		need(op, "int", "float", "bool", "error")
	}
	for _, op := range []string{"logical_and", "logical_or", "logical_xor"} {
		need(op, "bool", "error")
	}
	for _, op := range []string{"and", "or", "xor"} {
		need(op, "bool")
	}
	need("prelu", "int", "float", "error")
	need("expand", "int", "float", "bool", "error")
	need("gemm", "float")
	need("arithmetic", "int")
	for _, m := range []string{"broadcast_numpy/numpy", "broadcast_explicit/explicit", "broadcast_pdpd/pdpd",
		"broadcast_bidirectional/bidirectional", "ngraph_axes/", "expand/"} {
		for _, cat := range []string{"int", "float", "bool", "error"} {
			assert.True(t, modes[m+"/"+cat], "no %s case for %s", cat, m)
		}
	}
}

// perturb changes the first expected value of a case.
func perturb(t *testing.T, raw json.RawMessage) (json.RawMessage, bool) {
	var obj map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	require.NoError(t, dec.Decode(&obj))
	exp := obj["expected"].(map[string]any)
	vals, _ := exp["values"].([]any)
	if len(vals) == 0 {
		return nil, false
	}
	switch v := vals[0].(type) {
	case bool:
		vals[0] = !v
	case json.Number:
		if f, _ := v.Float64(); strings.ContainsAny(string(v), ".eE") && f != 0 {
			vals[0] = f * 3
		} else if string(v) == "0" {
			vals[0] = 1
		} else {
			vals[0] = 0
		}
	case string: // nan, inf
		vals[0] = 1.5
	}
	out, err := json.Marshal(obj)
	require.NoError(t, err)
	return out, true
}

// A wrong expected value makes every evaluated case fail: no case passes
// without its values being compared.
func TestLibraryDetectsWrongValues(t *testing.T) {
	lib := checked(t)
	f, err := conformance.Load("testdata/derived_value_cases.json")
	require.NoError(t, err)
	n := 0
	for _, c := range f.Cases {
		if r := conformance.Check(c, lib); r.Status != conformance.Pass {
			continue
		}
		raw, ok := perturb(t, c.Raw)
		if !ok {
			continue
		}
		g := parse(t, string(raw))
		r := conformance.Check(g.Cases[0], lib)
		assert.Equal(t, conformance.Fail, r.Status, "%s: %s", c.ID, r)
		assert.Contains(t, r.Detail, "differ", c.ID)
		n++
	}
	assert.Greater(t, n, 100)
}

const f32Add = `{"id": "%s", "kind": "elementwise_numpy", "op": "add",
	"inputs": [{"name": "A", "shape": %s, "dtype": "f32", "values": %s}, {"name": "B", "shape": [], "dtype": "f32", "values": [1]}],
	"expected": %s}`

func TestLibraryFailures(t *testing.T) {
	lib := checked(t)
	for _, tc := range []struct{ name, c, want string }{
		{"value", `{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2], "dtype": "i32", "values": [1, 2]}, {"name": "B", "shape": [], "dtype": "i32", "values": [1]}], "expected": {"shape": [2], "dtype": "i32", "values": [2, 4]}}`,
			"FAIL a: expr(numpy): 1 of 2 values differ, first at [1]: got 3, want 4; got [2 3], want [2 4]"},
		{"dtype", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [2], "expected": {"shape": [2], "dtype": "i64", "values": [1, 1]}}`,
			"FAIL a: v3: shape inference: expected dtype i64, got i32"},
		{"shape", `{"id": "a", "kind": "broadcast_bidirectional", "op": "broadcast", "mode": "bidirectional", "inputs": [{"name": "data", "shape": [2, 1], "dtype": "i32", "values": [1, 2]}], "target_shape": [3], "expected": {"values": [1, 1, 1, 2, 2, 2]}}`,
			"PASS a"},
		{"shape inference", `{"id": "a", "kind": "broadcast_bidirectional", "op": "broadcast", "mode": "bidirectional", "inputs": [{"name": "data", "shape": [2, 1], "dtype": "i32", "values": [1, 2]}], "target_shape": [3], "expected": {"shape": [6], "values": [1, 1, 1, 2, 2, 2]}}`,
			"FAIL a: v3: shape inference: expected shape [6], got [2 3]"},
		{"error expected", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [2], "expected": {"error": true, "reason": "why"}}`,
			"FAIL a: view: expected error (why), got shape [2]"},
		{"error got", `{"id": "a", "kind": "elementwise_none", "op": "add", "inputs": [{"name": "A", "shape": [2], "dtype": "i32", "values": [1, 2]}, {"name": "B", "shape": [], "dtype": "i32", "values": [1]}], "expected": {"values": [2, 3]}}`,
			"FAIL a: shape inference: expected values, got error: broadcast none: shapes [2] and [] must be equal: shape 1 has rank 0, the shapes before have rank 1"},
		{"v1 bidirectional", `{"id": "a", "kind": "broadcast_bidirectional", "op": "broadcast", "op_versions": [1, 3], "mode": "bidirectional", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [2], "expected": {"shape": [2], "values": [1, 1]}}`,
			"FAIL a: v1: shape inference: expected shape [2], got error: Broadcast-1 has no bidirectional mode"},
		{"openvino literal within tolerance", `{"id": "ov/fm", "kind": "elementwise_numpy", "op": "floor_mod", "inputs": [{"name": "A", "shape": [2], "dtype": "f32", "values": [5.099999904632568, -5.099999904632568]}, {"name": "B", "shape": [], "dtype": "f32", "values": [3]}], "expected": {"shape": [2], "dtype": "f32", "values": [2.0999999046325684, 0.8999999761581421]}}`,
			"PASS ov/fm"},
		{"derived literal exact", `{"id": "stride0/fm", "kind": "elementwise_numpy", "op": "floor_mod", "inputs": [{"name": "A", "shape": [2], "dtype": "f32", "values": [5.099999904632568, -5.099999904632568]}, {"name": "B", "shape": [], "dtype": "f32", "values": [3]}], "expected": {"shape": [2], "dtype": "f32", "values": [2.0999999046325684, 0.8999999761581421]}}`,
			"FAIL stride0/fm: expr(numpy): 1 of 2 values differ, first at [1]: got 0.9000000953674316, want 0.8999999761581421; got [2.0999999046325684 0.9000000953674316], want [2.0999999046325684 0.8999999761581421]"},
		{"converted dtype cannot hold", `{"id": "a", "kind": "elementwise_numpy", "op": "add", "dtypes": ["i8", "i32"], "inputs": [{"name": "A", "shape": [1], "dtype": "i32", "values": [200]}, {"name": "B", "shape": [1], "dtype": "i32", "values": [1]}], "expected": {"shape": [1], "dtype": "i32", "values": [201]}}`,
			"PASS a: skipped dtype i8: inputs[0] (A): values[0]: 200 is out of the range of int8: not representable"},
		{"no dtype holds it", `{"id": "a", "kind": "elementwise_numpy", "op": "add", "dtypes": ["i8", "u8"], "inputs": [{"name": "A", "shape": [1], "dtype": "i32", "values": [-200]}, {"name": "B", "shape": [1], "dtype": "i32", "values": [1]}], "expected": {"shape": [1], "dtype": "i32", "values": [-199]}}`,
			"SKIP a: dtype i8: inputs[0] (A): values[0]: -200 is out of the range of int8: not representable; dtype u8: inputs[0] (A): values[0]: -200 is not an unsigned integer: not representable"},
		{"inexact conversion", `{"id": "a", "kind": "elementwise_numpy", "op": "add", "dtypes": ["f16", "f64"], "inputs": [{"name": "A", "shape": [1], "dtype": "f64", "values": [0.1]}, {"name": "B", "shape": [1], "dtype": "f64", "values": [0.2]}], "expected": {"shape": [1], "dtype": "f64", "values": [0.30000000000000004]}}`,
			"PASS a: skipped dtype f16: inputs[0] (A): values not exact in f16 (the expected values assume exact inputs)"},
		{"select error", `{"id": "a", "kind": "elementwise_numpy", "op": "select", "inputs": [{"name": "c", "shape": [2], "dtype": "boolean", "values": [true, false]}, {"name": "t", "shape": [3], "dtype": "i32", "values": [1, 2, 3]}, {"name": "e", "shape": [], "dtype": "i32", "values": [0]}], "expected": {"error": true}}`,
			"PASS a"},
		{"ngraph view and expr", `{"id": "a", "kind": "ngraph_axes", "op": "broadcast", "op_versions": [0], "broadcast_axes": [1], "inputs": [{"name": "arg", "shape": [2], "dtype": "u64", "values": [18446744073709551615, 0]}], "target_shape": [2, 2], "expected": {"shape": [2, 2], "values": [18446744073709551615, 18446744073709551615, 0, 0]}}`,
			"PASS a"},
		{"unknown op", `{"id": "a", "kind": "elementwise_numpy", "op": "atan2", "inputs": [{"name": "A", "shape": [1], "dtype": "f32", "values": [1]}, {"name": "B", "shape": [1], "dtype": "f32", "values": [1]}], "expected": {"values": [1]}}`,
			`SKIP a: op "atan2" is not supported`},
		{"unknown target", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [-1], "expected": {"values": [1]}}`,
			"SKIP a: target_shape [?] is not a static value: nothing to evaluate"},
		{"unknown target error", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [3], "dtype": "i32", "values": [1, 2, 3]}], "target_shape": [-1, 2], "expected": {"error": true}}`,
			"PASS a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := check(t, tc.c, lib)
			assert.Equal(t, tc.want, r.String())
		})
	}
}

// Malformed values fail the case with a message; nothing panics or leaks.
func TestLibraryMalformedValues(t *testing.T) {
	lib := checked(t)
	for _, tc := range []struct{ name, shape, values, expected, want string }{
		{"too few", `[3]`, `[1, 2]`, `{"values": [2, 3, 4]}`, `inputs[0] (A): 2 values for shape [3] (3 elements)`},
		{"too many", `[]`, `[1, 2]`, `{"values": [2]}`, `inputs[0] (A): 2 values for shape [] (1 elements)`},
		{"string", `[2]`, `[1, "x"]`, `{"values": [2, 3]}`, `inputs[0] (A): values[1]: "x" is not a number`},
		{"object", `[1]`, `[{}]`, `{"values": [2]}`, `inputs[0] (A): values[0]: map[string]interface {}{} is not a number`},
		{"not a list", `[1]`, `7`, `{"values": [2]}`, `inputs[0] (A): values: json: cannot unmarshal number into Go value of type []interface {}`},
		{"null values", `[1]`, `null`, `{"values": [2]}`, `inputs[0] (A): values: no values`},
		{"dynamic shape", `[-1]`, `[1]`, `{"values": [2]}`, `inputs[0] (A) has values but its shape [?] is not static`},
		{"expected count", `[2]`, `[1, 2]`, `{"shape": [2], "values": [2]}`, `1 expected values for shape [2] (2 elements)`},
		{"expected string", `[2]`, `[1, 2]`, `{"shape": [2], "values": [2, "three"]}`, `expected values: values[1]: "three" is not a number`},
		{"expected shape", `[2]`, `[1, 2]`, `{"shape": [-1], "values": [2, 3]}`, `-`},
		{"nan in f32 ok", `[1]`, `["nan"]`, `{"values": ["nan"]}`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := strings.NewReplacer("%s", "a").Replace(`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": SHAPE, "dtype": "f32", "values": VALUES}, {"name": "B", "shape": [], "dtype": "f32", "values": [1]}], "expected": EXPECTED}`)
			c = strings.NewReplacer("SHAPE", tc.shape, "VALUES", tc.values, "EXPECTED", tc.expected).Replace(c)
			r := check(t, c, lib)
			if tc.want == "" {
				assert.Equal(t, "PASS a", r.String())
				return
			}
			// "null values" is an input without values, like an absent list.
			want := "FAIL a: malformed case: " + tc.want
			if tc.name == "null values" {
				want = "FAIL a: malformed case: inputs[0] (A) has no values"
			}
			if tc.want == "-" {
				want = "FAIL a: shape inference: expected shape [?], got [2]"
			}
			assert.Equal(t, want, r.String())
		})
	}
	for _, tc := range []struct{ c, want string }{
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "i8", "values": [1.5]}, {"name": "B", "shape": [1], "dtype": "i8", "values": [1]}], "expected": {"values": [2]}}`,
			"FAIL a: malformed case: inputs[0] (A): values[0]: 1.5 is not an integer: not representable"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "u8", "values": [300]}, {"name": "B", "shape": [1], "dtype": "u8", "values": [1]}], "expected": {"values": [2]}}`,
			"FAIL a: malformed case: inputs[0] (A): values[0]: 300 is out of the range of uint8: not representable"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "i32", "values": ["nan"]}, {"name": "B", "shape": [1], "dtype": "i32", "values": [1]}], "expected": {"values": [2]}}`,
			`FAIL a: malformed case: inputs[0] (A): values[0]: "nan" is not a number`},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "i32"}, {"name": "B", "shape": [1], "dtype": "i32", "values": [1]}], "expected": {"values": [2]}}`,
			"FAIL a: malformed case: inputs[0] (A) has no values"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "i32", "values": [1]}], "expected": {"values": [2]}}`,
			"FAIL a: malformed case: add needs 2 inputs, has 1"},
		{`{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [], "target_shape": [2], "expected": {"values": [1, 1]}}`,
			"FAIL a: malformed case: a broadcast case needs the data input"},
		{`{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [2], "expected": {"values": [1, 1, 1]}}`,
			"FAIL a: view: 2 values, want 3"},
		{`{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [100000, 100000], "expected": {"values": [1]}}`,
			"FAIL a: view: expected values, got shape [100000 100000] (more than 65536 elements, not materialized)"},
		{`{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "i32", "values": [1]}], "target_shape": [100000, 100000], "expected": {"error": true}}`,
			"FAIL a: view: expected error (), got shape [100000 100000]"},
	} {
		r := check(t, tc.c, lib)
		assert.Equal(t, tc.want, r.String())
	}
}

// Without a ValueChecker, an error case with input values is still
// shape-checked; a value case is skipped.
func TestErrorCaseWithValuesWithoutEvaluator(t *testing.T) {
	r := check(t, `{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [3], "dtype": "i32", "values": [1, 2, 3]}, {"name": "B", "shape": [2], "dtype": "i32", "values": [1, 2]}], "expected": {"error": true}}`, nil)
	assert.Equal(t, "PASS a", r.String())
	r = check(t, `{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [3], "dtype": "i32", "values": [1, 2, 3]}, {"name": "B", "shape": [3], "dtype": "i32", "values": [1, 2, 3]}], "expected": {"error": true, "reason": "div by 0"}}`, nil)
	assert.Equal(t, "FAIL a: expected error (div by 0), got shape [3]", r.String())
}

// The NumPy 2 sample (two wrong expectations corrected in the copy, see
// their note): every case of this library's ops passes, and the functions
// of issue 11 skip.
func TestNumpy2Sample(t *testing.T) {
	lib := checked(t)
	f, err := conformance.Load("testdata/numpy2_sample.json")
	require.NoError(t, err)
	require.Len(t, f.Cases, 372)
	pass := 0
	for _, c := range f.Cases {
		r := conformance.Check(c, lib)
		switch r.Status {
		case conformance.Pass:
			pass++
		case conformance.Skip:
			assert.Contains(t, r.Detail, "issue 11", "%s", r)
		case conformance.Fail:
			t.Errorf("%s", r)
		}
	}
	t.Logf("%d passed", pass)
	assert.Greater(t, pass, 250)
}

// Every elementwise ufunc over edge values, computed by NumPy
// (gen_numpy_edge_cases.py): all pass.
func TestNumpyEdgeCases(t *testing.T) {
	lib := checked(t)
	f, err := conformance.Load("testdata/numpy_edge_cases.json")
	require.NoError(t, err)
	tl := run(t, f, lib)
	assert.Zero(t, tl.fail, "%v", tl.lines)
	assert.Zero(t, tl.skip, "%v", tl.lines)
	assert.Greater(t, tl.pass, 800)
}

// numpy.clip with Python ints beyond the dtype's range (NumPy 2.1 and
// later): all pass, none skipped (issue 17 item 5).
func TestNumpyClipCases(t *testing.T) {
	lib := checked(t)
	f, err := conformance.Load("testdata/numpy_clip_cases.json")
	require.NoError(t, err)
	tl := run(t, f, lib)
	assert.Zero(t, tl.fail, "%v", tl.lines)
	assert.Zero(t, tl.skip, "%v", tl.lines)
	assert.Equal(t, 18, tl.pass, "%v", tl.lines)
}

// numpy.round over edge values of every dtype, decimals -3 to 5, computed
// by NumPy (gen_numpy_round_cases.py): all pass, none skipped, bool's
// errors included.
func TestNumpyRoundCases(t *testing.T) {
	lib := checked(t)
	f, err := conformance.Load("testdata/numpy_round_cases.json")
	require.NoError(t, err)
	tl := run(t, f, lib)
	assert.Zero(t, tl.fail, "%v", tl.lines)
	assert.Zero(t, tl.skip, "%v", tl.lines)
	assert.Equal(t, 106, tl.pass, "%v", tl.lines)
}
