package arrowio

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// metadataBlob encodes a metadata blob with the given count and pairs, each
// length as given (-1: the string's own), so that counts and lengths can lie.
func metadataBlob(count int32, pairs ...any) []byte {
	b := binary.LittleEndian.AppendUint32(nil, uint32(count))
	for i := 0; i < len(pairs); i += 2 {
		l, s := pairs[i].(int), pairs[i+1].(string)
		if l == -1 {
			l = len(s)
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(l)))
		b = append(b, s...)
	}
	return b
}

// walkBytes runs checkCMetadata over b, failing the test if the walk asks
// for a byte beyond b.
func walkBytes(t testing.TB, b []byte) error {
	read := func(off, n int) []byte {
		if off < 0 || n < 0 || off+n > len(b) {
			t.Fatalf("read(%d, %d) beyond the %d bytes present", off, n, len(b))
		}
		return b[off : off+n]
	}
	return checkCMetadata(read, len(b))
}

// decodeMetadataRef decodes a blob the plain way, reading only bytes that
// are there: the reference the walk must agree with.
func decodeMetadataRef(b []byte) ([][2]string, bool) {
	if len(b) < 4 {
		return nil, false
	}
	n := int64(int32(binary.LittleEndian.Uint32(b)))
	b = b[4:]
	if n < 0 || n > maxCMetadataPairs {
		return nil, false
	}
	var out [][2]string
	for i := int64(0); i < n; i++ {
		var kv [2]string
		for j := range kv {
			if len(b) < 4 {
				return nil, false
			}
			l := int64(int32(binary.LittleEndian.Uint32(b)))
			b = b[4:]
			if l < 0 || l > int64(len(b)) {
				return nil, false
			}
			kv[j], b = string(b[:l]), b[l:]
		}
		out = append(out, kv)
	}
	return out, true
}

// Issue 17 item 11: the walk refuses counts and lengths beyond the bytes
// present (a count of 2^31-1 over 8 bytes first of all) without reading
// past them, and accepts what decodes.
func TestCMetadataWalk(t *testing.T) {
	bad := map[string][]byte{
		"2^31-1 pairs in 8 bytes": metadataBlob(1<<31-1, 0, ""),
		"negative count":          metadataBlob(-1),
		"count past the bytes":    metadataBlob(2, 1, "k", 1, "v"),
		"count without bytes":     {1, 0},
		"negative key length":     metadataBlob(1, -2, "", 0, ""),
		"key past the bytes":      metadataBlob(1, 1<<31-1, "k", 0, ""),
		"value past the bytes":    metadataBlob(1, -1, "k", 9, "v"),
		"value length cut":        metadataBlob(1, -1, "key")[:11],
		"more pairs than allowed": metadataBlob(maxCMetadataPairs+1, make([]any, 0)...),
		"empty":                   {},
	}
	for name, b := range bad {
		err := walkBytes(t, b)
		require.ErrorIs(t, err, ErrInvalid, name)
		assert.ErrorContains(t, err, "metadata", name)
		_, ok := decodeMetadataRef(b)
		assert.False(t, ok, name)
	}
	good := [][]byte{
		metadataBlob(0),
		metadataBlob(1, -1, "", -1, ""),
		metadataBlob(2, -1, "ARROW:extension:name", -1, "arrow.fixed_shape_tensor", -1, "k", -1, "vvv"),
		append(metadataBlob(1, -1, "k", -1, "v"), "trailing bytes are not read"...),
	}
	for _, b := range good {
		require.NoError(t, walkBytes(t, b), "%q", b)
	}
	// Present bytes bound the walk even when the blob would go on.
	b := metadataBlob(1, -1, "key", -1, "value")
	assert.ErrorIs(t, checkCMetadata(func(off, n int) []byte { return b[off : off+n] }, len(b)-1), ErrInvalid)
}

// FuzzCMetadata: the walk over any bytes never reads past them and accepts
// exactly the blobs that decode within them. cgo-free: the walk is plain Go.
func FuzzCMetadata(f *testing.F) {
	f.Add(metadataBlob(1<<31-1, 0, ""))
	f.Add(metadataBlob(-1))
	f.Add(metadataBlob(2, 1, "k", 1, "v"))
	f.Add(metadataBlob(1, -2, "", 0, ""))
	f.Add(metadataBlob(1, 1<<31-1, "k", 0, ""))
	f.Add(metadataBlob(1, -1, "k", 9, "v"))
	f.Add(metadataBlob(maxCMetadataPairs + 1))
	f.Add(metadataBlob(2, -1, "ARROW:extension:name", -1, "arrow.fixed_shape_tensor", -1, "ARROW:extension:metadata", -1, `{"shape":[2,3]}`))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		err := walkBytes(t, b)
		_, ok := decodeMetadataRef(b)
		if ok != (err == nil) {
			t.Fatalf("walk says %v, decoding says ok=%v, for %q", err, ok, b)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("error %v does not wrap ErrInvalid", err)
		}
	})
}
