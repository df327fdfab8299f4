package frame

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// refCol is a column as Go values, for the reference order.
type refCol struct {
	kind  string // int, uint, float, bool, str
	i     []int64
	f     []float64
	s     []string
	valid []bool
}

// refCompare is the order Sort promises for one key, written plainly.
func (c *refCol) refCompare(a, b int, k SortKey) int {
	va, vb := c.valid[a], c.valid[b]
	if !va || !vb {
		rank := 1
		if k.NullsFirst {
			rank = -1
		}
		switch {
		case !va && !vb:
			return 0
		case !va:
			return rank
		}
		return -rank
	}
	var r int
	switch c.kind {
	case "int", "bool":
		r = cmp.Compare(c.i[a], c.i[b])
	case "uint":
		r = cmp.Compare(uint64(c.i[a]), uint64(c.i[b]))
	case "float":
		x, y := c.f[a], c.f[b]
		switch {
		case math.IsNaN(x) && math.IsNaN(y):
			r = 0
		case math.IsNaN(x):
			r = 1
		case math.IsNaN(y):
			r = -1
		default:
			r = cmp.Compare(x, y) // -0 == +0
		}
	case "str":
		r = strings.Compare(c.s[a], c.s[b])
	}
	if k.Desc {
		r = -r
	}
	return r
}

// randCol makes a random column of n rows of one of several types, with
// few distinct values (ties), nulls, and for floats NaN, ±0, ±Inf.
func randCol(t *testing.T, rng *rand.Rand, mem memory.Allocator, n int) (arrow.Array, *refCol) {
	t.Helper()
	distinct := 1 + rng.IntN(6)
	if rng.IntN(3) == 0 {
		distinct = 1 + rng.IntN(n+1)
	}
	nullP := []float64{0, 0, 0.1, 0.5}[rng.IntN(4)]
	rc := &refCol{valid: make([]bool, n)}
	for i := range rc.valid {
		rc.valid[i] = rng.Float64() >= nullP
	}
	which := rng.IntN(9)
	var b arrowarray.Builder
	switch which {
	case 0, 1, 2, 3: // int64, int32, int8, date32
		rc.kind = "int"
		rc.i = make([]int64, n)
		for i := range rc.i {
			v := int64(rng.IntN(distinct)) - int64(distinct/2)
			if rng.IntN(50) == 0 {
				v = []int64{math.MinInt8, math.MaxInt8}[rng.IntN(2)]
			}
			if which == 0 && rng.IntN(50) == 0 {
				v = []int64{math.MinInt64, math.MaxInt64}[rng.IntN(2)]
			}
			rc.i[i] = v
		}
		switch which {
		case 0:
			bb := arrowarray.NewInt64Builder(mem)
			bb.AppendValues(rc.i, rc.valid)
			b = bb
		case 1:
			bb := arrowarray.NewInt32Builder(mem)
			for i, v := range rc.i {
				if rc.valid[i] {
					bb.Append(int32(v))
				} else {
					bb.AppendNull()
				}
			}
			b = bb
		case 2:
			bb := arrowarray.NewInt8Builder(mem)
			for i := range rc.i {
				rc.i[i] = int64(int8(rc.i[i]))
				bb.Append(int8(rc.i[i]))
			}
			b = bb
		case 3:
			bb := arrowarray.NewDate32Builder(mem)
			for _, v := range rc.i {
				bb.Append(arrow.Date32(v))
			}
			b = bb
		}
		if which >= 2 {
			for i := range rc.valid {
				rc.valid[i] = true
			}
		}
	case 4: // uint64 (the high bit set on some)
		rc.kind = "uint"
		rc.i = make([]int64, n)
		bb := arrowarray.NewUint64Builder(mem)
		for i := range rc.i {
			v := uint64(rng.IntN(distinct))
			if rng.IntN(10) == 0 {
				v |= 1 << 63
			}
			rc.i[i] = int64(v)
			if rc.valid[i] {
				bb.Append(v)
			} else {
				bb.AppendNull()
			}
		}
		b = bb
	case 5, 6: // float64, float32
		rc.kind = "float"
		rc.f = make([]float64, n)
		special := []float64{math.NaN(), math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1), 5e-324, -math.MaxFloat64}
		for i := range rc.f {
			v := float64(rng.IntN(distinct)) - float64(distinct)/2
			if rng.IntN(8) == 0 {
				v = special[rng.IntN(len(special))]
			}
			if which == 6 {
				v = float64(float32(v))
			}
			rc.f[i] = v
		}
		if which == 5 {
			bb := arrowarray.NewFloat64Builder(mem)
			bb.AppendValues(rc.f, rc.valid)
			b = bb
		} else {
			bb := arrowarray.NewFloat32Builder(mem)
			for i, v := range rc.f {
				if rc.valid[i] {
					bb.Append(float32(v))
				} else {
					bb.AppendNull()
				}
			}
			b = bb
		}
	case 7: // bool
		rc.kind = "bool"
		rc.i = make([]int64, n)
		bb := arrowarray.NewBooleanBuilder(mem)
		for i := range rc.i {
			v := rng.IntN(2) == 1
			if v {
				rc.i[i] = 1
			}
			if rc.valid[i] {
				bb.Append(v)
			} else {
				bb.AppendNull()
			}
		}
		b = bb
	case 8: // strings, plain or dictionary-encoded, with shared prefixes
		rc.kind = "str"
		rc.s = make([]string, n)
		words := []string{"", "a", "a\x00", "ab", "abcdefgh", "abcdefghi", "abcdefghj", "b", "zz", "\xff"}
		for i := range rc.s {
			if distinct > len(words) {
				rc.s[i] = fmt.Sprintf("id%06d", rng.IntN(distinct))
			} else {
				rc.s[i] = words[rng.IntN(min(distinct, len(words)))]
			}
		}
		if rng.IntN(2) == 0 {
			bb := arrowarray.NewStringBuilder(mem)
			bb.AppendValues(rc.s, rc.valid)
			b = bb
		} else {
			dt := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
			bb := arrowarray.NewDictionaryBuilder(mem, dt).(*arrowarray.BinaryDictionaryBuilder)
			for i, v := range rc.s {
				if rc.valid[i] {
					require.NoError(t, bb.AppendString(v))
				} else {
					bb.AppendNull()
				}
			}
			b = bb
		}
	}
	defer b.Release()
	a := b.NewArray()
	// sometimes a slice, to check offsets
	if n > 2 && rng.IntN(3) == 0 {
		defer a.Release()
		return arrowarray.NewSlice(a, 0, int64(n)), rc
	}
	return a, rc
}

