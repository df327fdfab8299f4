//go:build cgo

package arrowio

/*
#include <string.h>
#include "abi.h"
*/
import "C"

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
)

// The checks below run before arrow-go's cdata importer sees a struct. That
// importer trusts the structs: it reads a released struct's dangling
// pointers, indexes an empty format string, and slices children and buffers
// by counts it does not compare with the type. What can be checked without
// knowing the sizes of the producer's memory is checked here: released
// structs (release == NULL), NULL pointers, negative or absurd counts and
// lengths (those of the metadata blob included, checkCMetadata), the
// format string's grammar and its number of children, and
// every array's buffer and child counts against the type imported from its
// schema. Pointers that are not NULL are trusted to point at what the
// specification says (a buffer of the size its type and length imply,
// metadata in the specification's encoding): no consumer can check that.

const (
	maxCDepth     = 64      // nesting of children and dictionaries
	maxCChildren  = 1 << 16 // children of one struct
	maxCBuffers   = 1 << 16 // buffers of one array (binary views have many)
	maxCFormatLen = 1 << 12 // format string length
	maxCNameLen   = 1 << 20 // name string length
	maxCLength    = 1 << 40 // length + offset, elements
	maxCBytes     = 1 << 46 // bytes of one buffer, as its type and length imply
)

// checkCSchema checks a schema struct tree (see above).
func checkCSchema(s *C.struct_ArrowSchema, depth int) error {
	if s == nil {
		return fmt.Errorf("%w: NULL schema", ErrInvalid)
	}
	if s.release == nil {
		return fmt.Errorf("%w: released schema (release is NULL)", ErrInvalid)
	}
	if depth > maxCDepth {
		return fmt.Errorf("%w: schema nested deeper than %d", ErrInvalid, maxCDepth)
	}
	if s.format == nil {
		return fmt.Errorf("%w: schema format is NULL", ErrInvalid)
	}
	n := int(C.strnlen(s.format, maxCFormatLen+1))
	if n > maxCFormatLen {
		return fmt.Errorf("%w: schema format longer than %d bytes", ErrInvalid, maxCFormatLen)
	}
	format := C.GoStringN(s.format, C.int(n))
	if s.name != nil && C.strnlen(s.name, maxCNameLen+1) > maxCNameLen {
		return fmt.Errorf("%w: schema %q: name longer than %d bytes (or not NUL-terminated)", ErrInvalid, format, maxCNameLen)
	}
	if s.metadata != nil {
		md := unsafe.Pointer(s.metadata)
		read := func(off, n int) []byte { return unsafe.Slice((*byte)(unsafe.Add(md, off)), n) }
		if err := checkCMetadata(read, maxCMetadataBytes); err != nil {
			return fmt.Errorf("schema %q: %w", format, err)
		}
	}
	if s.n_children < 0 || s.n_children > maxCChildren {
		return fmt.Errorf("%w: schema %q has %d children", ErrInvalid, format, int64(s.n_children))
	}
	if s.n_children > 0 && s.children == nil {
		return fmt.Errorf("%w: schema %q has %d children and a NULL children pointer", ErrInvalid, format, int64(s.n_children))
	}
	var children []*C.struct_ArrowSchema
	if s.n_children > 0 {
		children = unsafe.Slice(s.children, int(s.n_children))
	}
	for i, c := range children {
		if err := checkCSchema(c, depth+1); err != nil {
			return fmt.Errorf("child %d of %q: %w", i, format, err)
		}
	}
	if s.dictionary != nil {
		if err := checkCSchema(s.dictionary, depth+1); err != nil {
			return fmt.Errorf("dictionary of %q: %w", format, err)
		}
	}
	if err := checkCFormat(format, children, s.dictionary != nil); err != nil {
		return fmt.Errorf("%w: schema format %q: %w", ErrInvalid, format, err)
	}
	return nil
}

