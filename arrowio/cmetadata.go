package arrowio

import (
	"encoding/binary"
	"fmt"
)

// Bounds of a C Data Interface metadata blob (ArrowSchema.metadata). The
// blob has no length of its own: arrow-go v15's importer reads its pair
// count and makes that many strings at once (a count of 2^31-1 over an
// 8-byte blob asks for 2^32 strings, a fatal out-of-memory), then slices
// each key and value by the length it reads, trusting them all. The walk
// below reads the blob as the importer will and refuses it before the
// importer does when a count or length is negative or cannot fit.
const (
	maxCMetadataBytes = 1 << 26 // the whole blob
	maxCMetadataPairs = 1 << 16 // key/value pairs
)

// checkCMetadata walks a metadata blob (an int32 pair count, then for each
// pair an int32 key length, the key's bytes, an int32 value length and the
// value's bytes; all little-endian, as the platform of the C Data
// Interface) through read, which returns n bytes at off. present is the
// number of bytes known to be there (maxCMetadataBytes for a C pointer,
// whose extent no consumer can know): the walk never asks read for a byte
// at or beyond it, so a count or length is bounded by the bytes present
// before anything of that size is read or allocated. A pair needs at least
// 8 bytes, so the count alone is refused when the bytes left cannot hold
// that many pairs.
func checkCMetadata(read func(off, n int) []byte, present int) error {
	if present > maxCMetadataBytes {
		present = maxCMetadataBytes
	}
	off := 0
	int32At := func(what string) (int, error) {
		if present-off < 4 {
			return 0, fmt.Errorf("%w: schema metadata: %s at byte %d of at most %d", ErrInvalid, what, off, present)
		}
		v := int32(binary.LittleEndian.Uint32(read(off, 4)))
		off += 4
		return int(v), nil
	}
	n, err := int32At("the pair count")
	if err != nil {
		return err
	}
	switch {
	case n < 0:
		return fmt.Errorf("%w: schema metadata: a negative count of key/value pairs (%d)", ErrInvalid, n)
	case n > maxCMetadataPairs:
		return fmt.Errorf("%w: schema metadata: a count of %d key/value pairs, more than the %d allowed", ErrInvalid, n, maxCMetadataPairs)
	case n > (present-off)/8:
		return fmt.Errorf("%w: schema metadata: a count of %d key/value pairs (8 bytes each at least) in %d bytes", ErrInvalid, n, present)
	}
	for i := 0; i < n; i++ {
		for _, what := range [2]string{"key", "value"} {
			l, err := int32At(fmt.Sprintf("the length of %s %d", what, i))
			if err != nil {
				return err
			}
			// The pairs after this one need 8 bytes each, this one's
			// value length 4 more.
			rest := 8 * (n - 1 - i)
			if what == "key" {
				rest += 4
			}
			if l < 0 || l > present-off-rest {
				return fmt.Errorf("%w: schema metadata: %s %d claims %d bytes at byte %d, where at most %d can be (%d bytes in all, %d pairs after it)", ErrInvalid, what, i, l, off, max(0, present-off-rest), present, n-1-i)
			}
			off += l
		}
	}
	return nil
}
