package beam

import (
	"encoding/binary"
	"fmt"
	"reflect"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/frame"
	"github.com/stride0/stride0/internal/suggest"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*keyByFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*dropKeyFn)(nil)).Elem())
}

// GroupBy is frame's GroupBy(keys...).Agg(aggs...) on Beam: a PCollection
// of Batch, one Batch of one row per group holding the key columns (their
// types kept) and then the aggregates, as frame gives them in one process:
//
//	perSite := sbeam.GroupBy(s, batches, []string{"site"}, frame.Mean("y"), frame.Count())
//
// reads as frame.FromRecords(...).GroupBy("site").Agg(frame.Mean("y"),
// frame.Count()). Keys are string, large string or integer columns; rows
// whose key is null form a group of their own, as in frame and SQL. The
// groups come in no order (Beam's), one batch each. It is a ParDo that
// splits each batch by its keys (as KeyByColumn does), then
// AggregatePerKey with frame.First of each key column before the
// aggregates, then the keys dropped. Errors fail the pipeline: an unknown
// key column or one of another type, and Aggregate's errors.
func GroupBy(s abeam.Scope, col abeam.PCollection, keys []string, aggs ...frame.Agg) abeam.PCollection {
	s = s.Scope("stride0.GroupBy")
	all := make([]frame.Agg, 0, len(keys)+len(aggs))
	for _, k := range keys {
		all = append(all, frame.First(k).As(k))
	}
	all = append(all, aggs...)
	kvs := abeam.ParDo(s, &keyByFn{Columns: append([]string(nil), keys...), Nulls: true}, col)
	return abeam.ParDo(s, &dropKeyFn{}, abeam.CombinePerKey(s, &aggregateFn{Aggs: all}, kvs))
}

type dropKeyFn struct{}

func (f *dropKeyFn) ProcessElement(_ string, b Batch) Batch { return b }

// KeyByColumn splits each batch of col (a PCollection of Batch) by the
// values of column, a string, large string or integer column: for each
// distinct value, a KV of the value as a string (integers in decimal) and
// the sub-batch of the rows holding it, all columns kept, in their order.
// Rows whose key is null are dropped (as pandas' groupby). The result feeds
// AggregatePerKey:
//
//	perGroup := sbeam.AggregatePerKey(s, sbeam.KeyByColumn(s, batches, "site"), aggs...)
//
// (GroupBy does both and keeps the key column).
//
// A sub-batch shares nothing with its batch once encoded; rows of one key
// that are contiguous in the batch are copied as one slice.
//
// Errors fail the pipeline: no such column, a column of another type.
func KeyByColumn(s abeam.Scope, col abeam.PCollection, column string) abeam.PCollection {
	s = s.Scope("stride0.KeyByColumn")
	return abeam.ParDo(s, &keyByFn{Columns: []string{column}}, col)
}

// keyByFn splits each batch by the values of Columns: with Nulls false,
// of one column, keyed by its value (null rows dropped: KeyByColumn); with
// Nulls true, of any number of columns, nulls included, keyed by an
// encoding of each column's value (1, its length, its text) or its null
// (0) (GroupBy).
type keyByFn struct {
	Columns []string
	Nulls   bool
	mem     memory.Allocator // nil: memory.DefaultAllocator
}

func (f *keyByFn) ProcessElement(b Batch, emit func(string, Batch)) error {
	where := "beam.KeyByColumn"
	if f.Nulls {
		where = "beam.GroupBy"
	}
	mem := f.mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rec, err := b.Record(mem)
	if err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	defer rec.Release()
	key, err := rowKeys(rec, where, f.Columns, f.Nulls)
	if err != nil {
		return err
	}
	return splitRows(mem, rec, key, emit)
}

// rowKeys returns the key of each row of rec (see keyByFn).
func rowKeys(rec arrow.Record, where string, columns []string, nulls bool) (func(int) (string, bool), error) {
	keys := make([]func(int) (string, bool), len(columns))
	for c, name := range columns {
		i, err := columnOf(rec, where, name)
		if err != nil {
			return nil, err
		}
		if keys[c], err = keyFunc(rec.Column(i)); err != nil {
			return nil, fmt.Errorf("%s %q: %w", where, name, err)
		}
	}
	if !nulls {
		return keys[0], nil
	}
	var buf []byte
	return func(i int) (string, bool) {
		buf = buf[:0]
		for _, key := range keys {
			k, ok := key(i)
			if !ok {
				buf = append(buf, 0)
				continue
			}
			buf = append(buf, 1)
			buf = binary.AppendUvarint(buf, uint64(len(k)))
			buf = append(buf, k...)
		}
		return string(buf), true
	}, nil
}

