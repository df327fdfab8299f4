package arrowio

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/expr"
	"github.com/stride0/stride0/internal/arraytest"
	"github.com/stride0/stride0/internal/arrowtest"
)

// npmPackage is the JavaScript Arrow implementation the interop test uses.
const npmPackage = "apache-arrow@21"

// npmArrow installs apache-arrow into a scratch folder once per test run
// and returns the folder (see npmPackages: skipped without node or npm,
// failed when the install fails).
func npmArrow(t *testing.T) string {
	t.Helper()
	return npmPackages(t, npmPackage)
}

// jsBatch builds rows r0, r0+1 of the file the JavaScript program checks
// (see testdata/roundtrip.mjs for the values).
func jsBatch(t *testing.T, mem memory.Allocator, r0 int) arrow.Record {
	const n = 2
	tv := make([]float32, 0, n*6)
	for r := r0; r < r0+n; r++ {
		for e := 0; e < 6; e++ {
			tv = append(tv, float32(10*r+e))
		}
	}
	ta, err := array.FromSlice(mem, tv, n, 2, 3)
	require.NoError(t, err)
	defer ta.Release()
	for r := r0; r < r0+n; r++ {
		if r == 0 {
			require.NoError(t, ta.SetNull(0, 1, 1)) // element 4
		}
		if r == 3 {
			for i := 0; i < 6; i++ {
				require.NoError(t, ta.SetNull(r-r0, i/3, i%3))
			}
		}
	}
	tcol, err := ToTensorColumn(mem, ta, WithDimNames("h", "w"))
	require.NoError(t, err)
	defer tcol.Release()

	// tt: logical [2,3] int32 tensors from a transposed view of physical
	// [3,2] tensors; written with a permutation, not copied.
	pv := make([]int32, 0, n*6)
	for r := r0; r < r0+n; r++ {
		for j := 0; j < 3; j++ {
			for i := 0; i < 2; i++ {
				pv = append(pv, int32(100*r+3*i+j))
			}
		}
	}
	phys, err := array.FromSlice(mem, pv, n, 3, 2)
	require.NoError(t, err)
	defer phys.Release()
	logical, err := phys.View([]int{n, 2, 3}, []int{6, 1, 2}, 0)
	require.NoError(t, err)
	defer logical.Release()
	ttcol, err := ToTensorColumn(mem, logical)
	require.NoError(t, err)
	defer ttcol.Release()
	require.Equal(t, []int{1, 0}, ttcol.TensorType().Permutation())

	// scaled: x * w, w broadcast over the rows by the expression engine.
	x, err := array.Arange(mem, array.Float64, float64(3*r0), float64(3*(r0+n)), 1)
	require.NoError(t, err)
	defer x.Release()
	x2, err := x.View([]int{n, 3}, []int{3, 1}, 0)
	require.NoError(t, err)
	defer x2.Release()
	w, err := array.FromSlice(mem, []float64{1, 10, 100})
	require.NoError(t, err)
	defer w.Release()
	scaled, err := expr.Eval(expr.Mul(expr.Leaf(x2), expr.Leaf(w)), expr.WithAllocator(mem))
	require.NoError(t, err)
	defer scaled.Release()
	scol, err := ToTensorColumn(mem, scaled)
	require.NoError(t, err)
	defer scol.Release()

	ids, flags, valid := make([]float64, n), make([]float64, n), make([]bool, n)
	for i := range ids {
		r := r0 + i
		ids[i], valid[i] = float64(7*r), r != 1
		if r%2 == 0 {
			flags[i] = 1
		}
	}
	id := arrowtest.BuildArrow(t, mem, array.Int64, ids, valid)
	defer id.Release()
	flag := arrowtest.BuildArrow(t, mem, array.Bool, flags, nil)
	defer flag.Release()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "t", Type: tcol.DataType(), Nullable: true},
		{Name: "tt", Type: ttcol.DataType()},
		{Name: "scaled", Type: scol.DataType()},
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean},
	}, nil)
	return arrowarray.NewRecord(schema, []arrow.Array{tcol, ttcol, scol, id, flag}, n)
}

