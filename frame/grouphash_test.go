package frame

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// keyGen makes batch b's key column of n rows.
type keyGen struct {
	t   arrow.DataType
	gen func(r *rand.Rand, b arrowarray.Builder, batch, n int)
}

// intGen draws int64 keys from f (ok false: null).
func intGen(t arrow.DataType, f func(r *rand.Rand, batch, i int) (int64, bool)) keyGen {
	return keyGen{t, func(r *rand.Rand, b arrowarray.Builder, batch, n int) {
		for i := 0; i < n; i++ {
			v, ok := f(r, batch, i)
			if !ok {
				b.AppendNull()
				continue
			}
			switch bb := b.(type) {
			case *arrowarray.Int8Builder:
				bb.Append(int8(v))
			case *arrowarray.Int16Builder:
				bb.Append(int16(v))
			case *arrowarray.Int32Builder:
				bb.Append(int32(v))
			case *arrowarray.Int64Builder:
				bb.Append(v)
			case *arrowarray.Uint8Builder:
				bb.Append(uint8(v))
			case *arrowarray.Uint16Builder:
				bb.Append(uint16(v))
			case *arrowarray.Uint32Builder:
				bb.Append(uint32(v))
			case *arrowarray.Uint64Builder:
				bb.Append(uint64(v))
			case *arrowarray.Date32Builder:
				bb.Append(arrow.Date32(v))
			case *arrowarray.TimestampBuilder:
				bb.Append(arrow.Timestamp(v))
			case *arrowarray.BooleanBuilder:
				bb.Append(v != 0)
			case *arrowarray.Float64Builder:
				bb.Append(math.Float64frombits(uint64(v)))
			case *arrowarray.Float32Builder:
				bb.Append(float32(math.Float64frombits(uint64(v))))
			default:
				panic(fmt.Sprintf("intGen: %T", b))
			}
		}
	}}
}

func uniform(lo, hi int64, nulls float64) func(r *rand.Rand, batch, i int) (int64, bool) {
	return func(r *rand.Rand, _, _ int) (int64, bool) {
		if r.Float64() < nulls {
			return 0, false
		}
		return lo + r.Int64N(hi-lo+1), true
	}
}

func pick(vals []int64, nulls float64) func(r *rand.Rand, batch, i int) (int64, bool) {
	return func(r *rand.Rand, _, _ int) (int64, bool) {
		if r.Float64() < nulls {
			return 0, false
		}
		return vals[r.IntN(len(vals))], true
	}
}

func strGen(t arrow.DataType, distinct int, nulls float64) keyGen {
	return keyGen{t, func(r *rand.Rand, b arrowarray.Builder, _, n int) {
		for i := 0; i < n; i++ {
			if r.Float64() < nulls {
				b.AppendNull()
				continue
			}
			k := r.IntN(distinct)
			s := fmt.Sprintf("id%0*d", k%7, k) // "" and shared prefixes among them
			if k == 0 {
				s = ""
			}
			switch bb := b.(type) {
			case *arrowarray.StringBuilder:
				bb.Append(s)
			case *arrowarray.LargeStringBuilder:
				bb.Append(s)
			case *arrowarray.BinaryBuilder:
				bb.Append([]byte(s))
			default:
				panic(fmt.Sprintf("strGen: %T", b))
			}
		}
	}}
}

// dictColumn makes a dictionary column with a dictionary of its own (with
// unused, duplicate and null entries) over strings of up to distinct
// values.
func dictColumn(r *rand.Rand, mem memory.Allocator, n, distinct int, nulls float64) arrow.Array {
	db := arrowarray.NewStringBuilder(mem)
	defer db.Release()
	entries := 2 + r.IntN(2*distinct)
	for e := 0; e < entries; e++ {
		switch {
		case e == 1:
			db.AppendNull()
		default:
			db.Append(fmt.Sprintf("s%d", r.IntN(distinct)))
		}
	}
	dict := db.NewArray()
	defer dict.Release()
	ib := arrowarray.NewInt32Builder(mem)
	defer ib.Release()
	for i := 0; i < n; i++ {
		if r.Float64() < nulls {
			ib.AppendNull()
			continue
		}
		ib.Append(int32(r.IntN(entries)))
	}
	idx := ib.NewArray()
	defer idx.Release()
	return arrowarray.NewDictionaryArray(&arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, idx, dict)
}

