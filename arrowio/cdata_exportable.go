package arrowio

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
)

// exportable reports why arrow-go v15's C Data exporter cannot export a
// value of type dt: it panics on a struct or union with no fields (it takes
// the address of the first child pointer), anywhere in the type, a
// dictionary's values included. Such types are valid Arrow, and a reader
// may return them (a corrupt stream did), so the exporters refuse them with
// an error instead.
func exportable(dt arrow.DataType) error {
	switch t := dt.(type) {
	case *arrow.StructType:
		if t.NumFields() == 0 {
			return fmt.Errorf("%w: a struct with no fields cannot be exported through the C Data Interface (arrow-go v15)", ErrUnsupported)
		}
		for _, f := range t.Fields() {
			if err := exportable(f.Type); err != nil {
				return err
			}
		}
	case arrow.UnionType:
		if len(t.Fields()) == 0 {
			return fmt.Errorf("%w: a union with no fields cannot be exported through the C Data Interface (arrow-go v15)", ErrUnsupported)
		}
		for _, f := range t.Fields() {
			if err := exportable(f.Type); err != nil {
				return err
			}
		}
	case *arrow.DictionaryType:
		return exportable(t.ValueType)
	case arrow.ExtensionType:
		return exportable(t.StorageType())
	case arrow.ListLikeType:
		return exportable(t.Elem())
	case *arrow.RunEndEncodedType:
		return exportable(t.Encoded())
	}
	return nil
}
