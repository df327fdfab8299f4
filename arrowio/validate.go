package arrowio

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
)

// ValidateRecord checks every column of rec as ValidateArray does, and that
// each column has rec.NumRows() rows. The readers (ReadStream, ReadFile) and
// the C Data importers run it on every batch and array they return.
func ValidateRecord(rec arrow.Record) error {
	if isNil(rec) {
		return fmt.Errorf("arrowio.ValidateRecord: %w: nil record", ErrInvalid)
	}
	n := rec.NumRows()
	if n < 0 || int64(len(rec.Columns())) != rec.NumCols() {
		return fmt.Errorf("arrowio.ValidateRecord: %w: %d rows, %d columns", ErrInvalid, n, rec.NumCols())
	}
	for i, c := range rec.Columns() {
		if isNil(c) || isNilData(c.Data()) {
			return fmt.Errorf("arrowio.ValidateRecord: %w: column %d is nil", ErrInvalid, i)
		}
		if int64(c.Len()) != n {
			return fmt.Errorf("arrowio.ValidateRecord: %w: column %d (%s) has %d rows, the batch %d", ErrInvalid, i, rec.ColumnName(i), c.Len(), n)
		}
		if err := validateData(c.Data(), 0); err != nil {
			return fmt.Errorf("arrowio.ValidateRecord: column %d (%s): %w", i, rec.ColumnName(i), err)
		}
	}
	return nil
}

// ValidateArray fully checks arr's memory against its type, as Arrow C++'s
// ValidateFull does for the layouts it covers: every buffer is long enough
// for the array's offset and length; validity bitmaps hold as many nulls as
// the null count says; offsets are non-negative, non-decreasing and within
// the data or child they index (list views and binary views: every entry's
// range); child arrays (struct fields, list values, fixed-size lists,
// run-end encoded runs and values, union children) are long enough; union
// type codes and dictionary indices are in range; run ends increase. It does
// not check that strings are UTF-8 (nothing in this package relies on it).
// The error wraps ErrInvalid and names the type and what is wrong.
//
// arrow-go v15 has no such function (its arrays check little when built),
// and its IPC reader trusts the lengths of a stream: a corrupt batch can
// reach a caller that then panics in String, ValueStr or an export.
func ValidateArray(arr arrow.Array) error {
	if isNil(arr) || isNilData(arr.Data()) {
		return fmt.Errorf("arrowio.ValidateArray: %w: nil array", ErrInvalid)
	}
	if err := validateData(arr.Data(), 0); err != nil {
		return fmt.Errorf("arrowio.ValidateArray: %w", err)
	}
	return nil
}

const maxValidateDepth = 256

