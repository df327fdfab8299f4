package conformance_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/internal/conformance"
)

type tally struct {
	pass, fail, skip int
	lines            []string
}

func run(t *testing.T, f *conformance.File, vc conformance.ValueChecker) tally {
	t.Helper()
	var tl tally
	for _, c := range f.Cases {
		r := conformance.Check(c, vc)
		require.Equal(t, c.ID, r.ID)
		switch r.Status {
		case conformance.Pass:
			tl.pass++
		case conformance.Fail:
			tl.fail++
			tl.lines = append(tl.lines, r.String())
		case conformance.Skip:
			tl.skip++
			tl.lines = append(tl.lines, r.String())
		}
	}
	return tl
}

// The public case file: the shape examples of the specification pages.
func TestSpecDocShapeCases(t *testing.T) {
	f, err := conformance.Load("testdata/spec_doc_shape_cases.json")
	require.NoError(t, err)
	require.Len(t, f.Cases, 49)
	tl := run(t, f, nil)
	assert.Empty(t, tl.lines)
	assert.Equal(t, 49, tl.pass)
	assert.Equal(t, 0, tl.fail)
	assert.Equal(t, 0, tl.skip)
}

// Synthetic cases: dynamic and interval dims, unknown target values,
// element types and the README's eight subtleties.
func TestSyntheticShapeCases(t *testing.T) {
	f, err := conformance.Load("testdata/synthetic_shape_cases.json")
	require.NoError(t, err)
	tl := run(t, f, nil)
	assert.Empty(t, tl.lines)
	assert.Equal(t, len(f.Cases), tl.pass)
	ids := map[string]bool{}
	for _, c := range f.Cases {
		assert.False(t, ids[c.ID], "duplicate id %s", c.ID)
		ids[c.ID] = true
	}
	for i := 1; i <= 8; i++ {
		found := false
		for id := range ids {
			found = found || strings.Contains(id, fmt.Sprintf("subtlety%d", i))
		}
		assert.True(t, found, "no case for subtlety %d", i)
	}
}

func parse(t *testing.T, cases string) *conformance.File {
	t.Helper()
	f, err := conformance.Parse([]byte(`{"schema": "conformance-case-file/1", "cases": [` + cases + `]}`))
	require.NoError(t, err)
	return f
}

func check(t *testing.T, c string, vc conformance.ValueChecker) conformance.Result {
	t.Helper()
	f := parse(t, c)
	require.Len(t, f.Cases, 1)
	return conformance.Check(f.Cases[0], vc)
}

func TestSkips(t *testing.T) {
	for _, tc := range []struct{ name, c, reason string }{
		{"u2 input", `{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2], "dtype": "u2"}, {"name": "B", "shape": [2], "dtype": "u2"}], "expected": {"shape": [2]}}`,
			"dtype u2: not supported by the library"},
		{"only bf16", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "op_versions": [3], "mode": "numpy", "inputs": [{"name": "data", "shape": [2], "dtype": "bf16"}], "dtypes": ["bf16", "u2"], "target_shape": [3, 2], "expected": {"shape": [3, 2]}}`,
			"dtypes [bf16 u2]: none supported by the library"},
		{"values", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "mode": "numpy", "inputs": [{"name": "data", "shape": [1], "dtype": "f32", "values": [1.5]}], "target_shape": [2], "expected": {"shape": [2], "values": [1.5, 1.5]}}`,
			"values: not evaluated (shape checks only)"},
		{"kind", `{"id": "a", "kind": "reduce_sum", "op": "sum", "inputs": [], "expected": {"shape": []}}`,
			`kind "reduce_sum" is not supported`},
		{"version", `{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "op_versions": [4], "mode": "numpy", "inputs": [{"name": "data", "shape": [2], "dtype": "f32"}], "target_shape": [3, 2], "expected": {"shape": [3, 2]}}`,
			"Broadcast-4 is not a Broadcast op version (1 or 3)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := check(t, tc.c, nil)
			assert.Equal(t, conformance.Skip, r.Status, r.String())
			assert.Equal(t, "SKIP a: "+tc.reason, r.String())
		})
	}
}

type fakeValues struct{ seen []string }

func (f *fakeValues) CheckValues(c conformance.Case) (conformance.Result, bool) {
	f.seen = append(f.seen, c.ID)
	if c.ID == "mine" {
		return conformance.Result{Status: conformance.Fail, Detail: "values differ"}, true
	}
	return conformance.Result{}, false
}

func TestValueChecker(t *testing.T) {
	f := parse(t, `
		{"id": "mine", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "f32", "values": [1]}, {"name": "B", "shape": [], "dtype": "f32", "values": [2]}], "expected": {"shape": [1], "values": [3]}},
		{"id": "other", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "f32", "values": [1]}, {"name": "B", "shape": [], "dtype": "f32", "values": [2]}], "expected": {"values": [3]}},
		{"id": "shape", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [1], "dtype": "f32"}, {"name": "B", "shape": [], "dtype": "f32"}], "expected": {"shape": [1]}}`)
	vc := &fakeValues{}
	var got []string
	for _, c := range f.Cases {
		got = append(got, conformance.Check(c, vc).String())
	}
	assert.Equal(t, []string{"FAIL mine: values differ", "SKIP other: values: not evaluated (shape checks only)", "PASS shape"}, got)
	assert.Equal(t, []string{"mine", "other"}, vc.seen)
	assert.Equal(t, `[3]`, string(f.Cases[0].Expected.Values))
	assert.Equal(t, `[1]`, string(f.Cases[0].Inputs[0].Values))
}

