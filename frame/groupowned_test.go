package frame

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestGroupOwnedStrings: string keys (utf8, large utf8, binary, with
// nulls, beside an int key) that are nearly all distinct take owned
// partitions at two and three workers, hashed by their bytes; the tables,
// each with its own interner, are put together and every group's key,
// count, sum and first row equal a map's, in order of first rows. The
// tables are sized from the first batch's estimate; in "grows" the later
// batches bring many more keys than it expected, so the tables grow past
// it. collectDead runs (deadGroups lowered) between build and result.
// (Owned partitions are taken from two workers up here, ownedMinWorkers
// lowered.)
func TestGroupOwnedStrings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	defer func(d, w int) { deadGroups, ownedMinWorkers = d, w }(deadGroups, ownedMinWorkers)
	deadGroups = 1
	ownedMinWorkers = 2 // (owned at two workers too)
	rows := 3 * ownedMinRows
	for _, tc := range []struct {
		name string
		typ  arrow.DataType
		// the first batch's keys: drawn from this many (repeats make the
		// estimate smaller); the later batches' all new
		first int
	}{
		{"utf8 unique", arrow.BinaryTypes.String, 0},
		{"large utf8 unique", arrow.BinaryTypes.LargeString, 0},
		{"binary unique", arrow.BinaryTypes.Binary, 0},
		{"utf8 grows", arrow.BinaryTypes.String, 600_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(7, uint64(tc.first)))
			schema := arrow.NewSchema([]arrow.Field{
				{Name: "s", Type: tc.typ, Nullable: true},
				{Name: "i", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
				{Name: "v", Type: arrow.PrimitiveTypes.Int64},
			}, nil)
			var recs []arrow.Record
			defer func() {
				for _, rec := range recs {
					rec.Release()
				}
			}()
			perm := r.Perm(4 * rows)
			row := 0
			for batch := 0; batch < 3; batch++ {
				sb := arrowarray.NewBuilder(mem, tc.typ)
				ib := arrowarray.NewInt64Builder(mem)
				vb := arrowarray.NewInt64Builder(mem)
				for i := 0; i < ownedMinRows; i++ {
					k := perm[row]
					if batch == 0 && tc.first > 0 {
						k = 4*rows + r.IntN(tc.first)
					}
					switch {
					case row%997 == 5:
						sb.AppendNull()
					case tc.typ.ID() == arrow.BINARY:
						sb.(*arrowarray.BinaryBuilder).Append([]byte(fmt.Sprintf("b\x00%d", k/3)))
					default:
						// short (<= 15 bytes) and long strings both
						s := fmt.Sprintf("k%d", k/3)
						if k%5 == 0 {
							s = fmt.Sprintf("a much longer key, number %09d", k/3)
						}
						sb.(interface{ Append(string) }).Append(s)
					}
					if row%1009 == 3 {
						ib.AppendNull()
					} else {
						ib.Append(int64(k % 3))
					}
					vb.Append(int64(row))
					row++
				}
				cols := []arrow.Array{sb.NewArray(), ib.NewArray(), vb.NewArray()}
				recs = append(recs, arrowarray.NewRecord(schema, cols, int64(ownedMinRows)))
				for _, c := range cols {
					c.Release()
				}
				sb.Release()
				ib.Release()
				vb.Release()
			}
			ref := newGroupRef(recs, 2)
			for _, workers := range []int{1, 2, 3} {
				runs := ownedRuns.Load()
				reservedGroups.Store(0)
				tb, err := FromRecords(recs...).GroupBy("s", "i").Agg(Count(), Sum("v").As("sum"), First("v").As("first")).
					Collect(context.Background(), WithWorkers(workers), WithAllocator(mem))
				require.NoError(t, err)
				require.Equal(t, workers > 1, ownedRuns.Load() > runs, "workers %d: owned partitions", workers)
				reserved := reservedGroups.Load()
				if tc.first == 0 {
					// a few repeats in the sample (the null strings): sized
					// for about every row
					require.InEpsilon(t, float64(rows), float64(reserved), 0.02, "workers %d", workers)
				} else {
					require.Greater(t, reserved, int64(0), "workers %d", workers)
					require.Less(t, reserved, int64(len(ref.keys)), "workers %d: the tables had to grow", workers)
				}
				ref.check(t, tb.Record(), workers)
				tb.Release()
			}
		})
	}
}