func TestSortKeysMatchStableReference(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(19, 8))
	sizes := []int{0, 1, 2, 3, 17, 255, 256, 257, 1000, 4096}
	for trial := 0; trial < 300; trial++ {
		n := sizes[trial%len(sizes)]
		if trial%50 == 49 {
			n = 100_000
		}
		nk := 1 + rng.IntN(3)
		cols := make([]arrow.Array, nk)
		refs := make([]*refCol, nk)
		keys := make([]SortKey, nk)
		fields := make([]arrow.Field, nk)
		idx := make([]int, nk)
		for k := range cols {
			cols[k], refs[k] = randCol(t, rng, mem, n)
			keys[k] = SortKey{Col: fmt.Sprint("k", k), Desc: rng.IntN(2) == 0, NullsFirst: rng.IntN(4) == 0}
			fields[k] = arrow.Field{Name: keys[k].Col, Type: cols[k].DataType(), Nullable: true}
			idx[k] = k
		}
		rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), cols, int64(n))
		for _, c := range cols {
			c.Release()
		}
		refCmp := func(a, b int) int {
			for k := range refs {
				if c := refs[k].refCompare(a, b, keys[k]); c != 0 {
					return c
				}
			}
			return 0
		}
		want := make([]int, n)
		for i := range want {
			want[i] = i
		}
		sort.SliceStable(want, func(a, b int) bool { return refCmp(want[a], want[b]) < 0 })

		o := newRowOrder(rec, idx, keys)
		got := make([]int64, n)
		for i := range got {
			got[i] = int64(i)
		}
		o.sort(got)
		for i := range want {
			if int64(want[i]) != got[i] {
				t.Fatalf("trial %d (n %d, keys %v, kinds %v): row %d is %d, want %d", trial, n, keys, kinds(refs), i, got[i], want[i])
			}
		}

		// Sort then Head(h) per group of the first g key columns
		g := 1 + rng.IntN(nk)
		h := rng.IntN(4)
		var head []int64
		seen := map[int]int{} // group representative row -> rows kept
		var reps []int
		for _, r := range want {
			rep := -1
			for _, q := range reps {
				same := true
				for k := 0; k < g && same; k++ {
					same = refs[k].refCompare(r, q, SortKey{}) == 0
				}
				if same {
					rep = q
					break
				}
			}
			if rep < 0 {
				if len(reps) > 2000 {
					break // the quadratic reference stays small
				}
				rep = r
				reps = append(reps, r)
			}
			if seen[rep] < h {
				seen[rep]++
				head = append(head, int64(r))
			}
		}
		if len(reps) <= 2000 {
			gid, groups := groupIDs(rec, idx[:g])
			require.Equal(t, len(reps), groups, "trial %d: groups", trial)
			top := topPerGroupOn(o, gid, groups, h, 1)
			all := headAfterSort(o, gid, groups, h)
			if len(head) == 0 {
				require.Empty(t, top, "trial %d", trial)
				require.Empty(t, all, "trial %d", trial)
			} else {
				require.Equal(t, head, top, "trial %d (n %d, keys %v, kinds %v, %d groups, head %d)", trial, n, keys, kinds(refs), g, h)
				require.Equal(t, head, all, "trial %d: headAfterSort", trial)
			}
		}
		// a top k over one group
		kk := rng.IntN(5)
		top := topPerGroupOn(o, make([]int32, n), 1, kk, 1)
		wk := got[:min(kk, n)]
		if len(wk) == 0 {
			require.Empty(t, top)
		} else {
			require.Equal(t, wk, top, "trial %d: top %d", trial, kk)
		}
		rec.Release()
	}
}

