package main

import (
	"bufio"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
)

// pandasPython is a Python with pandas, or "" (the test is skipped).
func pandasPython() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(py, "-c", "import pandas, numpy").Run() == nil {
			return py
		}
	}
	return ""
}

// readmePandas is the README's pandas version of the job, with its Parquet
// reading and writing replaced by JSON (pyarrow is not installable from
// Debian's packages): the lines between them run as written.
func readmePandas(t *testing.T, in, out string) string {
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	require.NoError(t, err)
	s := string(raw)
	at := strings.Index(s, "The same job in pandas")
	require.GreaterOrEqual(t, at, 0, "README: the pandas version")
	start := strings.Index(s[at:], "```python\n")
	require.GreaterOrEqual(t, start, 0)
	code := s[at+start+len("```python\n"):]
	code = code[:strings.Index(code, "```")]
	for _, r := range [][2]string{
		{`pd.read_parquet("measurements.parquet")`, "pd.read_json(" + pyString(in) + ", lines=True)"},
		{`.to_parquet("top.parquet")`, ".to_json(" + pyString(out) + `, orient="records", double_precision=15)`},
	} {
		require.Contains(t, code, r[0], "README's pandas code")
		code = strings.Replace(code, r[0], r[1], 1)
	}
	return "import numpy as np\nimport pandas as pd\n" + code
}

func pyString(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestReadmePandasAgrees runs the README's pandas code (when pandas is
// installed) on the data the Go job reads, and compares the two tables:
// the same sites in the same order, the same counts, y within 1e-12 and
// the mean standardized tensors within 1e-5 (frame computes them in
// float32, pandas in float64).
func TestReadmePandasAgrees(t *testing.T) {
	py := pandasPython()
	if py == "" {
		if os.Getenv("STRIDE0_REQUIRE_PANDAS") != "" {
			t.Fatal("STRIDE0_REQUIRE_PANDAS is set and no Python has pandas")
		}
		t.Skip("no Python with pandas (apt-get install python3-pandas)")
	}
	dir := t.TempDir()
	in, jsonIn, jsonOut := filepath.Join(dir, "m.parquet"), filepath.Join(dir, "m.jsonl"), filepath.Join(dir, "top.json")
	require.NoError(t, generate(in, 20000))

	// the input as JSON lines
	all, err := frame.ScanParquet(in).Collect(context.Background())
	require.NoError(t, err)
	defer all.Release()
	rec := all.Record()
	site, y := rec.Column(0).(*arrowarray.String), rec.Column(1).(*arrowarray.Float64)
	x := rec.Column(2).(*arrowio.FixedShapeTensorArray).Storage().(*arrowarray.FixedSizeList)
	xv := x.ListValues().(*arrowarray.Float32).Float32Values()
	f, err := os.Create(jsonIn)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := 0; i < int(rec.NumRows()); i++ {
		xs := make([]float64, 16)
		for e := range xs {
			xs[e] = float64(xv[(x.Offset()+i)*16+e])
		}
		require.NoError(t, enc.Encode(map[string]any{"site": site.Value(i), "y": y.Value(i), "x": xs}))
	}
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())

	res, err := exec.Command(py, "-c", readmePandas(t, jsonIn, jsonOut)).CombinedOutput()
	require.NoError(t, err, "pandas:\n%s", res)
	var want []struct {
		Site string    `json:"site"`
		Y    float64   `json:"y"`
		N    int64     `json:"n"`
		Z    []float64 `json:"z"`
	}
	raw, err := os.ReadFile(jsonOut)
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(raw, &want))

	got, err := job(in).Collect(context.Background())
	require.NoError(t, err)
	defer got.Release()
	require.Equal(t, []string{"site", "y", "n", "z"}, got.Columns())
	require.Equal(t, int64(len(want)), got.NumRows())
	g := got.Record()
	gs, gy, gn := g.Column(0).(*arrowarray.String), g.Column(1).(*arrowarray.Float64), g.Column(2).(*arrowarray.Int64)
	gz := g.Column(3).(arrowarray.ExtensionArray).Storage().(*arrowarray.FixedSizeList)
	gzv := gz.ListValues().(*arrowarray.Float32).Float32Values()
	for i, w := range want {
		require.Equal(t, w.Site, gs.Value(i), "row %d", i)
		require.Equal(t, w.N, gn.Value(i), "row %d", i)
		require.InDelta(t, w.Y, gy.Value(i), 1e-12*math.Abs(w.Y), "row %d", i)
		require.Len(t, w.Z, 16)
		for e, z := range w.Z {
			require.InDelta(t, z, float64(gzv[(gz.Offset()+i)*16+e]), 1e-5, "row %d element %d", i, e)
		}
	}
}
