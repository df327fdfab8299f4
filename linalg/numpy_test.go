package linalg_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/linalg"
)

type numpyTensor struct {
	Shape  []int     `json:"shape"`
	DType  string    `json:"dtype"`
	Values []float64 `json:"values"`
}

// TestNumPy2Cases runs the matmul cases of the shared NumPy 2 sample
// (copied into testdata), whose expected values NumPy computed.
func TestNumPy2Cases(t *testing.T) {
	mem := checkedMem(t)
	raw, err := os.ReadFile("testdata/numpy2_matmul.json")
	require.NoError(t, err)
	var file struct {
		Cases []struct {
			ID       string        `json:"id"`
			Inputs   []numpyTensor `json:"inputs"`
			Expected numpyTensor   `json:"expected"`
		} `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(raw, &file))
	require.NotEmpty(t, file.Cases)
	load := func(x numpyTensor) *array.Array {
		dt, err := array.ParseDType(x.DType)
		require.NoError(t, err)
		a, err := array.New(mem, dt, x.Shape...)
		require.NoError(t, err)
		vals := x.Values
		// convert through Set, one element at a time, in row-major order
		idx := make([]int, len(x.Shape))
		for e := range vals {
			rem := e
			for d := len(idx) - 1; d >= 0; d-- {
				idx[d] = rem % x.Shape[d]
				rem /= x.Shape[d]
			}
			require.NoError(t, array.Set(a, vals[e], idx...))
		}
		return a
	}
	for _, c := range file.Cases {
		t.Run(c.ID, func(t *testing.T) {
			a, b := load(c.Inputs[0]), load(c.Inputs[1])
			defer a.Release()
			defer b.Release()
			got, err := linalg.Matmul(mem, a, b)
			require.NoError(t, err)
			defer got.Release()
			dt, err := array.ParseDType(c.Expected.DType)
			require.NoError(t, err)
			assert.Equal(t, dt, got.DType())
			assert.Equal(t, c.Expected.Shape, got.Shape())
			vals, err := array.ToSlice[float64](got)
			require.NoError(t, err)
			assert.InDeltaSlice(t, c.Expected.Values, vals, 1e-9)
		})
	}
}