// simpleFormats are the formats without parameters or children that
// arrow-go v15 imports.
var simpleFormats = map[string]bool{
	"n": true, "b": true, "c": true, "C": true, "s": true, "S": true, "i": true, "I": true,
	"l": true, "L": true, "e": true, "f": true, "g": true, "z": true, "Z": true, "u": true,
	"U": true, "vz": true, "vu": true, "tdD": true, "tdm": true, "tts": true, "ttm": true,
	"ttu": true, "ttn": true, "tDs": true, "tDm": true, "tDu": true, "tDn": true,
	"tiM": true, "tiD": true, "tin": true,
}

var indexFormats = map[string]bool{"c": true, "C": true, "s": true, "S": true, "i": true, "I": true, "l": true, "L": true}

// checkCFormat checks a format string's grammar, and its number of children,
// for the formats arrow-go v15 imports; others are ErrUnsupported.
func checkCFormat(f string, children []*C.struct_ArrowSchema, dict bool) error {
	nc := len(children)
	want := func(k int) error {
		if nc != k {
			return fmt.Errorf("%d children, want %d", nc, k)
		}
		return nil
	}
	if f == "" {
		return fmt.Errorf("empty")
	}
	if dict && !indexFormats[f] {
		return fmt.Errorf("a dictionary's index type must be an integer")
	}
	if simpleFormats[f] {
		return want(0)
	}
	head, param, hasParam := strings.Cut(f, ":")
	switch head {
	case "tss", "tsm", "tsu", "tsn": // timestamp with a time zone (maybe empty)
		if !hasParam {
			return fmt.Errorf("a timestamp needs ':' and a time zone (maybe empty)")
		}
		return want(0)
	case "w": // fixed-size binary
		if w, err := strconv.Atoi(param); !hasParam || err != nil || w < 0 || w > math.MaxInt32 {
			return fmt.Errorf("fixed-size binary needs a width")
		}
		return want(0)
	case "d": // decimal: precision,scale[,bits]
		p := strings.Split(param, ",")
		if !hasParam || len(p) < 2 || len(p) > 3 {
			return fmt.Errorf("decimal needs precision,scale[,bitwidth]")
		}
		return want(0)
	case "+l", "+L", "+vl", "+vL":
		if hasParam {
			return fmt.Errorf("unexpected parameter")
		}
		return want(1)
	case "+w":
		if w, err := strconv.Atoi(param); !hasParam || err != nil || w < 0 || w > math.MaxInt32 {
			return fmt.Errorf("fixed-size list needs a size")
		}
		return want(1)
	case "+s":
		if hasParam {
			return fmt.Errorf("unexpected parameter")
		}
		return nil
	case "+r":
		if hasParam {
			return fmt.Errorf("unexpected parameter")
		}
		return want(2)
	case "+m":
		if err := want(1); err != nil || hasParam {
			return fmt.Errorf("a map needs one child and no parameter")
		}
		c := children[0]
		cf := C.GoStringN(c.format, C.int(C.strnlen(c.format, maxCFormatLen)))
		if cf != "+s" || c.n_children != 2 || c.dictionary != nil {
			return fmt.Errorf("a map's child must be a struct of 2 fields, not %q of %d", cf, int64(c.n_children))
		}
		return nil
	case "+ud", "+us":
		if !hasParam {
			return fmt.Errorf("a union needs ':' and type codes")
		}
		codes := 0
		if param != "" {
			codes = strings.Count(param, ",") + 1
		}
		return want(codes)
	}
	return fmt.Errorf("%w: format not supported", ErrUnsupported)
}

