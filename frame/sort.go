package frame

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/compute"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// SortKey is one key of Sort: a column, its direction, and where its
// nulls go (last by default, in either direction, as DuckDB's default).
type SortKey struct {
	Col        string
	Desc       bool
	NullsFirst bool
}

// Asc sorts by col, ascending, nulls last.
func Asc(col string) SortKey { return SortKey{Col: col} }

// Desc sorts by col, descending, nulls last.
func Desc(col string) SortKey { return SortKey{Col: col, Desc: true} }

// Sort orders the rows by the keys, the first deciding, the next breaking
// its ties, and so on; rows that tie on every key keep their input order
// (the sort is stable). Keys are numbers, bools, strings, string
// dictionaries, dates and times; NaN sorts above every number. The step
// holds its whole input.
func (f Frame) Sort(keys ...SortKey) Frame { return f.sortBy("frame.Sort", -1, keys) }

// TopK is Sort then Limit(k): the first k rows in the keys' order. It
// holds its input, like Sort.
func (f Frame) TopK(k int64, keys ...SortKey) Frame {
	if k < 0 {
		return failed(fmt.Errorf("frame.TopK: %w: k = %d", ErrArgument, k))
	}
	return f.sortBy("frame.TopK", k, keys)
}

func (f Frame) sortBy(where string, k int64, keys []SortKey) Frame {
	return f.then(func(in *node) (*node, error) {
		if len(keys) == 0 {
			return nil, fmt.Errorf("%s: %w: no sort key", where, ErrArgument)
		}
		n := &node{kind: stepSort, schema: in.schema, limit: k, sortKeys: keys}
		for _, sk := range keys {
			i, err := columnIndex(in.schema, where, sk.Col)
			if err != nil {
				return nil, err
			}
			if _, err := keyable(in.schema.Field(i).Type); err != nil {
				return nil, fmt.Errorf("%s %q: %w", where, sk.Col, err)
			}
			n.keys = append(n.keys, i)
		}
		return n, nil
	})
}

func describeSort(n *node) string {
	var parts []string
	for _, k := range n.sortKeys {
		s := k.Col
		if k.Desc {
			s += " desc"
		}
		if k.NullsFirst {
			s += " nulls first"
		}
		parts = append(parts, s)
	}
	if n.limit >= 0 {
		return fmt.Sprintf("top %d by %s", n.limit, strings.Join(parts, ", "))
	}
	return "sort by " + strings.Join(parts, ", ")
}

// sortBatches runs a Sort step: it reads its input, concatenates it, sorts
// a permutation and takes the rows in that order. With head (a
// GroupBy.Head of at most topKMax rows right after the Sort), it keeps each
// group's first rows in the sort's order without sorting the other rows:
// the rows the sort and then Head would give, in the same order.
type sortBatches struct {
	r    *runner
	n    *node
	head *node
	in   batches
	out  arrow.Record
	at   int64
	done bool
}

// sortChunk is the length of the batches a sort hands on.
const sortChunk = 64 << 10

func (b *sortBatches) next() (arrow.Record, error) {
	if !b.done {
		b.done = true
		rec, err := b.run()
		if err != nil {
			return nil, err
		}
		b.out = rec
	}
	if b.out == nil || b.at >= b.out.NumRows() {
		return nil, io.EOF
	}
	end := min(b.at+sortChunk, b.out.NumRows())
	s := b.out.NewSlice(b.at, end)
	b.at = end
	return s, nil
}

func (b *sortBatches) close() {
	if b.out != nil {
		b.out.Release()
		b.out = nil
	}
	b.in.close()
}

func (b *sortBatches) run() (arrow.Record, error) {
	all, err := readAll(b.r, b.in, b.n.in.schema)
	if err != nil {
		return nil, err
	}
	defer all.Release()
	rows := int(all.NumRows())
	if rows > math.MaxInt32 {
		return nil, fmt.Errorf("frame.Sort: %w: %d rows (at most %d)", ErrArgument, rows, math.MaxInt32)
	}
	var o rowOrder
	var perm []int64
	if b.head != nil {
		// the order's keys and the group ids, side by side
		var gid []int32
		var groups int
		if workers := b.r.cfg.workers; workers > 1 {
			done := make(chan struct{})
			go func() {
				defer close(done)
				gid, groups = groupIDs(all, b.head.keys)
			}()
			o = newRowOrder(all, b.n.keys, b.n.sortKeys)
			<-done
		} else {
			o = newRowOrder(all, b.n.keys, b.n.sortKeys)
			gid, groups = groupIDs(all, b.head.keys)
		}
		if n := int(b.head.limit); groups*n <= 2*rows+1024 {
			perm = topPerGroupOn(o, gid, groups, n, b.r.cfg.workers)
		} else {
			// many groups: their slots would outweigh a sort of every row
			perm = headAfterSort(o, gid, groups, n)
		}
	} else if o = newRowOrder(all, b.n.keys, b.n.sortKeys); b.n.limit >= 0 && b.n.limit <= topKMax {
		// a small top k: one pass keeping the k best rows
		perm = topPerGroupOn(o, make([]int32, rows), 1, int(b.n.limit), b.r.cfg.workers)
	} else {
		perm = make([]int64, rows)
		for i := range perm {
			perm[i] = int64(i)
		}
		o.sort(perm)
		if b.n.limit >= 0 && int64(len(perm)) > b.n.limit {
			perm = perm[:b.n.limit]
		}
	}
	return takeRows(b.r.ctx, b.r.cfg.mem, all, perm)
}

