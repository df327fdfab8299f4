package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// TestPipeline runs the program on generated input, writes the result, runs
// it again on that file, and checks the result columns: z has mean ~0 and
// standard deviation ~1 per feature, outlier agrees with |z| > threshold.
func TestPipeline(t *testing.T) {
	out := filepath.Join(t.TempDir(), "out.arrows")
	var w bytes.Buffer
	require.NoError(t, run(&w, "", out, "features", 3000, 500, 4, 2))
	assert.Contains(t, w.String(), "rows 3000 in 6 batches, 4 features (float32)")
	assert.Contains(t, w.String(), "wrote "+out)

	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	rr, err := arrowio.ReadStream(f)
	require.NoError(t, err)
	defer rr.Release()
	var sum, sumSq [4]float64
	rows := 0
	for rr.Next() {
		rec := rr.Record()
		z, err := arrowio.FromArrow(nil, rec.Column(2))
		require.NoError(t, err)
		o, err := arrowio.FromArrow(nil, rec.Column(3))
		require.NoError(t, err)
		zv, _ := array.ToSlice[float64](z)
		ov, _ := array.ToSlice[bool](o)
		for i, v := range zv {
			sum[i%4] += v
			sumSq[i%4] += v * v
			assert.Equal(t, v > 2 || v < -2, ov[i])
		}
		rows += z.Dim(0)
		z.Release()
		o.Release()
	}
	require.NoError(t, rr.Err())
	require.Equal(t, 3000, rows)
	for j := 0; j < 4; j++ {
		assert.InDelta(t, 0, sum[j]/float64(rows), 1e-3)
		assert.InDelta(t, 1, sumSq[j]/float64(rows), 1e-3)
	}

	w.Reset()
	require.NoError(t, run(&w, out, "", "features", 0, 0, 0, 2))
	assert.True(t, strings.HasPrefix(w.String(), "rows 3000 in 6 batches"), w.String())

	assert.Error(t, run(&w, filepath.Join(t.TempDir(), "missing"), "", "features", 0, 0, 0, 2))
	assert.Error(t, run(&w, out, "", "no_such_column", 0, 0, 0, 2))
	assert.Error(t, run(&w, "", "", "features", 0, 10, 4, 2))
}