func TestGroupKeysMatchNaive(t *testing.T) { testGroupKeys(t) }

// TestGroupKeysWeakHash: the same with hashes of 8 bits, so that the hash
// tables' tags collide and their probe chains wrap.
func TestGroupKeysWeakHash(t *testing.T) {
	weakHash = true
	defer func() { weakHash = false }()
	testGroupKeys(t)
}

// TestGroupKeysPartitioned: the same with the workers' tables merged by
// partitions (mergeParts) however few their groups, in 8 partitions or
// more, packed keys and raw rows; and with weak hashes (every group in
// one partition).
func TestGroupKeysPartitioned(t *testing.T) {
	defer func(m, b int) { partMergeMin, partMinBits = m, b }(partMergeMin, partMinBits)
	partMergeMin, partMinBits = 0, 3
	before := partMerges.Load()
	t.Run("strong", testGroupKeys)
	require.Greater(t, partMerges.Load()-before, int64(5), "merges by partitions")
	if !raceInternal { // race_internal_test.go
		partRowsOnly = true
		t.Run("rows", testGroupKeys)
		partRowsOnly = false
	}
	weakHash = true
	defer func() { weakHash = false }()
	t.Run("weak", testGroupKeys)
}

// TestGroupKeysOwned: the same with every multi-worker group-by whose
// keys allow it split among the workers by owned partitions of the keys
// (groupowned.go), and the disjoint tables put together.
func TestGroupKeysOwned(t *testing.T) {
	ownedForce = true
	defer func() { ownedForce = false }()
	before := ownedRuns.Load()
	testGroupKeys(t)
	require.Greater(t, ownedRuns.Load()-before, int64(20), "owned runs")
}