// checkCArray checks an array struct tree against the type imported from
// its schema.
func checkCArray(a *C.struct_ArrowArray, dt arrow.DataType, depth int) error {
	if a == nil {
		return fmt.Errorf("%w: NULL array", ErrInvalid)
	}
	if a.release == nil {
		return fmt.Errorf("%w: released array (release is NULL)", ErrInvalid)
	}
	if depth > maxCDepth {
		return fmt.Errorf("%w: array nested deeper than %d", ErrInvalid, maxCDepth)
	}
	if ext, ok := dt.(arrow.ExtensionType); ok {
		dt = ext.StorageType()
	}
	length, offset, nulls := int64(a.length), int64(a.offset), int64(a.null_count)
	if length < 0 || offset < 0 || length > maxCLength || offset > maxCLength-length {
		return fmt.Errorf("%w: %s array of length %d at offset %d", ErrInvalid, dt, length, offset)
	}
	if nulls < -1 || nulls > length {
		return fmt.Errorf("%w: %s array of length %d with %d nulls", ErrInvalid, dt, length, nulls)
	}
	nb, nc := int64(a.n_buffers), int64(a.n_children)
	if nb < 0 || nb > maxCBuffers || (nb > 0 && a.buffers == nil) {
		return fmt.Errorf("%w: %s array with %d buffers (buffers pointer %p)", ErrInvalid, dt, nb, a.buffers)
	}
	if nc < 0 || nc > maxCChildren || (nc > 0 && a.children == nil) {
		return fmt.Errorf("%w: %s array with %d children (children pointer %p)", ErrInvalid, dt, nc, a.children)
	}
	wantB, minB := int64(-1), int64(-1) // exact count, or a minimum
	var childTypes []arrow.DataType
	var dictType arrow.DataType
	switch t := dt.(type) {
	case *arrow.NullType:
		minB = 0
	case *arrow.DictionaryType:
		wantB, dictType = 2, t.ValueType
	case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
		wantB = 3
	case *arrow.StringViewType, *arrow.BinaryViewType:
		minB = 3
	case arrow.FixedWidthDataType:
		wantB = 2
	case *arrow.ListType, *arrow.LargeListType, *arrow.MapType:
		wantB, childTypes = 2, []arrow.DataType{t.(arrow.ListLikeType).Elem()}
	case *arrow.ListViewType, *arrow.LargeListViewType:
		wantB, childTypes = 3, []arrow.DataType{t.(arrow.ListLikeType).Elem()}
	case *arrow.FixedSizeListType:
		wantB, childTypes = 1, []arrow.DataType{t.Elem()}
	case *arrow.StructType:
		wantB = 1
		for _, f := range t.Fields() {
			childTypes = append(childTypes, f.Type)
		}
	case *arrow.SparseUnionType, *arrow.DenseUnionType:
		minB = 1
		for _, f := range t.(arrow.UnionType).Fields() {
			childTypes = append(childTypes, f.Type)
		}
	case *arrow.RunEndEncodedType:
		wantB, childTypes = 0, []arrow.DataType{t.RunEnds(), t.Encoded()}
	default:
		return fmt.Errorf("%w: importing %s arrays", ErrUnsupported, dt)
	}
	if (wantB >= 0 && nb != wantB) || nb < minB {
		return fmt.Errorf("%w: %s array with %d buffers", ErrInvalid, dt, nb)
	}
	// Everything below is an error (or a panic) inside arrow-go's importer,
	// whose error paths are unsafe once it has imported a child or a
	// dictionary: it never releases the array, and it C.free()s child
	// structs that belong to the producer (a double free when the producer
	// releases them). So they are refused here, at every level.
	hasValidity := true
	switch dt.(type) {
	case *arrow.NullType, *arrow.SparseUnionType, *arrow.DenseUnionType, *arrow.RunEndEncodedType:
		hasValidity = false
	}
	switch dt.(type) {
	case *arrow.SparseUnionType, *arrow.DenseUnionType:
		if nulls != 0 {
			return fmt.Errorf("%w: %s array with a null count of %d (unions have no validity bitmap)", ErrInvalid, dt, nulls)
		}
	}
	if fw, ok := dt.(arrow.FixedWidthDataType); ok && fw.BitWidth() >= 8 {
		if w := int64(fw.BitWidth() / 8); length+offset > maxCBytes/w {
			return fmt.Errorf("%w: %s array of length %d at offset %d: too large", ErrInvalid, dt, length, offset)
		}
	}
	// NULL buffers: a NULL validity bitmap means no nulls; other buffers
	// are needed when the array has elements, offsets always.
	if nb > 0 {
		bufs := unsafe.Slice(a.buffers, int(nb))
		first, offsets := 1, -1
		switch dt.(type) {
		case *arrow.NullType:
			first = int(nb)
		case *arrow.SparseUnionType, *arrow.DenseUnionType:
			first = 0
		case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType,
			*arrow.ListType, *arrow.LargeListType, *arrow.MapType:
			offsets = 1
		case *arrow.StringViewType, *arrow.BinaryViewType:
			if nb > 3 && bufs[nb-1] == nil { // the data buffers' sizes
				return fmt.Errorf("%w: %s array with a NULL buffer of sizes", ErrInvalid, dt)
			}
		}
		if hasValidity && bufs[0] == nil && (nulls > 0 || (nulls < 0 && length+offset > 0)) {
			return fmt.Errorf("%w: %s array with a null count of %d and no validity bitmap", ErrInvalid, dt, nulls)
		}
		switch dt.(type) {
		case *arrow.StringType, *arrow.BinaryType, *arrow.LargeStringType, *arrow.LargeBinaryType:
			if bufs[1] != nil { // the data size is the last offset (read as arrow-go reads it)
				var last int64
				if dt.ID() == arrow.LARGE_STRING || dt.ID() == arrow.LARGE_BINARY {
					last = int64(unsafe.Slice((*int64)(bufs[1]), length+offset+1)[length+offset])
				} else {
					last = int64(unsafe.Slice((*int32)(bufs[1]), length+offset+1)[length+offset])
				}
				if last < 0 || last > maxCBytes || (last > 0 && bufs[2] == nil) {
					return fmt.Errorf("%w: %s array whose last offset is %d (data buffer %p)", ErrInvalid, dt, last, bufs[2])
				}
			}
		case *arrow.StringViewType, *arrow.BinaryViewType:
			if nb > 3 {
				sizes := unsafe.Slice((*int64)(bufs[nb-1]), nb-3)
				for i, sz := range sizes {
					if sz < 0 || sz > maxCBytes || (sz > 0 && bufs[2+i] == nil) {
						return fmt.Errorf("%w: %s array whose data buffer %d has size %d (pointer %p)", ErrInvalid, dt, i, sz, bufs[2+i])
					}
				}
			}
		}
		for i := first; i < int(nb); i++ {
			needed := length+offset > 0 || i == offsets
			if _, view := dt.(arrow.BinaryViewDataType); view && i >= 2 {
				needed = false // data buffers: their sizes say
			}
			if _, bin := dt.(arrow.BinaryDataType); bin && i == 2 {
				needed = false // string data: the offsets say
			}
			if needed && bufs[i] == nil {
				return fmt.Errorf("%w: %s array of length %d with buffer %d NULL", ErrInvalid, dt, length, i)
			}
		}
	}
	if nc != int64(len(childTypes)) {
		return fmt.Errorf("%w: %s array with %d children, its type has %d", ErrInvalid, dt, nc, len(childTypes))
	}
	if nc > 0 {
		// arrow-go's struct and sparse union constructors slice each child
		// by the parent's offset and length (and panic, keeping the array
		// forever, when a child is shorter).
		sliced := false
		switch dt.(type) {
		case *arrow.StructType, *arrow.SparseUnionType:
			sliced = true
		}
		for i, c := range unsafe.Slice(a.children, int(nc)) {
			if err := checkCArray(c, childTypes[i], depth+1); err != nil {
				return fmt.Errorf("child %d of %s: %w", i, dt, err)
			}
			if sliced && int64(c.length) < length+offset {
				return fmt.Errorf("%w: child %d of a %s array of length %d at offset %d has %d values", ErrInvalid, i, dt, length, offset, int64(c.length))
			}
		}
	}
	if dictType != nil {
		if err := checkCArray(a.dictionary, dictType, depth+1); err != nil {
			return fmt.Errorf("dictionary of %s: %w", dt, err)
		}
	}
	return nil
}

// recoverImport turns a panic of arrow-go's importer (on inputs the checks
// above let through) into an error.
func recoverImport(err *error, what string) {
	if p := recover(); p != nil {
		*err = fmt.Errorf("%s: %w: arrow-go's importer panicked: %v", what, ErrInvalid, p)
	}
}
