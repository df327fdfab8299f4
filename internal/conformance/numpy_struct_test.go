package conformance_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/internal/conformance"
)

// The structural functions of issue 11 over edge values, zero-size dims,
// rank 0 and NumPy's errors, computed by NumPy (gen_numpy_struct_cases.py):
// all pass, none skips, through a checked allocator.
func TestNumpyStructCases(t *testing.T) {
	lib := checked(t)
	f, err := conformance.Load("testdata/numpy_struct_cases.json")
	require.NoError(t, err)
	tl := run(t, f, lib)
	assert.Zero(t, tl.fail, "%v", tl.lines)
	assert.Zero(t, tl.skip, "%v", tl.lines)
	assert.Greater(t, tl.pass, 700)
}