func testGroupKeys(t *testing.T) {
	i64, i32, i8, u16, u64 := arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint16, arrow.PrimitiveTypes.Uint64
	dictT := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	ext := []int64{math.MinInt64, math.MaxInt64, 0, -1, 1, math.MinInt64 + 1, math.MaxInt64 - 1}
	fl := []int64{int64(math.Float64bits(0)), int64(math.Float64bits(math.Copysign(0, -1))), int64(math.Float64bits(math.NaN())),
		int64(math.Float64bits(math.Inf(1))), int64(math.Float64bits(math.Inf(-1))), int64(math.Float64bits(1.5)), int64(math.Float64bits(-2)),
		int64(math.Float64bits(math.SmallestNonzeroFloat64)), int64(math.Float64bits(math.MaxFloat64)), int64(math.Float64bits(math.NaN())) ^ 1}
	cases := []struct {
		name    string
		keys    []keyGen
		batches []int
		dict    int // > 0: a dictionary key column of that many strings, first
	}{
		{"direct one int", []keyGen{intGen(i64, uniform(-50, 50, 0))}, []int{1000, 3, 5000}, 0},
		{"direct nulls int8", []keyGen{intGen(i8, uniform(-128, 127, 0.1))}, []int{4000, 4000}, 0},
		{"one key", []keyGen{intGen(i64, uniform(7, 7, 0))}, []int{1, 100, 1}, 0},
		{"all null", []keyGen{intGen(i32, uniform(0, 9, 1))}, []int{10, 10}, 0},
		{"null then values", []keyGen{intGen(i32, func(r *rand.Rand, batch, i int) (int64, bool) { return int64(i % 3), batch > 0 })}, []int{10, 10, 10}, 0},
		{"growing", []keyGen{intGen(i64, func(r *rand.Rand, batch, i int) (int64, bool) { return int64(batch*1000 + r.IntN(1000)), true })}, []int{2000, 2000, 2000, 2000, 2000, 2000}, 0},
		{"falling", []keyGen{intGen(i64, func(r *rand.Rand, batch, i int) (int64, bool) { return int64(-batch*5000 - r.IntN(5000)), true })}, []int{3000, 3000, 3000, 3000, 3000}, 0},
		{"hashed sparse", []keyGen{intGen(i64, func(r *rand.Rand, _, _ int) (int64, bool) { return int64(r.IntN(3000)) << 32, true })}, []int{5000, 5000}, 0},
		{"hashed growth", []keyGen{intGen(i64, uniform(-1<<40, 1<<40, 0.01))}, []int{20000, 20000, 20000}, 0},
		{"int64 extremes", []keyGen{intGen(i64, pick(ext, 0.05))}, []int{100, 100}, 0},
		{"extremes late", []keyGen{intGen(i64, func(r *rand.Rand, batch, i int) (int64, bool) {
			if batch < 2 {
				return int64(r.IntN(100)), true
			}
			return ext[r.IntN(len(ext))], r.IntN(10) > 0
		})}, []int{500, 500, 500}, 0},
		{"uint64 high", []keyGen{intGen(u64, pick([]int64{-1, -2, 0, 1, math.MinInt64}, 0.1))}, []int{300}, 0},
		{"multi packed", []keyGen{intGen(i8, uniform(-3, 3, 0.1)), intGen(i32, uniform(-100, 100, 0)), intGen(u16, uniform(0, 65535, 0.05))}, []int{3000, 3000}, 0},
		{"six keys", []keyGen{intGen(i64, uniform(1, 100, 0)), intGen(i64, uniform(1, 100, 0)), intGen(i64, uniform(1, 100000, 0)),
			intGen(i32, uniform(1, 100, 0)), intGen(i32, uniform(1, 100, 0)), intGen(i64, uniform(1, 100000, 0))}, []int{20000, 20000}, 0},
		{"multi to wide", []keyGen{intGen(i64, uniform(0, 1000, 0)), intGen(i64, func(r *rand.Rand, batch, i int) (int64, bool) {
			if batch == 0 {
				return int64(r.IntN(10)), true
			}
			return r.Int64() - r.Int64(), r.IntN(20) > 0
		})}, []int{2000, 2000, 2000}, 0},
		{"tight layout", []keyGen{intGen(i64, tightGen), intGen(i64, tightGen), intGen(i64, tightGen)}, []int{3000, 3000}, 0},
		{"floats", []keyGen{intGen(arrow.PrimitiveTypes.Float64, pick(fl, 0.1))}, []int{500, 500}, 0},
		{"float32 and int", []keyGen{intGen(arrow.PrimitiveTypes.Float32, pick(fl, 0.1)), intGen(i8, uniform(0, 3, 0.2))}, []int{500}, 0},
		{"bools", []keyGen{intGen(arrow.FixedWidthTypes.Boolean, uniform(0, 1, 0.2)), intGen(i8, uniform(0, 2, 0))}, []int{300, 300}, 0},
		{"dates", []keyGen{intGen(arrow.FixedWidthTypes.Date32, uniform(-1000, 1000, 0.1)), intGen(&arrow.TimestampType{Unit: arrow.Microsecond}, uniform(-1e12, 1e12, 0.1))}, []int{1000, 1000}, 0},
		{"utf8", []keyGen{strGen(arrow.BinaryTypes.String, 500, 0.05)}, []int{3000, 3000}, 0},
		{"large utf8", []keyGen{strGen(arrow.BinaryTypes.LargeString, 50, 0.1)}, []int{1000}, 0},
		{"binary and int", []keyGen{strGen(arrow.BinaryTypes.Binary, 30, 0.1), intGen(i64, uniform(-5, 5, 0.1))}, []int{2000}, 0},
		{"utf8 many", []keyGen{strGen(arrow.BinaryTypes.String, 100000, 0)}, []int{30000, 30000}, 0},
		{"dictionary", nil, []int{1000, 1000, 1000}, 40},
		{"dictionary and ints", []keyGen{intGen(i64, uniform(0, 3, 0.1)), strGen(arrow.BinaryTypes.String, 5, 0.1)}, []int{1000, 2000}, 300},
	}
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	for ci, tc := range cases {
		if weakHash && (tc.name == "hashed growth" || tc.name == "six keys" || tc.name == "utf8 many" || tc.name == "growing" || tc.name == "tight layout") {
			continue // too many groups for 8-bit hashes
		}
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(uint64(ci), 19))
			var fields []arrow.Field
			var names []string
			if tc.dict > 0 {
				fields = append(fields, arrow.Field{Name: "d", Type: dictT, Nullable: true})
				names = append(names, "d")
			}
			for k, g := range tc.keys {
				fields = append(fields, arrow.Field{Name: fmt.Sprintf("k%d", k), Type: g.t, Nullable: true})
				names = append(names, fmt.Sprintf("k%d", k))
			}
			fields = append(fields, arrow.Field{Name: "v", Type: arrow.PrimitiveTypes.Int64})
			schema := arrow.NewSchema(fields, nil)
			var recs []arrow.Record
			row := 0
			for b, n := range tc.batches {
				var cols []arrow.Array
				if tc.dict > 0 {
					cols = append(cols, dictColumn(r, mem, n, tc.dict, 0.05))
				}
				for _, g := range tc.keys {
					bl := arrowarray.NewBuilder(mem, g.t)
					g.gen(r, bl, b, n)
					cols = append(cols, bl.NewArray())
					bl.Release()
				}
				vb := arrowarray.NewInt64Builder(mem)
				for i := 0; i < n; i++ {
					vb.Append(int64(row + i))
				}
				cols = append(cols, vb.NewArray())
				vb.Release()
				row += n
				recs = append(recs, arrowarray.NewRecord(schema, cols, int64(n)))
				for _, c := range cols {
					c.Release()
				}
			}
			defer func() {
				for _, rec := range recs {
					rec.Release()
				}
			}()
			// the reference: groups by their encoded keys, in order of first row
			ref := newGroupRef(recs, len(names))
			// and the same rows as slices of larger records (offsets)
			var sliced []arrow.Record
			for _, rec := range recs {
				var cols []arrow.Array
				for k := 0; k < int(rec.NumCols()); k++ {
					cols = append(cols, padded(t, mem, rec.Column(k)))
				}
				big := arrowarray.NewRecord(schema, cols, rec.NumRows()+5)
				sliced = append(sliced, big.NewSlice(3, 3+rec.NumRows()))
				big.Release()
				for _, c := range cols {
					c.Release()
				}
			}
			defer func() {
				for _, rec := range sliced {
					rec.Release()
				}
			}()
			for run, workers := range []int{1, 2, 3, 1, 2} {
				in := recs
				if run >= 3 {
					in = sliced
				}
				f := FromRecords(in...).GroupBy(names...).Agg(Count(), Sum("v").As("sum"), First("v").As("first"))
				tb, err := f.Collect(context.Background(), WithWorkers(workers), WithAllocator(mem))
				require.NoError(t, err)
				ref.check(t, tb.Record(), workers)
				tb.Release()
			}
		})
	}
}

