package arrowio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"strings"
	"unicode/utf8"
)

// sniffLen is how many leading bytes describeInput looks at.
const sniffLen = 32

// describeInput says what input that is not what a reader expected looks
// like, from its first bytes (head) and its size (total; -1 when unknown):
// empty, an Arrow IPC stream or file, Parquet, compressed data, text, or
// the bytes themselves. It names the reader to use when there is one.
// want is "stream" or "file", the reader's own kind, which is never the
// answer: the caller only asks when the input is not one.
func describeInput(head []byte, total int64, want string) string {
	if total == 0 || (total < 0 && len(head) == 0) {
		return "the input is empty"
	}
	size := ""
	if total > 0 {
		size = fmt.Sprintf(" of %d bytes", total)
	}
	if bytes.HasPrefix(head, []byte("ARROW1")) && want != "file" {
		return fmt.Sprintf("the input%s looks like an Arrow IPC file (it starts with \"ARROW1\"): read it with ReadFile", size)
	}
	if m := magicOf(head); m != "" {
		return fmt.Sprintf("the input%s looks like %s", size, m)
	}
	if looksLikeStream(head) && want != "stream" {
		return fmt.Sprintf("the input%s looks like an Arrow IPC stream (it starts with a message, not \"ARROW1\"): read it with ReadStream", size)
	}
	if isText(head) {
		return fmt.Sprintf("the input%s looks like text: %q", size, clipText(head))
	}
	return fmt.Sprintf("the input%s starts with bytes % x", size, head[:min(len(head), 8)])
}

// magicOf names the format whose magic number head starts with, among
// those an IPC reader is likely to be handed by mistake; "" for none.
func magicOf(head []byte) string {
	for _, m := range []struct{ magic, what string }{
		{"PAR1", "a Parquet file (it starts with \"PAR1\"): read it with parquetio.Read"},
		{"FEA1", "a Feather version 1 file (it starts with \"FEA1\"), which arrow-go cannot read"},
		{"\x1f\x8b", "gzip-compressed data"},
		{"\x28\xb5\x2f\xfd", "zstd-compressed data"},
		{"BZh", "bzip2-compressed data"},
		{"\x04\x22\x4d\x18", "LZ4-compressed data"},
		{"PK\x03\x04", "a zip archive"},
		{"ORC", "an ORC file"},
		{"Obj\x01", "an Avro file"},
		{"\x93NUMPY", "a NumPy .npy file"},
		{"\x89HDF", "an HDF5 file"},
	} {
		if bytes.HasPrefix(head, []byte(m.magic)) {
			return m.what
		}
	}
	return ""
}

// looksLikeStream reports whether head starts like an IPC message: the
// continuation marker and a metadata length, or (the format before 0.15)
// a small positive length alone.
func looksLikeStream(head []byte) bool {
	if len(head) < 8 {
		return false
	}
	n := binary.LittleEndian.Uint32(head)
	if n == 0xFFFFFFFF {
		n = binary.LittleEndian.Uint32(head[4:])
	}
	return n > 0 && n < 1<<24
}

// isText reports whether head is valid UTF-8 with no control characters
// but whitespace (a cut rune at its end allowed).
func isText(head []byte) bool {
	for i := 0; i < len(head); {
		r, n := utf8.DecodeRune(head[i:])
		if r == utf8.RuneError && n <= 1 {
			return len(head)-i < utf8.UTFMax && !utf8.FullRune(head[i:])
		}
		if r < 0x20 && !strings.ContainsRune("\t\n\r\f", r) || r == 0x7f {
			return false
		}
		i += n
	}
	return len(head) > 0
}

// clipText is head cut at its last whole rune, with "..." when clipped.
func clipText(head []byte) string {
	s := string(head)
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	if len(head) >= sniffLen {
		s += "..."
	}
	return s
}
