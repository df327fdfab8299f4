package arrowio

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/ipc"
)

// dictMemo reaches the dictionary memo of an arrow-go v15 ipc.Reader or
// ipc.FileReader (an unexported field of an internal type), for two things
// the public API does not offer: releasing a FileReader's dictionaries
// (FileReader.Close leaves them allocated until the garbage collector
// drops them, which a checked allocator reports as a leak), and telling
// which buffers the memo holds, so that cleaning up after a failed decode
// does not free them. If a later arrow-go changes the field, dictMemo
// does nothing (the leak tests then fail).
type dictMemo struct {
	memo    reflect.Value // *dictutils.Memo
	checked map[arrow.ArrayData]bool
}

// memoOf returns the memo of reader (a pointer to a struct with a memo
// field), or nil.
func memoOf(reader any) *dictMemo {
	v := reflect.ValueOf(reader)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	f := v.Elem().FieldByName("memo")
	if !f.IsValid() || !f.CanAddr() || f.Kind() != reflect.Struct {
		return nil
	}
	m := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr()))
	if !m.MethodByName("Clear").IsValid() {
		return nil
	}
	d := m.Elem().FieldByName("id2dict")
	if !d.IsValid() || !d.Type().ConvertibleTo(reflect.TypeOf(map[int64][]arrow.ArrayData{})) {
		return nil
	}
	return &dictMemo{memo: m}
}

// isNilData reports whether a is nil, or a nil pointer in an interface
// (arrow-go's Data.Dictionary returns a typed nil).
func isNilData(a arrow.ArrayData) bool {
	if a == nil {
		return true
	}
	v := reflect.ValueOf(a)
	return v.Kind() == reflect.Pointer && v.IsNil()
}

// isNil reports whether v is nil or a nil pointer in an interface (a nil
// *FixedShapeTensorArray passed as an arrow.Array, say).
func isNil(v any) bool {
	if v == nil {
		return true
	}
	r := reflect.ValueOf(v)
	return r.Kind() == reflect.Pointer && r.IsNil()
}

// clear releases the memo's dictionaries (dictutils.Memo.Clear).
func (d *dictMemo) clear() {
	if d != nil {
		d.memo.MethodByName("Clear").Call(nil)
	}
}

// dicts returns the memo's dictionaries.
func (d *dictMemo) dicts() []arrow.ArrayData {
	if d == nil {
		return nil
	}
	f := d.memo.Elem().FieldByName("id2dict")
	m := *(*map[int64][]arrow.ArrayData)(unsafe.Pointer(f.UnsafeAddr()))
	var out []arrow.ArrayData
	for _, ds := range m {
		out = append(out, ds...)
	}
	return out
}

// validate checks every dictionary of the memo not checked before
// (validateData), so that a malformed dictionary is reported before arrow-go
// builds arrays over it (a constructor that panics half-way keeps a
// reference to it forever).
func (d *dictMemo) validate() error {
	if d == nil {
		return nil
	}
	now := map[arrow.ArrayData]bool{}
	for _, a := range d.dicts() {
		if !d.checked[a] {
			if err := validateData(a, 1); err != nil {
				return fmt.Errorf("dictionary: %w", err)
			}
		}
		now[a] = true
	}
	d.checked = now
	return nil
}

// buffers returns the first bytes of every buffer the memo's dictionaries
// hold (children and nested dictionaries included).
func (d *dictMemo) buffers() map[*byte]bool {
	live := map[*byte]bool{}
	if d == nil {
		return live
	}
	var walk func(a arrow.ArrayData, depth int)
	walk = func(a arrow.ArrayData, depth int) {
		if isNilData(a) || depth > maxValidateDepth {
			return
		}
		for _, b := range a.Buffers() {
			if b != nil && b.Len() > 0 {
				live[&b.Buf()[0]] = true
			}
		}
		for _, c := range a.Children() {
			walk(c, depth+1)
		}
		walk(a.Dictionary(), depth+1)
	}
	for _, a := range d.dicts() {
		walk(a, 0)
	}
	return live
}

// releaseWrittenDicts releases the dictionaries an arrow-go v15
// ipc.FileWriter retains as the last written (its Close, unlike the stream
// Writer's, does not), so that writing a file does not keep the caller's
// dictionaries allocated. It does nothing if the field is not found.
func releaseWrittenDicts(fw *ipc.FileWriter) {
	if fw == nil {
		return
	}
	f := reflect.ValueOf(fw).Elem().FieldByName("lastWrittenDicts")
	if !f.IsValid() || !f.CanAddr() || f.Type() != reflect.TypeOf(map[int64]arrow.Array{}) {
		return
	}
	m := (*map[int64]arrow.Array)(unsafe.Pointer(f.UnsafeAddr()))
	for id, d := range *m {
		if d != nil {
			d.Release()
		}
		delete(*m, id)
	}
}