// tightGen: keys in [100, 2^21) (21 bits) in the first batch, then
// reaching down to 1: three columns with room to grow (22 bits each)
// would not fit in 64 bits, laid out tightly (21 each) they do.
func tightGen(r *rand.Rand, batch, i int) (int64, bool) {
	switch {
	case batch == 0 && i == 0:
		return 100, true
	case batch == 0 && i == 1:
		return 1<<21 - 1, true
	case batch == 0:
		return 100 + r.Int64N(1<<21-100), true
	case i == 0:
		return 1, true
	}
	return 1 + r.Int64N(1<<21-1), true
}

// TestKeyerTightLayout: the tight layout of tightGen's keys stays packed
// (before it, the keys turned wide), and the group ids are the same as a
// map's.
func TestKeyerTightLayout(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	k := newKeyer([]arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int64})
	ids := map[[3]int64]int32{}
	for batch := 0; batch < 3; batch++ {
		n := 2000
		cols := make([][]int64, 3)
		kv := make([]keyVals, 3)
		for c := range cols {
			cols[c] = make([]int64, n)
			for i := range cols[c] {
				cols[c][i], _ = tightGen(r, batch, i)
			}
			kv[c] = keyVals{v: intsOf[int64](cols[c])}
		}
		gids := make([]int32, n)
		require.NoError(t, k.assign(kv, n, int64(batch*n), nil, gids))
		require.NotEqual(t, keyWide, k.mode, "batch %d", batch)
		for i := 0; i < n; i++ {
			key := [3]int64{cols[0][i], cols[1][i], cols[2][i]}
			g, ok := ids[key]
			if !ok {
				g = int32(len(ids))
				ids[key] = g
			}
			require.Equal(t, g, gids[i], "batch %d row %d", batch, i)
		}
	}
	require.Equal(t, len(ids), k.groups())
}

