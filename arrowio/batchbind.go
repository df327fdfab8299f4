package arrowio

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
)

// batchColumns returns rec's columns in the order of schema's fields, each
// found by name, so that a batch whose columns come in another order binds
// as the schema says (a stream of schema (a, b) whose batch is (b, a)
// still gives a - b, not b - a). A field whose name the schema repeats
// binds by position when the batch has that name there. The batch is
// refused, with an error naming the column, when it lacks a column of the
// schema (ErrNoColumn, listing the batch's columns), has one the schema
// does not, has a name twice where the schema has it once, or has a column
// of another type (ErrInvalid). where prefixes the message.
func batchColumns(where string, schema *arrow.Schema, rec arrow.Record) ([]arrow.Array, error) {
	if rec == nil {
		return nil, fmt.Errorf("%s: %w: the reader returned a nil batch", where, ErrInvalid)
	}
	bs := rec.Schema()
	if bs == nil {
		return nil, fmt.Errorf("%s: %w: a batch without a schema", where, ErrInvalid)
	}
	want := schema.Fields()
	have := bs.Fields()
	cols := rec.Columns()
	if len(cols) != len(have) {
		return nil, fmt.Errorf("%s: %w: a batch of %d columns whose schema has %d fields", where, ErrInvalid, len(cols), len(have))
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
					return nil, noColumn(where+": the batch", f.Name, names(have))
				case len(idx) > 1:
					return nil, fmt.Errorf("%s: %w: the batch has %d columns named %q, the schema one (at %d)", where, ErrInvalid, len(idx), f.Name, i)
				}
				j = idx[0]
			}
			if used[j] {
				return nil, fmt.Errorf("%s: %w: column %q of the batch stands for two columns of the schema", where, ErrInvalid, f.Name)
			}
			used[j] = true
			out[i] = cols[j]
		}
		for j, u := range used {
			if !u {
				return nil, fmt.Errorf("%s: %w: the batch has a column %q that the schema %v does not", where, ErrInvalid, have[j].Name, schema)
			}
		}
	}
	for i, f := range want {
		if got := out[i].DataType(); !arrow.TypeEqual(got, f.Type) {
			return nil, fmt.Errorf("%s: %w: column %q of the batch is %v, the schema's is %v", where, ErrInvalid, f.Name, got, f.Type)
		}
	}
	return out, nil
}

// names returns the fields' names.
func names(fs []arrow.Field) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = f.Name
	}
	return out
}
