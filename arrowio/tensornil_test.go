package arrowio

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/internal/arrowtest"
)

// callAll calls every exported method of v with zero arguments (row 0,
// nil pointers and interfaces) and returns the names of those that
// panicked, with the panic.
func callAll(v any) []string {
	var bad []string
	rv := reflect.ValueOf(v)
	for i := 0; i < rv.NumMethod(); i++ {
		m := rv.Type().Method(i)
		args := make([]reflect.Value, m.Type.NumIn()-1)
		for k := range args {
			args[k] = reflect.Zero(m.Type.In(k + 1))
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					bad = append(bad, fmt.Sprintf("%s: %v", m.Name, p))
				}
			}()
			rv.Method(i).Call(args)
		}()
	}
	return bad
}

// Issue 17 item 8: every method of every exported type of the package
// answers on a nil pointer, a zero value and a released value without
// panicking (a nil *FixedShapeTensorArray's String panicked).
func TestNilAndZeroValues(t *testing.T) {
	mem := arrowtest.NewMem(t)
	src, live := tensorFixture(t, mem)
	src.Release()
	released := live
	released.Release()
	tt, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil)
	require.NoError(t, err)
	values := map[string]any{
		"nil *FixedShapeTensorArray":     (*FixedShapeTensorArray)(nil),
		"zero FixedShapeTensorArray":     &FixedShapeTensorArray{},
		"released FixedShapeTensorArray": released,
		"nil *FixedShapeTensorType":      (*FixedShapeTensorType)(nil),
		"zero FixedShapeTensorType":      &FixedShapeTensorType{},
		"live FixedShapeTensorType":      tt,
	}
	for name, v := range values {
		assert.Empty(t, callAll(v), name)
	}
	var nilArr *FixedShapeTensorArray
	assert.Equal(t, "<nil>", nilArr.String())
	assert.Equal(t, "<nil>", fmt.Sprint(&FixedShapeTensorArray{}))
	assert.Equal(t, 0, nilArr.Len())
	j, err := json.Marshal(nilArr)
	require.NoError(t, err)
	assert.Equal(t, "null", string(j))
	assert.Equal(t, arrow.EXTENSION, (*FixedShapeTensorType)(nil).ID())
	assert.Equal(t, tt.ExtensionBase.Layout(), tt.Layout(), "a live type's layout is its storage's")
	assert.Equal(t, 1, tt.NumFields())
}

// A tensor column with NaN and infinite elements prints (arrow-go's
// FixedSizeList.ValueStr, which the extension array used to return,
// panics on them) and fails to marshal as JSON with an error, not a panic.
func TestTensorValueStrNaN(t *testing.T) {
	mem := arrowtest.NewMem(t)
	x, err := array.FromSlice(mem, []float32{float32(math.NaN()), 1, float32(math.Inf(-1)), 2.5}, 2, 2)
	require.NoError(t, err)
	defer x.Release()
	col, err := ToTensorColumn(mem, x)
	require.NoError(t, err)
	defer col.Release()
	tc := col
	require.NotPanics(t, func() {
		assert.Equal(t, "[NaN,1]", tc.ValueStr(0))
		assert.Equal(t, "[-Inf,2.5]", tc.ValueStr(1))
		_, err = json.Marshal(tc)
	})
	assert.Error(t, err)
	y, err := array.FromSlice(mem, []float32{1, 2, 3, 4}, 2, 2)
	require.NoError(t, err)
	defer y.Release()
	col2, err := ToTensorColumn(mem, y)
	require.NoError(t, err)
	defer col2.Release()
	j, err := json.Marshal(col2)
	require.NoError(t, err)
	assert.Equal(t, "[[1,2],[3,4]]", string(j))
}