// TestGroupKeysMillion: 10^6 distinct keys (and one key) through the hash
// table and its growth; with two workers, one table (singleRuns) for the
// distinct keys and two merged for the one key; with three, owned
// partitions for the distinct keys.
func TestGroupKeysMillion(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const n = 1_000_000
	for _, distinct := range []int64{1, n} {
		perm := rand.New(rand.NewPCG(5, uint64(distinct))).Perm(n)
		kb, vb := arrowarray.NewInt64Builder(mem), arrowarray.NewInt64Builder(mem)
		for i := 0; i < n; i++ {
			kb.Append(int64(perm[i])%distinct*1_000_003 - 7)
			vb.Append(int64(i))
		}
		k, v := kb.NewArray(), vb.NewArray()
		kb.Release()
		vb.Release()
		s := arrow.NewSchema([]arrow.Field{{Name: "k", Type: arrow.PrimitiveTypes.Int64}, {Name: "v", Type: arrow.PrimitiveTypes.Int64}}, nil)
		rec := arrowarray.NewRecord(s, []arrow.Array{k, v}, n)
		k.Release()
		v.Release()
		for _, workers := range []int{1, 2, 3} {
			runs, singles := ownedRuns.Load(), singleRuns.Load()
			tb, err := FromRecords(rec).GroupBy("k").Agg(Count(), First("v").As("first")).Collect(context.Background(), WithWorkers(workers), WithAllocator(mem))
			require.NoError(t, err)
			require.Equal(t, workers == 3 && distinct == n, ownedRuns.Load() > runs, "workers %d: owned partitions", workers)
			require.Equal(t, workers == 2 && distinct == n, singleRuns.Load() > singles, "workers %d: one table", workers)
			out := tb.Record()
			require.Equal(t, distinct, out.NumRows())
			keys := out.Column(0).(*arrowarray.Int64)
			cnt := out.Column(1).(*arrowarray.Int64)
			first := out.Column(2).(*arrowarray.Int64)
			for g := 0; g < int(distinct); g++ {
				// groups come in order of their first rows: row g starts group g
				require.Equal(t, int64(perm[g])%distinct*1_000_003-7, keys.Value(g))
				require.Equal(t, int64(g), first.Value(g))
				require.Equal(t, n/distinct, cnt.Value(g))
			}
			tb.Release()
		}
		rec.Release()
	}
}

// TestQuantileSelect: quantileOf (selection) against a sort, with NaNs,
// infinities, signed zeros, duplicates, and lengths 1 to a few thousand.
func TestQuantileSelect(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	special := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64, 5e-324}
	for trial := 0; trial < 3000; trial++ {
		n := 1 + r.IntN(40)
		if trial%10 == 0 {
			n = 1 + r.IntN(5000)
		}
		x := make([]float64, n)
		distinct := 1 + r.IntN(n+1)
		for i := range x {
			switch {
			case r.IntN(20) == 0:
				x[i] = special[r.IntN(len(special))]
			case trial%3 == 0:
				x[i] = float64(r.IntN(distinct))
			default:
				x[i] = r.NormFloat64()
			}
		}
		if trial%7 == 0 {
			slices.Sort(x) // sorted and reversed inputs
			if trial%2 == 0 {
				slices.Reverse(x)
			}
		}
		for _, q := range []float64{0, 0.25, 0.5, 0.75, 1, r.Float64()} {
			s := slices.Clone(x)
			slices.SortFunc(s, func(a, b float64) int {
				switch {
				case a != a && b != b:
					return 0
				case a != a:
					return 1
				case b != b:
					return -1
				}
				return cmp.Compare(a, b)
			})
			p := q * float64(n-1)
			lo := int(math.Floor(p))
			hi := min(lo+1, n-1)
			f := p - float64(lo)
			want := s[lo]
			if f != 0 && s[lo] != s[hi] {
				want = s[lo] + (s[hi]-s[lo])*f
			}
			got := quantileOf(slices.Clone(x), q)
			if !(got == want || (got != got && want != want)) {
				t.Fatalf("n %d q %v: got %v, want %v", n, q, got, want)
			}
		}
	}
}

