package pqscan

import (
	"bytes"
	"errors"
	"testing"
)

// The Thrift reader refuses, without allocating them, lists and strings
// longer than the bytes left, nesting past maxThriftDepth, and varints
// past 64 bits.
func TestThriftBounds(t *testing.T) {
	cases := map[string][]byte{
		"list":   {0x19, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x0f}, // field 1: a list of 2^32-1 structs
		"string": {0x18, 0xff, 0xff, 0xff, 0xff, 0x07, 'a'},  // field 1: 2^31-1 bytes
		"varint": {0x16, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01},
		"map":    {0x1b, 0xff, 0xff, 0xff, 0x7f, 0x55},
	}
	deep := []byte{}
	for i := 0; i < 100; i++ {
		deep = append(deep, 0x1c) // field 1: a struct
	}
	cases["deep"] = deep
	for name, b := range cases {
		r := &tReader{b: b}
		err := r.skip(tStruct)
		var short *errShort
		if err == nil || (!errors.Is(err, ErrInvalid) && !errors.As(err, &short)) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// a footer of such a list: ReadFooter says ErrInvalid
	data := append([]byte("PAR1"), 0x29, 0xfc, 0xff, 0xff, 0xff, 0xff, 0x0f, 7, 0, 0, 0)
	data = append(data, "PAR1"...)
	if _, err := ReadFooter(bytes.NewReader(data), int64(len(data)), Limits{MaxBuffer: 1 << 20, MaxTotal: -1}); !errors.Is(err, ErrInvalid) {
		t.Errorf("footer: %v", err)
	}
}