func kinds(refs []*refCol) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.kind)
	}
	return out
}

// TestSortHeadRewrite: Sort then GroupBy.Head (run as one pass per group)
// gives the rows of the same query with a projection between the two
// (run as a sort, then Head over the sorted batches), over several input
// batches and worker counts; TopK likewise against Sort then Limit.
func TestSortHeadRewrite(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(7, 19))
	for trial := 0; trial < 40; trial++ {
		n := []int{0, 1, 50, 3000}[trial%4]
		cols := make([]arrow.Array, 3)
		fields := make([]arrow.Field, 3)
		names := []string{"g", "k", "v"}
		for c := range cols {
			cols[c], _ = randCol(t, rng, mem, n)
			fields[c] = arrow.Field{Name: names[c], Type: cols[c].DataType(), Nullable: true}
		}
		rec := arrowarray.NewRecord(arrow.NewSchema(fields, nil), cols, int64(n))
		for _, c := range cols {
			c.Release()
		}
		var recs []arrow.Record
		for at := 0; at < n; {
			size := min(n-at, 1+rng.IntN(700))
			recs = append(recs, rec.NewSlice(int64(at), int64(at+size)))
			at += size
		}
		if len(recs) == 0 {
			rec.Retain()
			recs = append(recs, rec)
		}
		f := FromRecords(recs...)
		keys := []SortKey{{Col: "k", Desc: rng.IntN(2) == 0, NullsFirst: rng.IntN(3) == 0}, {Col: "v", Desc: rng.IntN(2) == 0}}
		h := int64([]int{0, 1, 2, 5, 70}[rng.IntN(5)])
		for _, workers := range []int{1, 3} {
			opts := []Option{WithWorkers(workers), WithAllocator(mem)}
			got, err := f.Sort(keys...).GroupBy("g").Head(h).Collect(context.Background(), opts...)
			require.NoError(t, err)
			want, err := f.Sort(keys...).Select("g", "k", "v").GroupBy("g").Head(h).Collect(context.Background(), opts...)
			require.NoError(t, err)
			require.True(t, arrowarray.RecordApproxEqual(want.Record(), got.Record(), arrowarray.WithNaNsEqual(true), arrowarray.WithAbsTolerance(0)),
				"trial %d workers %d head %d:\n%v\nwant\n%v", trial, workers, h, got.Record(), want.Record())
			got.Release()
			want.Release()
			top, err := f.TopK(h, keys...).Collect(context.Background(), opts...)
			require.NoError(t, err)
			lim, err := f.Sort(keys...).Limit(h).Collect(context.Background(), opts...)
			require.NoError(t, err)
			require.True(t, arrowarray.RecordApproxEqual(lim.Record(), top.Record(), arrowarray.WithNaNsEqual(true), arrowarray.WithAbsTolerance(0)), "trial %d top %d", trial, h)
			top.Release()
			lim.Release()
		}
		release(recs)
		rec.Release()
	}
}