func validateData(d arrow.ArrayData, depth int) (err error) {
	if isNilData(d) {
		return fmt.Errorf("%w: nil array data", ErrInvalid)
	}
	if depth > maxValidateDepth {
		return fmt.Errorf("%w: arrays nested deeper than %d", ErrInvalid, maxValidateDepth)
	}
	dt := d.DataType()
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	if dt == nil {
		return fmt.Errorf("%w: array without a type", ErrInvalid)
	}
	off, n := d.Offset(), d.Len()
	if off < 0 || n < 0 || off > math.MaxInt-n {
		return fmt.Errorf("%w: %s array of length %d at offset %d", ErrInvalid, dt, n, off)
	}
	end := off + n
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s array (length %d, offset %d): %s", ErrInvalid, dt, n, off, fmt.Sprintf(format, args...))
	}
	bufs := d.Buffers()
	buf := func(i int) []byte {
		if i < len(bufs) && bufs[i] != nil {
			return bufs[i].Bytes()
		}
		return nil
	}
	need := func(i, bytes int, what string) error {
		if bytes < 0 || len(buf(i)) < bytes {
			return bad("%s buffer of %d bytes, needs %d", what, len(buf(i)), bytes)
		}
		return nil
	}
	nullN := d.NullN()
	if nullN > n {
		return bad("%d nulls", nullN)
	}
	// Validity (all types but null, unions and run-end encoded ones).
	switch dt.ID() {
	case arrow.NULL, arrow.SPARSE_UNION, arrow.DENSE_UNION, arrow.RUN_END_ENCODED:
	default:
		if len(bufs) < 1 {
			return bad("no buffers")
		}
		if v := buf(0); v != nil {
			if err := need(0, int(bitutil.BytesForBits(int64(end))), "validity"); err != nil {
				return err
			}
			if nullN >= 0 {
				if nulls := n - bitutil.CountSetBits(v, off, n); nulls != nullN {
					return bad("validity bitmap has %d nulls, the null count says %d", nulls, nullN)
				}
			}
		} else if nullN > 0 || (nullN < 0 && n > 0) {
			// arrow-go counts an unknown null count from the bitmap
			return bad("%d nulls (-1: unknown) and no validity bitmap", nullN)
		}
	}
	children := d.Children()
	wantChildren := func(k int) error {
		if len(children) != k {
			return bad("%d child arrays, want %d", len(children), k)
		}
		for i, c := range children {
			if isNilData(c) {
				return bad("child %d is nil", i)
			}
		}
		return nil
	}
	switch t := dt.(type) {
	case *arrow.NullType:
		return wantChildren(0)
	case *arrow.BooleanType:
		return need(1, int(bitutil.BytesForBits(int64(end))), "values")
	case *arrow.DictionaryType:
		return validateDictionary(d, t, bad, need)
	case *arrow.StringType, *arrow.BinaryType:
		return validateOffsets(buf(1), 4, off, n, len(buf(2)), "values", bad)
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		return validateOffsets(buf(1), 8, off, n, len(buf(2)), "values", bad)
	case *arrow.StringViewType, *arrow.BinaryViewType:
		return validateViews(bufs, off, n, d, bad, need)
	case arrow.FixedWidthDataType:
		w := t.BitWidth()
		if w%8 != 0 || w <= 0 {
			return bad("unsupported bit width %d", w)
		}
		return need(1, mulOr(end, w/8), "values")
	case *arrow.ListType, *arrow.MapType:
		if err := wantChildren(1); err != nil {
			return err
		}
		if err := validateOffsets(buf(1), 4, off, n, children[0].Len(), "child", bad); err != nil {
			return err
		}
		return validateChild(children[0], 0, depth)
	case *arrow.LargeListType:
		if err := wantChildren(1); err != nil {
			return err
		}
		if err := validateOffsets(buf(1), 8, off, n, children[0].Len(), "child", bad); err != nil {
			return err
		}
		return validateChild(children[0], 0, depth)
	case *arrow.ListViewType, *arrow.LargeListViewType:
		if err := wantChildren(1); err != nil {
			return err
		}
		w := 4
		if dt.ID() == arrow.LARGE_LIST_VIEW {
			w = 8
		}
		if err := need(1, mulOr(end, w), "offsets"); err != nil {
			return err
		}
		if err := need(2, mulOr(end, w), "sizes"); err != nil {
			return err
		}
		limit := int64(children[0].Len())
		for i := off; i < end; i++ {
			if !valid(buf(0), i) {
				continue
			}
			o, s := intAt(buf(1), w, i), intAt(buf(2), w, i)
			if o < 0 || s < 0 || o > limit || s > limit-o {
				return bad("list view %d: offset %d, size %d in a child of %d", i, o, s, limit)
			}
		}
		return validateChild(children[0], 0, depth)
	case *arrow.FixedSizeListType:
		if err := wantChildren(1); err != nil {
			return err
		}
		size := int(t.Len())
		if size < 0 {
			return bad("list size %d", size)
		}
		if want := mulOr(end, size); want < 0 || children[0].Len() < want {
			return bad("child of %d values, needs %d lists of %d", children[0].Len(), end, size)
		}
		return validateChild(children[0], 0, depth)
	case *arrow.StructType:
		if err := wantChildren(t.NumFields()); err != nil {
			return err
		}
		for i, c := range children {
			if c.Len() < end {
				return bad("field %d has %d values, needs %d", i, c.Len(), end)
			}
			if err := validateChild(c, i, depth); err != nil {
				return err
			}
		}
		return nil
	case arrow.UnionType:
		return validateUnion(d, t, bad, need, wantChildren, depth)
	case *arrow.RunEndEncodedType:
		return validateRunEnds(d, t, bad, wantChildren, depth)
	}
	return fmt.Errorf("%w: cannot validate %s arrays", ErrUnsupported, dt)
}

