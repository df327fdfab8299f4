package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
)

// bindColumns returns rec's columns in the order of schema's fields, each
// found by name, so that a batch whose columns come in another order binds
// as the schema says (a stream of schema (a, b) whose batch is (b, a)
// still gives a - b, not b - a). A field whose name the schema repeats
// binds by position when the batch has that name there. The batch is
// refused, with an error naming the column, when it lacks a column of the
// schema (ErrNoColumn, listing the batch's columns), has one the schema
// does not, has a name twice where the schema has it once, or has a column
// of another type (ErrSource). where prefixes the message.
func bindColumns(where string, schema *arrow.Schema, rec arrow.Record) ([]arrow.Array, error) {
	if rec == nil {
		return nil, fmt.Errorf("%s: %w: a nil batch", where, ErrSource)
	}
	bs := rec.Schema()
	if bs == nil {
		return nil, fmt.Errorf("%s: %w: a batch without a schema", where, ErrSource)
	}
	want := schema.Fields()
	have := bs.Fields()
	cols := rec.Columns()
	if len(cols) != len(have) {
		return nil, fmt.Errorf("%s: %w: a batch of %d columns whose schema has %d fields", where, ErrSource, len(cols), len(have))
	}
	same := len(want) == len(have)
	for i := 0; same && i < len(want); i++ {
		same = want[i].Name == have[i].Name
	}
	out := cols
	if !same {
		out = make([]arrow.Array, len(want))
		used := make([]bool, len(have))
		for i, f := range want {
			j := -1
			if i < len(have) && have[i].Name == f.Name && !used[i] {
				j = i
			} else {
				idx := bs.FieldIndices(f.Name)
				switch {
				case len(idx) == 0:
					return nil, noColumn(where+": the batch", f.Name, fieldNames(bs))
				case len(idx) > 1:
					return nil, fmt.Errorf("%s: %w: the batch has %d columns named %q, the schema one (at %d)", where, ErrSource, len(idx), f.Name, i)
				}
				j = idx[0]
			}
			if used[j] {
				return nil, fmt.Errorf("%s: %w: column %q of the batch stands for two columns of the schema", where, ErrSource, f.Name)
			}
			used[j] = true
			out[i] = cols[j]
		}
		for j, u := range used {
			if !u {
				return nil, fmt.Errorf("%s: %w: the batch has a column %q that the schema %v does not", where, ErrSource, have[j].Name, schema)
			}
		}
	}
	for i, f := range want {
		if got := out[i].DataType(); !arrow.TypeEqual(got, f.Type) {
			return nil, fmt.Errorf("%s: %w: column %q of the batch is %v, the schema's is %v", where, ErrSource, f.Name, got, f.Type)
		}
	}
	return out, nil
}

// bindRecord is rec bound to schema by name (bindColumns): rec itself,
// retained, when its columns are the schema's in order, else a new record
// of schema over the same columns. The caller releases it.
func bindRecord(where string, schema *arrow.Schema, rec arrow.Record) (arrow.Record, error) {
	cols, err := bindColumns(where, schema, rec)
	if err != nil {
		return nil, err
	}
	if rec.Schema().Equal(schema) {
		rec.Retain()
		return rec, nil
	}
	return arrowarray.NewRecord(schema, cols, rec.NumRows()), nil
}