// TestJavaScriptRoundTrip writes an IPC file with fixed_shape_tensor columns
// (nulls, a permutation, a column computed by a broadcast expression) in
// three batches; a JavaScript program using apache-arrow from npm checks
// every value, shape and extension metadata and writes a file back
// (passing a tensor column through, adding a computed column and a tensor
// column with a permutation made in JavaScript), which is read and checked
// here. It fails when npm or node is unavailable; only -short skips it.
func TestJavaScriptRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the JavaScript (npm apache-arrow) interop test")
	}
	dir := npmArrow(t)
	mem := arrowtest.NewMem(t)
	var recs []arrow.Record
	for r0 := 0; r0 < 6; r0 += 2 {
		recs = append(recs, jsBatch(t, mem, r0))
	}
	defer arrowtest.ReleaseRecords(recs)
	work := t.TempDir()
	in, out := filepath.Join(work, "from_go.arrow"), filepath.Join(work, "from_js.arrow")
	var buf bytes.Buffer
	require.NoError(t, WriteRecords(&buf, true, recs[0].Schema(), recs))
	require.NoError(t, os.WriteFile(in, buf.Bytes(), 0o644))

	script, err := os.ReadFile(filepath.Join("testdata", "roundtrip.mjs"))
	require.NoError(t, err)
	prog := filepath.Join(dir, "roundtrip.mjs") // next to node_modules
	require.NoError(t, os.WriteFile(prog, script, 0o644))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := exec.CommandContext(ctx, "node", prog, in, out).CombinedOutput()
	require.NoError(t, err, "node roundtrip.mjs:\n%s", res)
	t.Logf("node: %s", bytes.TrimSpace(res))

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	rr, err := ReadFile(f, WithAllocator(mem))
	require.NoError(t, err)
	defer rr.Release()
	md := rr.Schema().Metadata()
	assert.Equal(t, "apache-arrow js", md.Values()[md.FindKey("written_by")])
	b := 0
	for rr.Next() {
		rec := rr.Record()
		require.Less(t, b, len(recs))
		// t comes back unchanged, as our extension type.
		got, ok := rec.Column(0).(*FixedShapeTensorArray)
		require.True(t, ok, "t is %T", rec.Column(0))
		assert.True(t, arrow.TypeEqual(recs[b].Column(0).DataType(), got.DataType()))
		assert.True(t, arrowarray.Equal(recs[b].Column(0), got), "t in batch %d", b)
		// row_sum was computed in JavaScript.
		sums := rec.Column(1).(*arrowarray.Float64)
		for i := 0; i < sums.Len(); i++ {
			r := 2*b + i
			if r == 3 {
				assert.True(t, sums.IsNull(i))
				continue
			}
			want := 0.0
			for e := 0; e < 6; e++ {
				if !(r == 0 && e == 4) {
					want += float64(10*r + e)
				}
			}
			assert.Equal(t, want, sums.Value(i), "row_sum %d", r)
		}
		// made_in_js: logical (i,j) of row r = physical (j,i) = 1000r + 2j + i.
		mj, ok := rec.Column(2).(*FixedShapeTensorArray)
		require.True(t, ok, "made_in_js is %T", rec.Column(2))
		assert.Equal(t, []int{1, 0}, mj.TensorType().Permutation())
		a, err := FromArrow(mem, mj)
		require.NoError(t, err)
		require.Equal(t, []int{2, 2, 2}, a.Shape())
		for i := 0; i < 2; i++ {
			for ii := 0; ii < 2; ii++ {
				for jj := 0; jj < 2; jj++ {
					assert.Equal(t, float64(1000*(2*b+i)+2*jj+ii), arraytest.At[float64](t, a, i, ii, jj))
				}
			}
		}
		a.Release()
		b++
	}
	require.NoError(t, rr.Err())
	assert.Equal(t, 3, b)
}
