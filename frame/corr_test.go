package frame

import (
	"math"
	"math/rand/v2"
	"testing"

	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"
)

// TestCorrState: Corr's moments, updated a row at a time (dense columns
// and columns with nulls) and merged from two tables, against a two-pass
// correlation of each group's rows, for values far from zero relative to
// their spread (4e9 + small numbers) too.
func TestCorrState(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 60; trial++ {
		groups := 1 + r.IntN(40)
		rows := 1 + r.IntN(3000)
		offset := []float64{0, 1e6, 4e9, -3e12}[trial%4]
		nulls := trial%3 == 1
		ab, bb := arrowarray.NewFloat64Builder(mem), arrowarray.NewInt64Builder(mem)
		gids := make([]int32, rows)
		type pair struct{ a, b float64 }
		ref := make([][]pair, groups)
		for i := 0; i < rows; i++ {
			g := int32(r.IntN(groups))
			gids[i] = g
			x := offset + r.NormFloat64()*10
			y := float64(int64(offset/2) + int64(r.IntN(1000)) + int64(x-offset))
			okA, okB := !nulls || r.IntN(7) > 0, !nulls || r.IntN(7) > 0
			if okA {
				ab.Append(x)
			} else {
				ab.AppendNull()
			}
			if okB {
				bb.Append(int64(y))
			} else {
				bb.AppendNull()
			}
			if okA && okB {
				ref[g] = append(ref[g], pair{x, y})
			}
		}
		a, b := ab.NewArray(), bb.NewArray()
		ab.Release()
		bb.Release()
		// the rows in two halves, each into its own table, then merged
		half := rows / 2
		var states [2]*corrState
		for h := range states {
			lo, hi := 0, half
			if h == 1 {
				lo, hi = half, rows
			}
			s := &corrState{}
			s.grow(groups)
			sa, sb := arrowarray.NewSlice(a, int64(lo), int64(hi)), arrowarray.NewSlice(b, int64(lo), int64(hi))
			require.NoError(t, s.read(sa, sb))
			require.NoError(t, s.update(gids[lo:hi], nil, 0))
			sa.Release()
			sb.Release()
			states[h] = s
		}
		m := make([]int32, groups)
		for g := range m {
			m[g] = int32(g)
		}
		require.NoError(t, states[0].merge(states[1], m))
		order := make([]int32, groups)
		for g := range order {
			order[g] = int32(g)
		}
		col, err := states[0].finish(mem, order)
		require.NoError(t, err)
		got := col.(*arrowarray.Float64)
		for g, ps := range ref {
			if len(ps) < 2 {
				require.True(t, got.IsNull(g), "trial %d group %d: fewer than 2 pairs", trial, g)
				continue
			}
			var ma, mb float64
			for _, p := range ps {
				ma += p.a
				mb += p.b
			}
			ma /= float64(len(ps))
			mb /= float64(len(ps))
			var sab, saa, sbb float64
			for _, p := range ps {
				sab += (p.a - ma) * (p.b - mb)
				saa += (p.a - ma) * (p.a - ma)
				sbb += (p.b - mb) * (p.b - mb)
			}
			want := sab / math.Sqrt(saa*sbb)
			require.False(t, got.IsNull(g))
			// the values' own resolution: an ulp of the offset against a
			// spread of about 10 (the reference's error as well)
			tol := 1e-9 + 8*0x1p-52*math.Abs(offset)/10
			require.InDelta(t, want, got.Value(g), tol, "trial %d group %d (%d pairs, offset %g)", trial, g, len(ps), offset)
		}
		col.Release()
		a.Release()
		b.Release()
	}
}
