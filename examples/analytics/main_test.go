package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/parquetio"
)

// TestAnalytics runs the job on generated data and checks the top sites,
// their counts and mean y against a loop over the input rows.
func TestAnalytics(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.parquet"), filepath.Join(dir, "out.parquet")
	require.NoError(t, generate(in, 5000))
	var w bytes.Buffer
	require.NoError(t, run(&w, in, out, 0))
	assert.Contains(t, w.String(), "shape: (5, 4)")

	// the reference, from the input's rows
	f, err := os.Open(in)
	require.NoError(t, err)
	defer f.Close()
	rr, err := parquetio.Read(f)
	require.NoError(t, err)
	defer rr.Release()
	sum, count := map[string]float64{}, map[string]int64{}
	for rr.Next() {
		rec := rr.Record()
		site, y := rec.Column(0).(*arrowarray.String), rec.Column(1).(*arrowarray.Float64)
		for i := 0; i < int(rec.NumRows()); i++ {
			if y.Value(i) > 0 {
				sum[site.Value(i)] += y.Value(i)
				count[site.Value(i)]++
			}
		}
	}
	require.NoError(t, rr.Err())
	var sites []string
	for s := range sum {
		sites = append(sites, s)
	}
	slices.SortFunc(sites, func(a, b string) int {
		ma, mb := sum[a]/float64(count[a]), sum[b]/float64(count[b])
		switch {
		case ma > mb:
			return -1
		case ma < mb:
			return 1
		}
		return 0
	})

	// the written file holds the top 5
	got, err := frame.ScanParquet(out).Collect(context.Background())
	require.NoError(t, err)
	defer got.Release()
	require.Equal(t, int64(5), got.NumRows())
	c, _ := got.Arrow("site")
	y, _ := got.Arrow("y")
	n, _ := got.Arrow("n")
	for i := 0; i < 5; i++ {
		s := sites[i]
		assert.Equal(t, s, c.(*arrowarray.String).Value(i))
		assert.InDelta(t, sum[s]/float64(count[s]), y.(*arrowarray.Float64).Value(i), 1e-12)
		assert.Equal(t, count[s], n.(*arrowarray.Int64).Value(i))
	}
	z, err := got.Column("z")
	require.NoError(t, err)
	defer z.Release()
	assert.Equal(t, []int{5, 4, 4}, z.Shape())
}