// padded returns c with three rows before it and two after (copies of its
// first rows, or nulls), to be sliced back to c.
func padded(t *testing.T, mem memory.Allocator, c arrow.Array) arrow.Array {
	var parts []arrow.Array
	if c.Len() > 0 {
		head := arrowarray.NewSlice(c, 0, 1)
		defer head.Release()
		parts = []arrow.Array{head, head, head, c, head, head}
	} else {
		nulls := arrowarray.MakeArrayOfNull(mem, c.DataType(), 3)
		defer nulls.Release()
		two := arrowarray.NewSlice(nulls, 0, 2)
		defer two.Release()
		parts = []arrow.Array{nulls, c, two}
	}
	out, err := arrowarray.Concatenate(parts, mem)
	require.NoError(t, err)
	return out
}

// TestOwnedDecision: the first batch's keys decide owned partitions only
// when they look nearly all distinct (and the batch is large enough).
func TestOwnedDecision(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(4, 4))
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}, {Name: "b", Type: arrow.PrimitiveTypes.Float64, Nullable: true}}, nil)
	in := &node{schema: schema}
	n, err := groupNode(in, []string{"a", "b"}, []Agg{Count()})
	require.NoError(t, err)
	n.in = in
	for _, tc := range []struct {
		name     string
		rows     int
		distinct int64 // a's values (b: 0)
		want     bool
	}{
		{"unique", 20000, 1 << 30, true},
		{"hundred", 20000, 100, false},
		{"1e5", 20000, 100000, false},
		{"1e7", 20000, 10_000_000, true},
		{"small batch", 1000, 1 << 30, false},
	} {
		ab, bb := arrowarray.NewInt32Builder(mem), arrowarray.NewFloat64Builder(mem)
		for i := 0; i < tc.rows; i++ {
			if i == 7 {
				ab.AppendNull()
			} else {
				ab.Append(int32(r.Int64N(tc.distinct)))
			}
			bb.Append(0)
		}
		a, b := ab.NewArray(), bb.NewArray()
		rec := arrowarray.NewRecord(schema, []arrow.Array{a, b}, int64(tc.rows))
		got, keys, err := highCardinality(n, rec)
		require.NoError(t, err)
		require.Equal(t, tc.want, got, tc.name)
		if got {
			// the estimate of the distinct keys: within 4x of the truth,
			// or no repeat at all (+Inf) when there are 2^30 of them
			require.True(t, math.IsInf(keys, 1) || (keys > float64(tc.distinct)/4 && keys < float64(tc.distinct)*4),
				"%s: %d distinct keys estimated as %g", tc.name, tc.distinct, keys)
		}
		rec.Release()
		a.Release()
		b.Release()
		ab.Release()
		bb.Release()
	}
}