// mulOr returns a*b for non-negative a and b, or -1 if it overflows.
func mulOr(a, b int) int {
	if a < 0 || b < 0 || (b != 0 && a > math.MaxInt/b) {
		return -1
	}
	return a * b
}

func validateChild(c arrow.ArrayData, i, depth int) error {
	if err := validateData(c, depth+1); err != nil {
		return fmt.Errorf("child %d: %w", i, err)
	}
	return nil
}

// bufBytes returns the bytes of buffer i of d (nil if absent).
func bufBytes(d arrow.ArrayData, i int) []byte {
	bufs := d.Buffers()
	if i < len(bufs) && bufs[i] != nil {
		return bufs[i].Bytes()
	}
	return nil
}

// valid reports whether bit i of the validity bitmap is set (no bitmap:
// valid). The caller has checked the bitmap's length.
func valid(bm []byte, i int) bool { return bm == nil || bitutil.BitIsSet(bm, i) }

// intAt reads the i-th little-endian integer of width w (1, 2, 4 or 8)
// of b as an int64.
func intAt(b []byte, w, i int) int64 {
	switch w {
	case 1:
		return int64(int8(b[i]))
	case 2:
		return int64(int16(binary.LittleEndian.Uint16(b[2*i:])))
	case 4:
		return int64(int32(binary.LittleEndian.Uint32(b[4*i:])))
	}
	return int64(binary.LittleEndian.Uint64(b[8*i:]))
}

// validateOffsets checks the offsets [off, off+n] (width w bytes) of a
// binary or list array: non-negative, non-decreasing, the last <= limit.
func validateOffsets(b []byte, w, off, n, limit int, what string, bad func(string, ...any) error) error {
	if n == 0 {
		return nil // no offsets need be present
	}
	if want := mulOr(off+n+1, w); want < 0 || len(b) < want {
		return bad("offsets buffer of %d bytes, needs %d offsets of %d bytes", len(b), off+n+1, w)
	}
	prev := intAt(b, w, off)
	if prev < 0 {
		return bad("offset %d is %d", off, prev)
	}
	for i := off + 1; i <= off+n; i++ {
		o := intAt(b, w, i)
		if o < prev {
			return bad("offset %d (%d) is smaller than offset %d (%d)", i, o, i-1, prev)
		}
		prev = o
	}
	if prev > int64(limit) {
		return bad("last offset %d beyond the %s (%d)", prev, what, limit)
	}
	return nil
}

func validateViews(bufs []*memory.Buffer, off, n int, d arrow.ArrayData, bad func(string, ...any) error, need func(int, int, string) error) error {
	if err := need(1, mulOr(off+n, arrow.ViewHeaderSizeBytes), "views"); err != nil {
		return err
	}
	views, validity := bufBytes(d, 1), bufBytes(d, 0)
	var data []*memory.Buffer
	if len(bufs) > 2 {
		data = bufs[2:]
	}
	for i := off; i < off+n; i++ {
		if !valid(validity, i) {
			continue
		}
		v := views[i*arrow.ViewHeaderSizeBytes:]
		size := int64(int32(binary.LittleEndian.Uint32(v)))
		if size < 0 {
			return bad("view %d has size %d", i, size)
		}
		if size <= 12 { // inline
			continue
		}
		idx := int64(int32(binary.LittleEndian.Uint32(v[8:])))
		o := int64(int32(binary.LittleEndian.Uint32(v[12:])))
		if idx < 0 || idx >= int64(len(data)) || data[idx] == nil {
			return bad("view %d names data buffer %d of %d", i, idx, len(data))
		}
		if o < 0 || o+size > int64(data[idx].Len()) {
			return bad("view %d: %d bytes at %d in a data buffer of %d", i, size, o, data[idx].Len())
		}
	}
	return nil
}