// headAfterSort is topPerGroupOn by a sort of every row: the sort's order,
// each group's first n rows.
func headAfterSort(o rowOrder, gid []int32, groups, n int) []int64 {
	perm := make([]int64, len(gid))
	for i := range perm {
		perm[i] = int64(i)
	}
	o.sort(perm)
	count := make([]int32, groups)
	out := perm[:0]
	for _, r := range perm {
		if g := gid[r]; int(count[g]) < n {
			count[g]++
			out = append(out, r)
		}
	}
	return out
}

// topKMax is the largest k (of TopK, or GroupBy.Head after a Sort) kept by
// one pass of insertions instead of a sort of every row.
const topKMax = 64

// readAll reads every batch of in into one record.
func readAll(r *runner, in batches, s *arrow.Schema) (arrow.Record, error) {
	var recs []arrow.Record
	defer func() {
		for _, rec := range recs {
			rec.Release()
		}
	}()
	for {
		if err := r.ctx.Err(); err != nil {
			return nil, err
		}
		rec, err := in.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		recs = append(recs, rec)
	}
	return concatRecords(r.cfg.mem, s, recs)
}

// takeRows returns the rows idx of rec (an index of -1 gives a null row).
func takeRows(ctx context.Context, mem memory.Allocator, rec arrow.Record, idx []int64) (arrow.Record, error) {
	cols := make([]arrow.Array, rec.NumCols())
	pick := make([]bool, len(cols))
	for i := range pick {
		pick[i] = true
	}
	if i, err := takeColumns(ctx, mem, rec.Columns(), pick, idx, cols); err != nil {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
		return nil, fmt.Errorf("frame: taking rows of column %q: %w", rec.ColumnName(i), err)
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	return arrowarray.NewRecord(rec.Schema(), cols, int64(len(idx))), nil
}

// takeColumns sets out[i] to rows idx of in[i] (an index of -1 gives a
// null row) for every i picked; on an error, it returns the column that
// failed, the columns taken before it in out (the caller releases them).
func takeColumns(ctx context.Context, mem memory.Allocator, in []arrow.Array, pick []bool, idx []int64, out []arrow.Array) (int, error) {
	var ix arrow.Array // the indices as an Arrow array, for arrow-go's Take
	defer func() {
		if ix != nil {
			ix.Release()
		}
	}()
	indices := func() arrow.Array {
		if ix == nil {
			ib := arrowarray.NewInt64Builder(mem)
			defer ib.Release()
			for _, i := range idx {
				if i < 0 {
					ib.AppendNull()
				} else {
					ib.Append(i)
				}
			}
			ix = ib.NewArray()
		}
		return ix
	}
	cctx := compute.WithAllocator(ctx, mem)
	for i, c := range in {
		if !pick[i] {
			continue
		}
		var err error
		switch c.(type) {
		case *arrowarray.String, *arrowarray.Binary:
			out[i] = takeStrings(mem, c, idx)
		default:
			out[i], err = takeColumn(cctx, mem, c, idx, indices)
		}
		if err != nil {
			return i, err
		}
	}
	return 0, nil
}

// takeColumn gathers rows idx (-1: null) of c (ix: the same as an Arrow
// array): a typed loop for fixed-width values, arrow-go's Take for the
// rest, and for dictionary columns (which arrow-go v15 has no kernel for)
// the indices taken, the dictionary kept.
func takeColumn(ctx context.Context, mem memory.Allocator, c arrow.Array, idx []int64, ix func() arrow.Array) (arrow.Array, error) {
	d, ok := c.(*arrowarray.Dictionary)
	if !ok {
		if t, ok := takeFixed(mem, c, idx); ok {
			return t, nil
		}
		return compute.TakeArray(ctx, c, ix())
	}
	dt := d.DataType().(*arrow.DictionaryType)
	data := d.Data()
	idxData := arrowarray.NewData(dt.IndexType, data.Len(), data.Buffers(), nil, data.NullN(), data.Offset())
	defer idxData.Release()
	indices := arrowarray.MakeFromData(idxData)
	defer indices.Release()
	taken, ok := takeFixed(mem, indices, idx)
	if !ok {
		var err error
		if taken, err = compute.TakeArray(ctx, indices, ix()); err != nil {
			return nil, err
		}
	}
	defer taken.Release()
	return arrowarray.NewDictionaryArray(dt, taken, d.Dictionary()), nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
