package frame

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/float16"

	"github.com/stride0/stride0/internal/half"
)

// A group key is encoded per row as bytes: for each key column, one byte
// (0 null, 1 valid), then the value: 8 bytes little-endian for fixed-width
// values (floats with -0 as 0 and every NaN as one NaN, so that equal keys
// are equal bytes, as SQL groups them), a uvarint length and the bytes for
// strings. CountDistinct keeps these strings; the group-by's own keys are
// the keyer's (grouphash.go).

// keyKind says how a key column's values are read and written back.
type keyKind uint8

const (
	keyInt   keyKind = iota // signed integers, dates, timestamps, durations, times
	keyUint                 // unsigned integers
	keyFloat                // float16/32/64
	keyBool                 // bool
	keyStr                  // utf8, large_utf8, binary
	keyDict                 // dictionary: the value of the dictionary entry
)

// keyable reports how a column of type t is used as a key, or an error
// naming what cannot be one.
func keyable(t arrow.DataType) (keyKind, error) {
	switch tt := t.(type) {
	case *arrow.DictionaryType:
		switch tt.ValueType.ID() {
		case arrow.STRING, arrow.BINARY:
			return keyDict, nil
		}
		return 0, fmt.Errorf("%w: a dictionary of %s cannot be a key (dictionaries of strings can)", ErrType, typeName(tt.ValueType))
	}
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.DATE32, arrow.DATE64,
		arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
		return keyInt, nil
	case arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return keyUint, nil
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64:
		return keyFloat, nil
	case arrow.BOOL:
		return keyBool, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
		return keyStr, nil
	}
	return 0, fmt.Errorf("%w: a %s column cannot be a key (keys are numbers, bools, strings, dictionaries, dates and times)", ErrType, typeName(t))
}

// appendKey appends row i of column c to key.
func appendKey(key []byte, c arrow.Array, i int) []byte {
	if c.IsNull(i) {
		return append(key, 0)
	}
	key = append(key, 1)
	switch a := c.(type) {
	case *arrowarray.Dictionary:
		return appendKey(key[:len(key)-1], a.Dictionary(), a.GetValueIndex(i))
	case *arrowarray.String:
		return appendStr(key, a.Value(i))
	case *arrowarray.LargeString:
		return appendStr(key, a.Value(i))
	case *arrowarray.Binary:
		return appendStr(key, string(a.Value(i)))
	case *arrowarray.LargeBinary:
		return appendStr(key, string(a.Value(i)))
	case *arrowarray.Boolean:
		if a.Value(i) {
			return append(key, 1)
		}
		return append(key, 0)
	case *arrowarray.Float16:
		return appendFloat(key, half.ToFloat64(a.Value(i).Uint16()))
	case *arrowarray.Float32:
		return appendFloat(key, float64(a.Value(i)))
	case *arrowarray.Float64:
		return appendFloat(key, a.Value(i))
	}
	return binary.LittleEndian.AppendUint64(key, intBits(c, i))
}

func appendStr(key []byte, s string) []byte {
	key = binary.AppendUvarint(key, uint64(len(s)))
	return append(key, s...)
}

func appendFloat(key []byte, v float64) []byte {
	switch {
	case v == 0:
		v = 0
	case math.IsNaN(v):
		v = math.NaN()
	}
	return binary.LittleEndian.AppendUint64(key, math.Float64bits(v))
}

// intBits reads an integer-like value as 64 bits.
func intBits(c arrow.Array, i int) uint64 {
	switch a := c.(type) {
	case *arrowarray.Int8:
		return uint64(a.Value(i))
	case *arrowarray.Int16:
		return uint64(a.Value(i))
	case *arrowarray.Int32:
		return uint64(a.Value(i))
	case *arrowarray.Int64:
		return uint64(a.Value(i))
	case *arrowarray.Uint8:
		return uint64(a.Value(i))
	case *arrowarray.Uint16:
		return uint64(a.Value(i))
	case *arrowarray.Uint32:
		return uint64(a.Value(i))
	case *arrowarray.Uint64:
		return a.Value(i)
	case *arrowarray.Date32:
		return uint64(a.Value(i))
	case *arrowarray.Date64:
		return uint64(a.Value(i))
	case *arrowarray.Timestamp:
		return uint64(a.Value(i))
	case *arrowarray.Time32:
		return uint64(a.Value(i))
	case *arrowarray.Time64:
		return uint64(a.Value(i))
	case *arrowarray.Duration:
		return uint64(a.Value(i))
	}
	return 0
}

// appendBits appends a fixed-width key value to its builder.
func appendBits(b arrowarray.Builder, u uint64) error {
	switch bb := b.(type) {
	case *arrowarray.Int8Builder:
		bb.Append(int8(u))
	case *arrowarray.Int16Builder:
		bb.Append(int16(u))
	case *arrowarray.Int32Builder:
		bb.Append(int32(u))
	case *arrowarray.Int64Builder:
		bb.Append(int64(u))
	case *arrowarray.Uint8Builder:
		bb.Append(uint8(u))
	case *arrowarray.Uint16Builder:
		bb.Append(uint16(u))
	case *arrowarray.Uint32Builder:
		bb.Append(uint32(u))
	case *arrowarray.Uint64Builder:
		bb.Append(u)
	case *arrowarray.Float16Builder:
		bb.Append(float16.FromBits(half.FromFloat64(math.Float64frombits(u))))
	case *arrowarray.Float32Builder:
		bb.Append(float32(math.Float64frombits(u)))
	case *arrowarray.Float64Builder:
		bb.Append(math.Float64frombits(u))
	case *arrowarray.Date32Builder:
		bb.Append(arrow.Date32(int64(u)))
	case *arrowarray.Date64Builder:
		bb.Append(arrow.Date64(int64(u)))
	case *arrowarray.TimestampBuilder:
		bb.Append(arrow.Timestamp(int64(u)))
	case *arrowarray.Time32Builder:
		bb.Append(arrow.Time32(int64(u)))
	case *arrowarray.Time64Builder:
		bb.Append(arrow.Time64(int64(u)))
	case *arrowarray.DurationBuilder:
		bb.Append(arrow.Duration(int64(u)))
	default:
		return fmt.Errorf("%w: a key of builder %T", ErrType, b)
	}
	return nil
}