func release(recs []arrow.Record) {
	for _, r := range recs {
		r.Release()
	}
}

// TestTopPerGroupSplit checks topPerGroupOn over row ranges on several
// goroutines (topSplitMin lowered so small inputs split) against the
// pass over every row (workers 1): one fixed-width key and several keys
// with nulls and strings, many ties, few and many groups, n 1 to 4.
func TestTopPerGroupSplit(t *testing.T) {
	defer func(v int) { topSplitMin = v }(topSplitMin)
	topSplitMin = 16
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(5, 8))
	for trial := 0; trial < 200; trial++ {
		rows := 1 + rng.IntN(3000)
		spread := 1 + rng.IntN(50) // few distinct values: many ties
		ib := arrowarray.NewInt64Builder(mem)
		fb := arrowarray.NewFloat64Builder(mem)
		sb := arrowarray.NewStringBuilder(mem)
		for i := 0; i < rows; i++ {
			ib.Append(int64(rng.IntN(spread)))
			if trial%3 == 2 && rng.IntN(7) == 0 {
				fb.AppendNull()
				sb.AppendNull()
			} else {
				x := float64(rng.IntN(spread)) / 2
				if trial%4 == 1 {
					// keys whose top 32 bits tie (topSlots.worst)
					x = 1 + float64(rng.IntN(spread))*0x1p-40
				}
				fb.Append(x)
				sb.Append(fmt.Sprintf("s%d", rng.IntN(spread)))
			}
		}
		k, f, s := ib.NewArray(), fb.NewArray(), sb.NewArray()
		ib.Release()
		fb.Release()
		sb.Release()
		var o rowOrder
		switch trial % 3 {
		case 0: // one fixed-width key without nulls
			o = rowOrder{newSortCol(f, SortKey{Desc: true})}
		default: // floats with nulls, then strings
			o = rowOrder{newSortCol(f, SortKey{Desc: trial%2 == 0}), newSortCol(s, SortKey{})}
		}
		rec := arrowarray.NewRecord(arrow.NewSchema([]arrow.Field{{Name: "k", Type: k.DataType()}}, nil), []arrow.Array{k}, int64(rows))
		gid, groups := groupIDs(rec, []int{0})
		if trial%5 == 0 {
			gid, groups = make([]int32, rows), 1 // a plain top n
		}
		n := 1 + rng.IntN(4)
		// the reference: a stable sort, then each group's first n rows
		idx := make([]int, rows)
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return o.compare(a, b) })
		kept := make([]int, groups)
		var want []int64
		for _, r := range idx {
			if kept[gid[r]] < n {
				kept[gid[r]]++
				want = append(want, int64(r))
			}
		}
		for _, w := range []int{1, 2, 3, 7} {
			got := topPerGroupOn(o, gid, groups, n, w)
			require.Equal(t, want, got, "trial %d: %d rows, %d groups, n %d, %d workers", trial, rows, groups, n, w)
		}
		rec.Release()
		k.Release()
		f.Release()
		s.Release()
	}
}
