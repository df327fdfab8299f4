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
