package frame

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/compute"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTakeStrings compares takeStrings with arrow-go's take over random
// strings with nulls, sliced columns and null indices.
func TestTakeStrings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(81, 82))
	for _, typ := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.Binary} {
		for _, n := range []int{0, 1, 7, 300} {
			b := arrowarray.NewBuilder(mem, typ)
			for i := 0; i < n; i++ {
				if r.IntN(5) == 0 {
					b.AppendNull()
					continue
				}
				b.(interface{ AppendString(string) }).AppendString(fmt.Sprintf("v%d-%s", i, string(make([]byte, r.IntN(9)))))
			}
			full := b.NewArray()
			b.Release()
			lo := min(n, r.IntN(3))
			col := arrowarray.NewSlice(full, int64(lo), int64(n))
			full.Release()
			var idx []int64
			ib := arrowarray.NewInt64Builder(mem)
			for k := 0; k < 2*col.Len()+1; k++ {
				if col.Len() == 0 || r.IntN(6) == 0 {
					idx = append(idx, -1)
					ib.AppendNull()
					continue
				}
				i := int64(r.IntN(col.Len()))
				idx = append(idx, i)
				ib.Append(i)
			}
			ix := ib.NewArray()
			ib.Release()
			want, err := compute.TakeArray(context.Background(), col, ix)
			require.NoError(t, err)
			got := takeStrings(mem, col, idx)
			assert.True(t, arrowarray.Equal(want, got), "%v n=%d\nwant %v\ngot  %v", typ, n, want, got)
			for _, a := range []arrow.Array{want, got, ix, col} {
				a.Release()
			}
		}
	}
}

// TestTakeFixed compares takeColumn's typed gather (and the dictionary
// path) with arrow-go's take over random columns of every key type, with
// nulls, slices and null indices.
func TestTakeFixed(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(83, 84))
	ctx := compute.WithAllocator(context.Background(), mem)
	for trial := 0; trial < 400; trial++ {
		n := []int{0, 1, 5, 64, 1000}[trial%5]
		col, _ := randCol(t, r, mem, n)
		var idx []int64
		ib := arrowarray.NewInt64Builder(mem)
		for k := 0; k < r.IntN(2*n+2); k++ {
			if n == 0 || r.IntN(6) == 0 {
				idx = append(idx, -1)
				ib.AppendNull()
				continue
			}
			i := int64(r.IntN(n))
			idx = append(idx, i)
			ib.Append(i)
		}
		ix := ib.NewArray()
		ib.Release()
		got, err := takeColumn(ctx, mem, col, idx, func() arrow.Array { return ix })
		require.NoError(t, err)
		if d, ok := col.(*arrowarray.Dictionary); ok {
			// the reference: the values, decoded
			for k, i := range idx {
				g := got.(*arrowarray.Dictionary)
				if i < 0 || col.IsNull(int(i)) {
					require.True(t, got.IsNull(k), "trial %d row %d", trial, k)
					continue
				}
				require.False(t, got.IsNull(k), "trial %d row %d", trial, k)
				assert.Equal(t, d.Dictionary().ValueStr(d.GetValueIndex(int(i))), g.Dictionary().ValueStr(g.GetValueIndex(k)))
			}
		} else if _, ok := col.(*arrowarray.String); !ok {
			want, err := compute.TakeArray(ctx, col, ix)
			require.NoError(t, err)
			require.True(t, arrowarray.ApproxEqual(want, got, arrowarray.WithNaNsEqual(true), arrowarray.WithAbsTolerance(0)), "trial %d (%v): %v, want %v", trial, col.DataType(), got, want)
			want.Release()
		}
		got.Release()
		ix.Release()
		col.Release()
	}
}
