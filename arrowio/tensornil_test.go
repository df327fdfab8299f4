package arrowio

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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
	mem := newMem(t)
	src, live := tensorFixture(t, mem)
	src.Release()
	released := live
	released.Release()
	tt, err := NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil)
	require.NoError(t, err)
	zr := &Reducer{}
	rel := stateReducer(t, mem)
	rel.Release()
	values := map[string]any{
		"nil *FixedShapeTensorArray":          (*FixedShapeTensorArray)(nil),
		"zero FixedShapeTensorArray":          &FixedShapeTensorArray{},
		"released FixedShapeTensorArray":      released,
		"nil *FixedShapeTensorType":           (*FixedShapeTensorType)(nil),
		"zero FixedShapeTensorType":           &FixedShapeTensorType{},
		"live FixedShapeTensorType":           tt,
		"nil *Reducer":                        (*Reducer)(nil),
		"zero Reducer":                        zr,
		"released Reducer":                    rel,
		"ReduceOp(0)":                         ReduceOp(0),
		"ReduceOp(255)":                       ReduceOp(255),
		"zero Output, Reduction (no methods)": Output{},
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
	assert.Equal(t, "ReduceOp(255)", ReduceOp(255).String())
}
