package frame_test

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/frame"
)

func TestSortMatchesNaive(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(31, 32)), 1500)
	recs := d.records(t, mem)
	defer release(recs)
	// the reference: site ascending, then y descending with nulls last, then input order
	idx := make([]int, len(d.site))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if c := cmp.Compare(d.site[a], d.site[b]); c != 0 {
			return c
		}
		switch {
		case !d.yOK[a] && !d.yOK[b]:
			return 0
		case !d.yOK[a]:
			return 1
		case !d.yOK[b]:
			return -1
		}
		return -cmp.Compare(d.y[a], d.y[b])
	})
	for _, workers := range []int{1, 3} {
		tb := collect(t, frame.FromRecords(recs...).Sort(frame.Asc("site"), frame.Desc("y")).Select("site", "y", "key", "ts"), frame.WithWorkers(workers), frame.WithAllocator(mem))
		require.Equal(t, int64(len(idx)), tb.NumRows())
		sites := strs(t, tb, "site")
		keys := values[int64](t, tb, "key")
		for k, i := range idx {
			require.Equal(t, d.site[i], sites[k], "row %d", k)
			require.Equal(t, d.key[i], keys[k], "row %d", k)
		}
		tb.Release()
		top := collect(t, frame.FromRecords(recs...).TopK(7, frame.Asc("site"), frame.Desc("y")), frame.WithWorkers(workers), frame.WithAllocator(mem))
		require.Equal(t, int64(7), top.NumRows())
		assert.Equal(t, sites[:7], strs(t, top, "site"))
		top.Release()
	}
	// nulls first
	tb := collect(t, frame.FromRecords(recs...).Sort(frame.SortKey{Col: "y", NullsFirst: true}), frame.WithAllocator(mem))
	c, _ := tb.Arrow("y")
	nulls := 0
	for _, ok := range d.yOK {
		if !ok {
			nulls++
		}
	}
	for i := 0; i < c.Len(); i++ {
		assert.Equal(t, i < nulls, c.IsNull(i), "row %d", i)
	}
	tb.Release()
	assert.ErrorIs(t, frame.FromRecords(recs...).Sort(frame.Asc("x")).Err(), frame.ErrType)
	assert.ErrorIs(t, frame.FromRecords(recs...).Sort().Err(), frame.ErrArgument)
	assert.ErrorIs(t, frame.FromRecords(recs...).TopK(-1, frame.Asc("y")).Err(), frame.ErrArgument)
}

// dims is a small right-hand table: site -> region code, with one site
// twice (two matches) and one absent, plus a null key.
func dims(t *testing.T, mem memory.Allocator) arrow.Record {
	t.Helper()
	s := arrow.NewSchema([]arrow.Field{
		{Name: "site", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "region", Type: arrow.PrimitiveTypes.Int32},
		{Name: "key", Type: arrow.PrimitiveTypes.Int64},
	}, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	defer b.Release()
	for i := 0; i < 10; i++ { // site00..site09; site03 twice; site10, site11 absent
		b.Field(0).(*arrowarray.StringBuilder).Append(siteName(i))
		b.Field(1).(*arrowarray.Int32Builder).Append(int32(100 + i))
		b.Field(2).(*arrowarray.Int64Builder).Append(int64(-i))
		if i == 3 {
			b.Field(0).(*arrowarray.StringBuilder).Append(siteName(i))
			b.Field(1).(*arrowarray.Int32Builder).Append(int32(200 + i))
			b.Field(2).(*arrowarray.Int64Builder).Append(int64(-100))
		}
	}
	b.Field(0).(*arrowarray.StringBuilder).AppendNull()
	b.Field(1).(*arrowarray.Int32Builder).Append(-1)
	b.Field(2).(*arrowarray.Int64Builder).Append(-1)
	return b.NewRecord()
}

func siteName(i int) string { return "site" + string(rune('0'+i/10)) + string(rune('0'+i%10)) }

func TestJoinMatchesNaive(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(33, 34)), 400)
	recs := d.records(t, mem)
	defer release(recs)
	right := dims(t, mem)
	defer right.Release()
	matches := func(site string) []int32 { // regions of the right rows for a site, in order
		var out []int32
		for i := 0; i < 10; i++ {
			if siteName(i) == site {
				out = append(out, int32(100+i))
				if i == 3 {
					out = append(out, int32(200+i))
				}
			}
		}
		return out
	}
	left := frame.FromRecords(recs...).Select("site", "key")
	rf := frame.FromRecords(right)
	for _, workers := range []int{1, 4} {
		for _, how := range []frame.JoinHow{frame.Inner, frame.Left, frame.Semi, frame.Anti} {
			tb := collect(t, left.Join(rf, how, "site"), frame.WithWorkers(workers), frame.WithAllocator(mem))
			var wantSite []string
			var wantRegion []int32
			var wantValid []bool
			for _, s := range d.site {
				m := matches(s)
				switch how {
				case frame.Inner, frame.Left:
					for _, r := range m {
						wantSite, wantRegion, wantValid = append(wantSite, s), append(wantRegion, r), append(wantValid, true)
					}
					if len(m) == 0 && how == frame.Left {
						wantSite, wantRegion, wantValid = append(wantSite, s), append(wantRegion, 0), append(wantValid, false)
					}
				case frame.Semi:
					if len(m) > 0 {
						wantSite = append(wantSite, s)
					}
				case frame.Anti:
					if len(m) == 0 {
						wantSite = append(wantSite, s)
					}
				}
			}
			require.Equal(t, int64(len(wantSite)), tb.NumRows(), "%v", how)
			assert.Equal(t, wantSite, strs(t, tb, "site"), "%v", how)
			if how == frame.Inner || how == frame.Left {
				assert.Equal(t, []string{"site", "key", "region", "key_right"}, tb.Columns())
				rc, _ := tb.Arrow("region")
				for i := range wantRegion {
					require.Equal(t, wantValid[i], rc.IsValid(i), "%v row %d", how, i)
					if wantValid[i] {
						require.Equal(t, wantRegion[i], rc.(*arrowarray.Int32).Value(i))
					}
				}
			} else {
				assert.Equal(t, []string{"site", "key"}, tb.Columns())
			}
			tb.Release()
		}
	}
	// errors
	assert.ErrorIs(t, left.JoinOn(rf, frame.Inner, []string{"site"}, nil).Err(), frame.ErrArgument)
	assert.ErrorIs(t, left.JoinOn(rf, frame.Inner, []string{"key"}, []string{"region"}).Err(), frame.ErrType)
	assert.Contains(t, left.JoinOn(rf, frame.Inner, []string{"key"}, []string{"region"}).Err().Error(), `"key" = "region"`)
	assert.ErrorIs(t, left.Join(rf, frame.Inner, "nope").Err(), frame.ErrNoColumn)
}

func TestConcat(t *testing.T) {
	mem := checked(t)
	d := makeData(rand.New(rand.NewPCG(35, 36)), 300)
	recs := d.records(t, mem)
	defer release(recs)
	f := frame.FromRecords(recs...)
	tb := collect(t, frame.Concat(f.Limit(10), f, f.Filter("key > 3")).Select("key"), frame.WithAllocator(mem))
	var want []int64
	want = append(want, d.key[:10]...)
	want = append(want, d.key...)
	for _, k := range d.key {
		if k > 3 {
			want = append(want, k)
		}
	}
	assert.Equal(t, want, values[int64](t, tb, "key"))
	tb.Release()
	err := frame.Concat(f, f.Select("key")).Err()
	assert.ErrorIs(t, err, frame.ErrType)
}
