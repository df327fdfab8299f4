package conformance_test

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/internal/conformance"
)

func TestValueDecoders(t *testing.T) {
	f, err := conformance.Float64s(json.RawMessage(`[1, -2.5, 0.10000000149011612, true, "nan", "inf", "-inf"]`))
	require.NoError(t, err)
	assert.Equal(t, []float64{1, -2.5, 0.10000000149011612, 1}, f[:4])
	assert.Equal(t, float32(0.1), float32(f[2]))
	assert.True(t, math.IsNaN(f[4]))
	assert.Equal(t, math.Inf(1), f[5])
	assert.Equal(t, math.Inf(-1), f[6])

	i, err := conformance.Int64s(json.RawMessage(`[9223372036854775807, -3, false]`))
	require.NoError(t, err)
	assert.Equal(t, []int64{math.MaxInt64, -3, 0}, i)
	u, err := conformance.Uint64s(json.RawMessage(`[18446744073709551615, 0]`))
	require.NoError(t, err)
	assert.Equal(t, []uint64{math.MaxUint64, 0}, u)
	b, err := conformance.Bools(json.RawMessage(`[true, false, 1, 0]`))
	require.NoError(t, err)
	assert.Equal(t, []bool{true, false, true, false}, b)

	for _, bad := range []string{`[1.5]`, `["x"]`, `{}`, `[`} {
		_, err = conformance.Int64s(json.RawMessage(bad))
		assert.Error(t, err, bad)
	}
	_, err = conformance.Float64s(json.RawMessage(`["x"]`))
	assert.Error(t, err)
	_, err = conformance.Uint64s(json.RawMessage(`[-1]`))
	assert.Error(t, err)
	_, err = conformance.Bools(json.RawMessage(`["x"]`))
	assert.Error(t, err)
	_, err = conformance.Float64s(nil)
	assert.Error(t, err)
}