func validateDictionary(d arrow.ArrayData, t *arrow.DictionaryType, bad func(string, ...any) error, need func(int, int, string) error) error {
	it, ok := t.IndexType.(arrow.FixedWidthDataType)
	if !ok || !arrow.IsInteger(t.IndexType.ID()) {
		return bad("index type %s", t.IndexType)
	}
	w := it.BitWidth() / 8
	off, n := d.Offset(), d.Len()
	if err := need(1, mulOr(off+n, w), "indices"); err != nil {
		return err
	}
	dict := d.Dictionary()
	if isNilData(dict) {
		return bad("no dictionary")
	}
	if err := validateData(dict, 1); err != nil {
		return fmt.Errorf("dictionary: %w", err)
	}
	idx, validity := bufBytes(d, 1), bufBytes(d, 0)
	size := int64(dict.Len())
	unsigned := !arrow.IsSignedInteger(t.IndexType.ID())
	for i := off; i < off+n; i++ {
		if !valid(validity, i) {
			continue
		}
		k := intAt(idx, w, i)
		if unsigned && w < 8 {
			k &= 1<<(8*w) - 1
		}
		if k < 0 || k >= size {
			return bad("index %d at %d outside a dictionary of %d values", k, i, size)
		}
	}
	return nil
}

func validateUnion(d arrow.ArrayData, t arrow.UnionType, bad func(string, ...any) error, need func(int, int, string) error, wantChildren func(int) error, depth int) (err error) {
	children := d.Children()
	if err := wantChildren(len(t.Fields())); err != nil {
		return err
	}
	off, n := d.Offset(), d.Len()
	end := off + n
	if err := need(1, end, "type ids"); err != nil {
		return err
	}
	ids := bufBytes(d, 1)
	codes := t.ChildIDs()
	dense := t.Mode() == arrow.DenseMode
	if dense {
		if err := need(2, mulOr(end, 4), "offsets"); err != nil {
			return err
		}
	} else {
		for i, c := range children {
			if c.Len() < end {
				return bad("child %d has %d values, needs %d", i, c.Len(), end)
			}
		}
	}
	for i := off; i < end; i++ {
		code := int(int8(ids[i]))
		if code < 0 || code >= len(codes) || codes[code] < 0 {
			return bad("type id %d at %d is not one of %v", code, i, t.TypeCodes())
		}
		if dense {
			o := intAt(bufBytes(d, 2), 4, i)
			if c := children[codes[code]]; o < 0 || o >= int64(c.Len()) {
				return bad("offset %d at %d outside child %d of %d values", o, i, codes[code], c.Len())
			}
		}
	}
	for i, c := range children {
		if err := validateChild(c, i, depth); err != nil {
			return err
		}
	}
	return nil
}

func validateRunEnds(d arrow.ArrayData, t *arrow.RunEndEncodedType, bad func(string, ...any) error, wantChildren func(int) error, depth int) error {
	if err := wantChildren(2); err != nil {
		return err
	}
	re, vals := d.Children()[0], d.Children()[1]
	for i, c := range []arrow.ArrayData{re, vals} {
		if err := validateChild(c, i, depth); err != nil {
			return err
		}
	}
	if re.NullN() != 0 {
		return bad("run ends have nulls")
	}
	if vals.Len() < re.Len() {
		return bad("%d values for %d runs", vals.Len(), re.Len())
	}
	w := 0
	switch re.DataType().ID() {
	case arrow.INT16:
		w = 2
	case arrow.INT32:
		w = 4
	case arrow.INT64:
		w = 8
	default:
		return bad("run ends of type %s", re.DataType())
	}
	b := bufBytes(re, 1)
	prev := int64(0)
	for i := re.Offset(); i < re.Offset()+re.Len(); i++ {
		e := intAt(b, w, i)
		if e <= prev {
			return bad("run end %d (%d) does not increase", i-re.Offset(), e)
		}
		prev = e
	}
	if end := int64(d.Offset() + d.Len()); end > 0 && prev < end {
		return bad("runs end at %d, the array at %d", prev, end)
	}
	return nil
}