// TestInterner: ids against a map's, for strings of 0 to 40 bytes (the
// short ones, up to 15, kept as two words), with zero bytes inside and at
// the end ("ab" and "ab\x00" differ), through the table's growth; and
// each id's string back.
func TestInterner(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 7))
	defer func() { weakHash = false }()
	for _, weak := range []bool{false, true} {
		weakHash = weak // 8-bit hashes: tags collide, strings compared
		s := newInterner()
		ref := map[string]int{}
		var pool []string
		for i := 0; i < 3000; i++ {
			n := r.IntN(41)
			b := make([]byte, n)
			for j := range b {
				if r.IntN(3) == 0 {
					b[j] = 0
				} else {
					b[j] = byte('a' + r.IntN(3))
				}
			}
			pool = append(pool, string(b), string(b)+"\x00", "\x00"+string(b))
		}
		pool = append(pool, "", "\x00", "\x00\x00")
		for i := 0; i < 20000; i++ {
			str := pool[r.IntN(len(pool))]
			want, ok := ref[str]
			if !ok {
				want = len(ref)
				ref[str] = want
			}
			require.Equal(t, want, s.id([]byte(str)), "%q", str)
		}
		require.Equal(t, len(ref), s.len())
		for str, id := range ref {
			require.Equal(t, str, string(s.get(id)))
		}
		// a short string read with the bytes after it in its backing
		// array (which shortWords loads and masks off) or alone (cap =
		// len, loaded byte by byte) is the same string
		for n := 0; n < 8; n++ {
			garbage := []byte("qwertyuiopasdfgh")
			exact := append([]byte(nil), garbage[:n]...)[:n:n]
			require.Equal(t, s.id(garbage[:n]), s.id(exact), "length %d", n)
			w0, w1, ok := shortWords(garbage[:n])
			x0, x1, _ := shortWords(exact)
			require.True(t, ok)
			require.Equal(t, [2]uint64{x0, x1}, [2]uint64{w0, w1}, "length %d", n)
		}
	}
}

// TestInternAll: internAll's blocked lookups (words and hashes first,
// then a prefetch once the table is past internCold, then the probes)
// give each valid row the id a map gives in order of first sight, and 0
// to null rows, which it does not intern: string and large-string
// offsets, sliced columns (offsets not from 0, validity from a bit
// offset), short and long strings, and up to 40000 distinct strings so
// that the table grows past internCold inside a batch.
func TestInternAll(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	defer func() { weakHash = false }()
	for _, c := range []struct {
		k, n  int
		large bool
		weak  bool
	}{{3, 100, false, false}, {100, 5000, true, false}, {40000, 120000, false, false},
		{40000, 90000, true, false}, {5000, 20000, false, true}} {
		weakHash = c.weak
		pool := make([]string, c.k)
		for i := range pool {
			switch r.IntN(3) {
			case 0:
				pool[i] = fmt.Sprintf("id%0*d", r.IntN(14), i)
			case 1:
				pool[i] = strings.Repeat("k", r.IntN(3)) + fmt.Sprint(i)
			default:
				pool[i] = fmt.Sprintf("a-longer-string-key-%d", i)
			}
		}
		pool[0] = "" // the empty string's words are an empty slot's
		mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
		typ := arrow.DataType(arrow.BinaryTypes.String)
		if c.large {
			typ = arrow.BinaryTypes.LargeString
		}
		b := arrowarray.NewBuilder(mem, typ).(interface {
			arrowarray.Builder
			Append(string)
		})
		for i := 0; i < c.n; i++ {
			if r.IntN(7) == 0 {
				b.AppendNull()
			} else {
				b.Append(pool[r.IntN(c.k)])
			}
		}
		arr := b.NewArray()
		b.Release()
		off := r.IntN(13)
		sl := arrowarray.NewSlice(arr, int64(off), int64(c.n))
		n := sl.Len()
		raw := make([]uint64, n)
		kv := keyVals{valid: sl.NullBitmapBytes(), off: sl.Data().Offset()}
		if sl.NullN() == 0 {
			kv.valid = nil
		}
		s := newInterner()
		switch x := sl.(type) {
		case *arrowarray.String:
			internAll(s, raw, x.ValueOffsets(), x.ValueBytes(), kv)
		case *arrowarray.LargeString:
			internAll(s, raw, x.ValueOffsets(), x.ValueBytes(), kv)
		}
		ref := map[string]int{}
		for i := 0; i < n; i++ {
			if sl.IsNull(i) {
				require.Zero(t, raw[i], "case %+v row %d (null)", c, i)
				continue
			}
			str := sl.(interface{ Value(int) string }).Value(i)
			want, ok := ref[str]
			if !ok {
				want = len(ref)
				ref[str] = want
			}
			require.Equal(t, uint64(want), raw[i], "case %+v row %d %q", c, i, str)
		}
		require.Equal(t, len(ref), s.len(), "case %+v", c)
		if c.k >= 40000 {
			require.Greater(t, len(s.slots)*int(unsafe.Sizeof(islot{})), internCold, "the table never reached the prefetching size")
		}
		sl.Release()
		arr.Release()
		mem.AssertSize(t, 0)
	}
}

