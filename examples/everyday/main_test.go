package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestEveryday runs the program and checks what it prints: the argmax of
// each standardized row, a row sorted ascending, and the rows ordered by
// the last feature (150, 180, 220, 300, 410 in the data).
func TestEveryday(t *testing.T) {
	var w bytes.Buffer
	require.NoError(t, run(&w))
	out := w.String()
	require.Contains(t, out, "argmax per row [3 0 1 3 0]")
	require.Contains(t, out, "rows sorted\n[[-1.414 -0.322 -0.074  0.512]\n [-1.548 -1.128 -1.089 -0.707]")
	require.Contains(t, out, "rows by the last feature\n[[-0.707 -1.128 -1.548 -1.089]\n [ 1.414 -0.725  0.663 -0.769]\n [ 0.000  1.692  1.401 -0.342]\n [-1.414 -0.322 -0.074  0.512]\n [ 0.707  0.483 -0.442  1.687]]")
	require.Contains(t, out, "mean row, then the top two\n")
}
