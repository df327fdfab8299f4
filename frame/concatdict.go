package frame

import (
	"fmt"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// concatDictionaries concatenates dictionary arrays of several
// dictionaries: the dictionaries are unified (arrow-go's
// DictionaryUnifier) and each part's indices mapped into the unified one.
// (arrow-go v15's Concatenate does the same, but clears the indices around
// a null run at a byte offset instead of an element offset, so with
// indices wider than a byte and nulls it overwrites valid rows' indices.)
// ok is false when every part has the same dictionary (Concatenate is
// right there) or for index types other than integers.
func concatDictionaries(mem memory.Allocator, parts []arrow.Array) (arrow.Array, bool, error) {
	dt := parts[0].DataType().(*arrow.DictionaryType)
	same := true
	for _, p := range parts[1:] {
		if p.Data().Dictionary() != parts[0].Data().Dictionary() {
			same = false
		}
	}
	width := 0
	switch dt.IndexType.ID() {
	case arrow.INT8, arrow.UINT8:
		width = 1
	case arrow.INT16, arrow.UINT16:
		width = 2
	case arrow.INT32, arrow.UINT32:
		width = 4
	case arrow.INT64, arrow.UINT64:
		width = 8
	}
	if same || width == 0 {
		return nil, false, nil
	}
	u, err := arrowarray.NewDictionaryUnifier(mem, dt.ValueType)
	if err != nil {
		return nil, true, err
	}
	defer u.Release()
	maps := make([]*memory.Buffer, 0, len(parts))
	defer func() {
		for _, m := range maps {
			m.Release()
		}
	}()
	rows, nulls := 0, 0
	for _, p := range parts {
		m, err := u.UnifyAndTranspose(p.(*arrowarray.Dictionary).Dictionary())
		if err != nil {
			return nil, true, err
		}
		maps = append(maps, m)
		rows += p.Len()
		nulls += p.NullN()
	}
	dict, err := u.GetResultWithIndexType(dt.IndexType)
	if err != nil {
		return nil, true, err
	}
	defer dict.Release()
	idx := memory.NewResizableBuffer(mem)
	idx.Resize(rows * width)
	var valid *memory.Buffer
	if nulls > 0 {
		valid = memory.NewResizableBuffer(mem)
		valid.Resize(int(bitutil.BytesForBits(int64(rows))))
	}
	at := 0
	for k, p := range parts {
		d := p.Data()
		tr := arrow.Int32Traits.CastFromBytes(maps[k].Bytes())
		src, dst := d.Buffers()[1].Bytes(), idx.Bytes()
		var vb []byte
		if p.NullN() > 0 {
			vb = d.Buffers()[0].Bytes()
		}
		for i := 0; i < p.Len(); i++ {
			r := d.Offset() + i
			v := uint64(0)
			if vb == nil || bitutil.BitIsSet(vb, r) {
				j := readIndex(src, r, width, dt.IndexType.ID())
				if j < 0 || j >= int64(len(tr)) {
					idx.Release()
					if valid != nil {
						valid.Release()
					}
					return nil, true, fmt.Errorf("%w: dictionary index %d out of its %d entries", ErrSource, j, len(tr))
				}
				v = uint64(tr[j])
			}
			writeIndex(dst, at+i, width, v)
		}
		if valid != nil {
			if vb == nil {
				bitutil.SetBitsTo(valid.Bytes(), int64(at), int64(p.Len()), true)
			} else {
				bitutil.CopyBitmap(vb, d.Offset(), p.Len(), valid.Bytes(), at)
			}
		}
		at += p.Len()
	}
	out := arrowarray.NewDataWithDictionary(dt, rows, []*memory.Buffer{valid, idx}, nulls, 0, dict.Data().(*arrowarray.Data))
	idx.Release()
	if valid != nil {
		valid.Release()
	}
	defer out.Release()
	return arrowarray.MakeFromData(out), true, nil
}

// readIndex reads index r of a buffer of indices of width bytes.
func readIndex(b []byte, r, width int, id arrow.Type) int64 {
	switch id {
	case arrow.INT8:
		return int64(int8(b[r]))
	case arrow.UINT8:
		return int64(b[r])
	case arrow.INT16:
		return int64(arrow.Int16Traits.CastFromBytes(b)[r])
	case arrow.UINT16:
		return int64(arrow.Uint16Traits.CastFromBytes(b)[r])
	case arrow.INT32:
		return int64(arrow.Int32Traits.CastFromBytes(b)[r])
	case arrow.UINT32:
		return int64(arrow.Uint32Traits.CastFromBytes(b)[r])
	case arrow.UINT64:
		return int64(min(arrow.Uint64Traits.CastFromBytes(b)[r], 1<<62))
	}
	return arrow.Int64Traits.CastFromBytes(b)[r]
}

// writeIndex writes v as index r of a buffer of indices of width bytes.
func writeIndex(b []byte, r, width int, v uint64) {
	switch width {
	case 1:
		b[r] = uint8(v)
	case 2:
		arrow.Uint16Traits.CastFromBytes(b)[r] = uint16(v)
	case 4:
		arrow.Uint32Traits.CastFromBytes(b)[r] = uint32(v)
	default:
		arrow.Uint64Traits.CastFromBytes(b)[r] = v
	}
}