// columnOf is the index of column name of rec, or ErrNoColumn naming the
// nearest.
func columnOf(rec arrow.Record, where, name string) (int, error) {
	idx := rec.Schema().FieldIndices(name)
	if len(idx) == 0 {
		names := make([]string, rec.Schema().NumFields())
		for i, f := range rec.Schema().Fields() {
			names[i] = f.Name
		}
		return 0, fmt.Errorf("%w: %w", ErrBatch, suggest.MissingError(where, arrowio.ErrNoColumn, name, names))
	}
	return idx[0], nil
}

// splitByKey emits rec's rows grouped by the values of column (null rows
// dropped), keys in the order of their first row.
func splitByKey(mem memory.Allocator, rec arrow.Record, column string, emit func(string, Batch)) error {
	key, err := rowKeys(rec, "beam.KeyByColumn", []string{column}, false)
	if err != nil {
		return err
	}
	return splitRows(mem, rec, key, emit)
}

// splitRows emits rec's rows grouped by key (rows whose key is not valid
// dropped), keys in the order of their first row.
func splitRows(mem memory.Allocator, rec arrow.Record, key func(int) (string, bool), emit func(string, Batch)) error {
	type run struct{ start, end int64 }
	var order []string
	runs := map[string][]run{}
	n := rec.NumRows()
	for i := int64(0); i < n; {
		k, ok := key(int(i))
		j := i + 1
		for j < n {
			k2, ok2 := key(int(j))
			if ok2 != ok || k2 != k {
				break
			}
			j++
		}
		if ok {
			if _, seen := runs[k]; !seen {
				order = append(order, k)
			}
			runs[k] = append(runs[k], run{i, j})
		}
		i = j
	}
	for _, k := range order {
		rs := runs[k]
		cols := make([]arrow.Array, rec.NumCols())
		rows := int64(0)
		for _, r := range rs {
			rows += r.end - r.start
		}
		err := func() error {
			defer func() {
				for _, c := range cols {
					if c != nil {
						c.Release()
					}
				}
			}()
			for c := range cols {
				parts := make([]arrow.Array, len(rs))
				for p, r := range rs {
					parts[p] = arrowarray.NewSlice(rec.Column(c), r.start, r.end)
				}
				if len(parts) == 1 {
					cols[c] = parts[0]
					continue
				}
				cat, err := arrowarray.Concatenate(parts, mem)
				for _, p := range parts {
					p.Release()
				}
				if err != nil {
					return fmt.Errorf("beam.KeyByColumn: column %q: %w", rec.Schema().Field(c).Name, err)
				}
				cols[c] = cat
			}
			sub := arrowarray.NewRecord(rec.Schema(), cols, rows)
			defer sub.Release()
			out, err := NewBatch(sub)
			if err != nil {
				return fmt.Errorf("beam.KeyByColumn: %w", err)
			}
			emit(k, out)
			return nil
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// keyFunc returns the key of row i of a and whether it is valid (not null).
func keyFunc(a arrow.Array) (func(i int) (string, bool), error) {
	switch c := a.(type) {
	case *arrowarray.String:
		return func(i int) (string, bool) { return c.Value(i), c.IsValid(i) }, nil
	case *arrowarray.LargeString:
		return func(i int) (string, bool) { return c.Value(i), c.IsValid(i) }, nil
	case *arrowarray.Int8:
		return func(i int) (string, bool) { return strconv.FormatInt(int64(c.Value(i)), 10), c.IsValid(i) }, nil
	case *arrowarray.Int16:
		return func(i int) (string, bool) { return strconv.FormatInt(int64(c.Value(i)), 10), c.IsValid(i) }, nil
	case *arrowarray.Int32:
		return func(i int) (string, bool) { return strconv.FormatInt(int64(c.Value(i)), 10), c.IsValid(i) }, nil
	case *arrowarray.Int64:
		return func(i int) (string, bool) { return strconv.FormatInt(c.Value(i), 10), c.IsValid(i) }, nil
	case *arrowarray.Uint8:
		return func(i int) (string, bool) { return strconv.FormatUint(uint64(c.Value(i)), 10), c.IsValid(i) }, nil
	case *arrowarray.Uint16:
		return func(i int) (string, bool) { return strconv.FormatUint(uint64(c.Value(i)), 10), c.IsValid(i) }, nil
	case *arrowarray.Uint32:
		return func(i int) (string, bool) { return strconv.FormatUint(uint64(c.Value(i)), 10), c.IsValid(i) }, nil
	case *arrowarray.Uint64:
		return func(i int) (string, bool) { return strconv.FormatUint(c.Value(i), 10), c.IsValid(i) }, nil
	}
	return nil, fmt.Errorf("%w: a key column must hold strings or integers, not %v", ErrBatch, a.DataType())
}