func TestFailureDetail(t *testing.T) {
	for _, tc := range []struct{ c, want string }{
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2, 3], "dtype": "f32"}, {"name": "B", "shape": [3], "dtype": "f32"}], "expected": {"shape": [2, -1]}}`,
			"FAIL a: expected shape [2 ?], got [2 3]"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2, 3], "dtype": "f32"}, {"name": "B", "shape": [3], "dtype": "f32"}], "expected": {"error": true, "reason": "because"}}`,
			"FAIL a: expected error (because), got shape [2 3]"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2, 3], "dtype": "f32"}, {"name": "B", "shape": [2], "dtype": "f32"}], "expected": {"shape": [2, 3]}}`,
			"FAIL a: expected shape [2 3], got error: broadcast multidirectional: cannot broadcast [2 3] and [2]: dim 1 is 3 in the shapes before and 2 in shape 1"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "equal", "inputs": [{"name": "A", "shape": [2], "dtype": "f32"}, {"name": "B", "shape": [2], "dtype": "f32"}], "expected": {"shape": [2], "dtype": "f32"}}`,
			"FAIL a: expected dtype f32, got boolean"},
		{`{"id": "a", "kind": "broadcast_bidirectional", "op": "broadcast", "op_versions": [3], "mode": "bidirectional", "inputs": [{"name": "data", "shape": [3, 1], "dtype": "f32"}], "target_shape": [2, 1, 6], "expected": {"shape": [2, 3, 6], "broadcast_axes": [0]}}`,
			"FAIL a: expected broadcast axes [0], got [0 2]"},
		{`{"id": "a", "kind": "broadcast_numpy", "op": "broadcast", "op_versions": [1, 3], "mode": "numpy", "inputs": [{"name": "data", "shape": [3], "dtype": "f32"}], "target_shape": [2, 3], "expected": {"shape": [2, 4]}}`,
			"FAIL a: v1: expected shape [2 4], got [2 3]"},
		{`{"id": "a", "kind": "elementwise_numpy", "op": "add", "dtypes": ["f32", "i32"], "inputs": [{"name": "A", "shape": [2], "dtype": "f32"}, {"name": "B", "shape": [2], "dtype": "f32"}], "expected": {"shape": [2], "dtype": "f32"}}`,
			"PASS a"},
	} {
		assert.Equal(t, tc.want, check(t, tc.c, nil).String())
	}
}

func TestMalformedCases(t *testing.T) {
	for _, tc := range []struct{ name, c, want string }{
		{"not an object", `7`, `FAIL #0: malformed case: json: cannot unmarshal number into Go value of type map[string]json.RawMessage`},
		{"no id", `{"kind": "expand", "expected": {"shape": []}}`, "FAIL #0: malformed case: case has no id"},
		{"bad dim", `{"id": "a", "kind": "expand", "inputs": [{"name": "d", "shape": [2, -5]}], "expected": {"shape": []}}`,
			`FAIL a: malformed case: field "inputs[0]": field "shape": dim 1: invalid dim -5`},
		{"bad interval", `{"id": "a", "kind": "expand", "inputs": [{"name": "d", "shape": [[5, 2]]}], "expected": {"shape": []}}`,
			`FAIL a: malformed case: field "inputs[0]": field "shape": dim 0: invalid interval [5, 2]`},
		{"float dim", `{"id": "a", "kind": "expand", "inputs": [{"name": "d", "shape": [2.5]}], "expected": {"shape": []}}`,
			`FAIL a: malformed case: field "inputs[0]": field "shape": dim 0: 2.5 is not an integer`},
		{"string shape", `{"id": "a", "kind": "expand", "inputs": [{"name": "d", "shape": "2x3"}], "expected": {"shape": []}}`,
			`FAIL a: malformed case: field "inputs[0]": field "shape": json: cannot unmarshal string into Go value of type []json.RawMessage`},
		{"no expected", `{"id": "a", "kind": "expand", "inputs": []}`, `FAIL a: malformed case: field "expected": missing`},
		{"empty expected", `{"id": "a", "kind": "expand", "inputs": [], "expected": {}}`, `FAIL a: malformed case: field "expected": field "shape": a success needs a shape or values`},
		{"no input shape", `{"id": "a", "kind": "expand", "inputs": [{"name": "d"}], "expected": {"shape": []}}`, `FAIL a: malformed case: field "inputs[0]": field "shape": missing`},
		{"select arity", `{"id": "a", "kind": "elementwise_numpy", "op": "select", "inputs": [{"name": "c", "shape": [1], "dtype": "boolean"}], "expected": {"shape": [1]}}`,
			"FAIL a: malformed case: select needs 3 inputs, has 1"},
		{"ngraph axes", `{"id": "a", "kind": "ngraph_axes", "op": "broadcast", "inputs": [{"name": "arg", "shape": [1]}], "target_shape": [1], "expected": {"shape": [1]}}`,
			"FAIL a: malformed case: an ngraph case needs broadcast_axes"},
		{"huge int", `{"id": "a", "kind": "expand", "inputs": [{"name": "d", "shape": [99999999999999999999]}], "expected": {"shape": []}}`,
			`FAIL a: malformed case: field "inputs[0]": field "shape": dim 0: 99999999999999999999 is not an integer`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, check(t, tc.c, nil).String())
		})
	}
}