// groupRef is the reference result of GroupBy(the first nk columns).Agg(
// Count(), Sum("v"), First("v")) over records whose column nk is an int64
// v: the groups by their encoded keys, in order of first row.
type groupRef struct {
	nk   int
	keys []string
	refs []groupRefRow
}

type groupRefRow struct{ count, sum, first int64 }

func newGroupRef(recs []arrow.Record, nk int) *groupRef {
	r := &groupRef{nk: nk}
	idx := map[string]int{}
	for _, rec := range recs {
		for i := 0; i < int(rec.NumRows()); i++ {
			v := rec.Column(nk).(*arrowarray.Int64).Value(i)
			key := string(r.key(rec, i))
			g, ok := idx[key]
			if !ok {
				g = len(r.keys)
				idx[key] = g
				r.keys = append(r.keys, key)
				r.refs = append(r.refs, groupRefRow{first: v})
			}
			r.refs[g].count++
			r.refs[g].sum += v
		}
	}
	return r
}

func (r *groupRef) key(rec arrow.Record, i int) []byte {
	var key []byte
	for k := 0; k < r.nk; k++ {
		key = appendKey(key, rec.Column(k), i)
	}
	return key
}

// check requires out (keys, then count, sum, first) to equal the reference.
func (r *groupRef) check(t *testing.T, out arrow.Record, workers int) {
	t.Helper()
	require.Equal(t, int64(len(r.keys)), out.NumRows(), "workers %d", workers)
	cnt := out.Column(r.nk).(*arrowarray.Int64)
	sum := out.Column(r.nk + 1).(*arrowarray.Int64)
	first := out.Column(r.nk + 2).(*arrowarray.Int64)
	for g := range r.keys {
		require.Equal(t, r.keys[g], string(r.key(out, g)), "workers %d, group %d", workers, g)
		require.Equal(t, r.refs[g], groupRefRow{cnt.Value(g), sum.Value(g), first.Value(g)}, "workers %d, group %d", workers, g)
	}
}

// TestKeyerHintKeptThroughRelayout: a table reserved for many groups keeps
// its hinted slots when a wider key lays it out anew, in the same memory
// (before, every relayout built a table for the groups it had and the next
// growth allocated a fresh one of the hint's size: three 64 MiB tables a
// worker at db-benchmark q10), and the group ids stay a map's.
func TestKeyerHintKeptThroughRelayout(t *testing.T) {
	const hint = 100_000
	k := newKeyer([]arrow.DataType{arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Int64})
	k.reserve(hint)
	ids := map[[2]int64]int32{}
	var slots0 *uint64
	for batch, span := range []int64{1 << 12, 1 << 14, 1 << 20, 1 << 28} {
		n := 3000
		r := rand.New(rand.NewPCG(3, uint64(batch)))
		cols := [2][]int64{make([]int64, n), make([]int64, n)}
		for i := 0; i < n; i++ {
			cols[0][i] = r.Int64N(span)
			cols[1][i] = r.Int64N(span) - span/2
		}
		kv := []keyVals{{v: intsOf[int64](cols[0])}, {v: intsOf[int64](cols[1])}}
		gids := make([]int32, n)
		require.NoError(t, k.assign(kv, n, int64(batch*n), nil, gids))
		for i := 0; i < n; i++ {
			key := [2]int64{cols[0][i], cols[1][i]}
			g, ok := ids[key]
			if !ok {
				g = int32(len(ids))
				ids[key] = g
			}
			require.Equal(t, g, gids[i], "batch %d row %d", batch, i)
		}
		require.Equal(t, keyHashed, k.mode, "batch %d", batch)
		require.Greater(t, len(k.slots)*3/4, hint, "batch %d: slots sized for the hint", batch)
		if batch == 0 {
			slots0 = &k.slots[0]
		}
		require.Same(t, slots0, &k.slots[0], "batch %d: the relayout reuses the slots", batch)
	}
	require.Equal(t, len(ids), k.groups())
}