// TestMixStrings: a string's ownership hash is of its bytes alone: the
// same strings in differently laid out columns (offsets, slices, large
// offsets, a short string with bytes after it or none) hash the same, and
// a null hashes as nullMix.
func TestMixStrings(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	vals := []string{"", "a", "abcdefg", "abcdefgh", "0123456789abcde", "0123456789abcdef", "a longer string of 33 bytes......", "a\x00", "a"}
	build := func(typ arrow.DataType, pad int) arrow.Array {
		b := arrowarray.NewBuilder(mem, typ)
		defer b.Release()
		for i := 0; i < pad; i++ {
			b.(interface{ Append(string) }).Append("padding that comes first")
		}
		for _, v := range vals {
			b.(interface{ Append(string) }).Append(v)
		}
		b.AppendNull()
		a := b.NewArray()
		if pad == 0 {
			return a
		}
		defer a.Release()
		return arrowarray.NewSlice(a, int64(pad), int64(pad+len(vals)+1))
	}
	var hashes [][]uint64
	for _, typ := range []arrow.DataType{arrow.BinaryTypes.String, arrow.BinaryTypes.LargeString, arrow.BinaryTypes.Binary} {
		for _, pad := range []int{0, 3} {
			if typ.ID() == arrow.BINARY {
				continue // (a binary builder takes bytes; the same path as utf8's)
			}
			a := build(typ, pad)
			h := make([]uint64, a.Len())
			for i := range h {
				h[i] = mixK
			}
			require.NoError(t, mixStrings(h, a))
			a.Release()
			hashes = append(hashes, h)
		}
	}
	for _, h := range hashes[1:] {
		require.Equal(t, hashes[0], h)
	}
	h := hashes[0]
	k, nm := uint64(mixK), uint64(nullMix)
	require.Equal(t, (k^nm)*k, h[len(vals)], "null")
	require.Equal(t, h[1], h[len(vals)-1], "the same string twice")
	seen := map[uint64]bool{}
	for _, x := range h[:len(vals)-1] {
		require.False(t, seen[x], "distinct strings, distinct hashes")
		seen[x] = true
	}
	// not a string column
	ib := arrowarray.NewInt64Builder(mem)
	ib.Append(1)
	ia := ib.NewArray()
	ib.Release()
	require.ErrorIs(t, mixStrings(make([]uint64, 1), ia), ErrType)
	ia.Release()
}

// TestExpectedGroups: keys·(1 - e^(-rows/keys)) groups, at most rows (and
// the most a table holds), every row when the keys are without bound.
func TestExpectedGroups(t *testing.T) {
	require.Equal(t, 0, expectedGroups(0, 100))
	require.Equal(t, 1000, expectedGroups(1000, math.Inf(1)))
	require.Equal(t, 100, expectedGroups(1_000_000, 100))
	got := expectedGroups(1_000_000, 1_000_000)
	require.InDelta(t, 632_120, got, 2)
	require.Equal(t, maxGroups, expectedGroups(math.MaxInt64, math.Inf(1)))
	// against a count of distinct draws
	r := rand.New(rand.NewPCG(1, 2))
	const draws, keys = 200_000, 150_000
	seen := map[int]bool{}
	for i := 0; i < draws; i++ {
		seen[r.IntN(keys)] = true
	}
	require.InEpsilon(t, float64(len(seen)), float64(expectedGroups(draws, keys)), 0.01)
}
