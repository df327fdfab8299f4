package frame

import (
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNeeds: a source reads only what the query uses.
func TestNeeds(t *testing.T) {
	s := arrow.NewSchema([]arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int64}, {Name: "b", Type: arrow.PrimitiveTypes.Float64},
		{Name: "c", Type: arrow.BinaryTypes.String}, {Name: "d", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	src := Frame{&node{kind: stepSource, schema: s, src: recordSource{schema: s}}}
	for _, c := range []struct {
		f    Frame
		want []bool
	}{
		{src, []bool{true, true, true, true}},
		{src.Select("c"), []bool{false, false, true, false}},
		{src.Filter("b > 0").Select("a"), []bool{true, true, false, false}},
		{src.WithColumns(Let("e", "a + d")).Select("e"), []bool{true, false, false, true}},
		{src.WithColumns(Let("a", "d * 2")).Select("a"), []bool{false, false, false, true}},
		{src.GroupBy("c").Agg(Mean("b")), []bool{false, true, true, false}},
		{src.GroupBy("c").Agg(Count()), []bool{false, false, true, false}},
		{src.Sort(Desc("d")).Select("a"), []bool{true, false, false, true}},
		{src.Drop("b", "c").Limit(3), []bool{true, false, false, true}},
		{src.Rename(map[string]string{"a": "z"}).Select("z"), []bool{true, false, false, false}},
		{src.Select("a", "c").Join(src.Select("c", "d"), Inner, "c").Select("a", "d"), []bool{true, false, true, true}},
		{Concat(src, src).Select("b"), []bool{false, true, false, false}},
	} {
		require.NoError(t, c.f.Err())
		m := needs(c.f.n)
		var got []bool
		for n, need := range m {
			if n.kind == stepSource {
				if got == nil {
					got = append([]bool(nil), need...)
				} else {
					for i := range got {
						got[i] = got[i] || need[i]
					}
				}
			}
		}
		assert.Equal(t, c.want, got, c.f.Explain())
	}
}