func TestUnknownFieldsAndNulls(t *testing.T) {
	r := check(t, `{"id": "a", "future_field": {"x": [1, 2]}, "kind": "broadcast_numpy", "op": "broadcast", "op_versions": [3], "mode": "numpy",
		"inputs": [{"name": "data", "shape": [3], "dtype": "f32", "layout": "C"}], "target_shape": [2, 3], "target_shape_dtype": "i32",
		"derived": true, "derived_note": "x", "source_commit": null,
		"expected": {"shape": [2, 3], "exact": false, "asserted": "rank == 2", "something": 1}}`, nil)
	assert.Equal(t, "PASS a", r.String())
	assert.Equal(t, "[2 3]", r.Got)
}

func TestParseErrors(t *testing.T) {
	for _, data := range []string{
		``, `{`, `[]`, `{"cases": 3}`, `{"schema": "other/1", "cases": []}`, `{"schema": 1, "cases": []}`,
		`{"schema": "conformance-case-file/1"}`, `{"cases": null}`, `{"cases": []} {}`, `{"cases": []} x`,
	} {
		_, err := conformance.Parse([]byte(data))
		assert.Error(t, err, "%q", data)
	}
	f, err := conformance.Parse([]byte("\xef\xbb\xbf" + `{"cases": []}`))
	require.NoError(t, err)
	assert.Empty(t, f.Cases)

	_, err = conformance.Load(filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
	path := filepath.Join(t.TempDir(), "bad.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"cases": [`), 0o644))
	_, err = conformance.Load(path)
	assert.ErrorContains(t, err, "bad.json")
}

func FuzzParse(f *testing.F) {
	for _, name := range []string{"testdata/spec_doc_shape_cases.json", "testdata/synthetic_shape_cases.json", "testdata/derived_value_cases.json"} {
		data, err := os.ReadFile(name)
		require.NoError(f, err)
		file, err := conformance.Parse(data)
		require.NoError(f, err)
		for _, c := range file.Cases[:min(len(file.Cases), 40)] {
			f.Add([]byte(`{"cases": [` + string(c.Raw) + `]}`))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := conformance.Parse(data)
		if err != nil {
			return
		}
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		for _, c := range file.Cases {
			for _, vc := range []conformance.ValueChecker{nil, &fakeValues{}, conformance.NewLibrary(mem)} {
				r := conformance.Check(c, vc)
				if strings.HasPrefix(r.Detail, "panic") {
					t.Fatalf("%s: %s", c.Raw, r.Detail)
				}
			}
		}
		if n := mem.CurrentAlloc(); n != 0 {
			t.Fatalf("%d bytes leaked by %s", n, data)
		}
	})
}

// TestWeakScalarInputs: kind numpy writes a Python scalar as an input with
// "weak": true and a value, and no shape; it parses as a rank-0 weak input.
func TestWeakScalarInputs(t *testing.T) {
	f, err := conformance.Parse([]byte(`{"schema": "conformance-case-file/1", "cases": [
	 {"id": "w", "kind": "numpy", "op": "add",
	  "inputs": [{"name": "a", "shape": [2], "dtype": "u8", "values": [1, 2]},
	             {"name": "b", "weak": true, "dtype": "int", "value": 300}],
	  "expected": {"error": true, "reason": "OverflowError"}},
	 {"id": "bad", "kind": "numpy", "op": "add",
	  "inputs": [{"name": "b", "weak": true, "dtype": "int"}],
	  "expected": {"error": true, "reason": "x"}}]}`))
	require.NoError(t, err)
	require.Len(t, f.Cases, 2)
	c := f.Cases[0]
	require.NoError(t, c.Err)
	require.Len(t, c.Inputs, 2)
	assert.False(t, c.Inputs[0].Weak)
	assert.True(t, c.Inputs[1].Weak)
	assert.Equal(t, "int", c.Inputs[1].DType)
	assert.Equal(t, "300", string(c.Inputs[1].Value))
	assert.True(t, c.Inputs[1].Shape.RankKnown)
	assert.Empty(t, c.Inputs[1].Shape.Dims)
	require.Error(t, f.Cases[1].Err, "a weak input without a value is malformed")
	assert.Contains(t, f.Cases[1].Err.Error(), "value")
}
