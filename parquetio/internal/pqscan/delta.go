package pqscan

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/andybalholm/brotli"
	"github.com/golang/snappy"
	"github.com/klauspost/compress/zstd"
)

// arrow-go's delta decoders allocate what a DELTA_BINARY_PACKED header
// claims (a block's values per miniblock, int32 or int64 each, and for the
// byte-array encodings every length at once), so a page in a delta
// encoding has its headers checked: the block size a positive multiple of
// 128, miniblocks of a multiple of 32 values, no more than the page's
// values (or 4096) per miniblock, and no more values than the page has.

// maxMiniValues is the miniblock size allowed whatever the page's values.
const maxMiniValues = 4096

// deltaInts checks the DELTA_BINARY_PACKED stream at the start of b for a
// page of n values, and returns the bytes after it (as far as its blocks
// for min(n, total) values reach).
func deltaInts(b []byte, n int64) ([]byte, error) {
	r := &tReader{b: b}
	var h [3]uint64
	for i := range h {
		v, err := r.uvarint()
		if err != nil {
			return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED header: %w", ErrInvalid, err)
		}
		h[i] = v
	}
	block, minis, total := h[0], h[1], h[2]
	if _, err := r.uvarint(); err != nil { // the first value, zigzag
		return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED header: %w", ErrInvalid, err)
	}
	if block == 0 || block%128 != 0 || minis == 0 || block%minis != 0 || (block/minis)%32 != 0 {
		return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED block of %d values in %d miniblocks", ErrInvalid, block, minis)
	}
	per := block / minis
	if per > maxMiniValues && per > uint64(n)+31 {
		return nil, fmt.Errorf("%w: DELTA_BINARY_PACKED miniblocks of %d values for a page of %d", ErrInvalid, per, n)
	}
	if total > uint64(n) {
		return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED stream of %d values in a page of %d", ErrInvalid, total, n)
	}
	// Walk the blocks: min delta, the miniblocks' bit widths, then as many
	// miniblocks as the values need.
	left := total
	if left > 0 {
		left--
	}
	for left > 0 {
		if _, err := r.uvarint(); err != nil {
			return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED block: %w", ErrInvalid, err)
		}
		if uint64(r.left()) < minis {
			return nil, fmt.Errorf("%w: DELTA_BINARY_PACKED bit widths past the page", ErrInvalid)
		}
		widths := r.b[r.pos : r.pos+int(minis)]
		r.pos += int(minis)
		for _, w := range widths {
			if left == 0 {
				break
			}
			if w > 64 {
				return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED bit width of %d", ErrInvalid, w)
			}
			size := per * uint64(w) / 8
			if size > uint64(r.left()) {
				return nil, fmt.Errorf("%w: a DELTA_BINARY_PACKED miniblock past the page", ErrInvalid)
			}
			r.pos += int(size)
			left -= min(left, per)
		}
	}
	return b[r.pos:], nil
}

// checkDelta checks the delta headers of a page's values, vals (the page's
// value section, decompressed), for a page of n values.
func checkDelta(enc int32, vals []byte, n int64) error {
	switch enc {
	case encDeltaBinary, encDeltaLength:
		_, err := deltaInts(vals, n)
		return err
	case encDeltaByteArr:
		rest, err := deltaInts(vals, n) // the prefix lengths
		if err != nil {
			return fmt.Errorf("prefix lengths: %w", err)
		}
		if _, err := deltaInts(rest, n); err != nil {
			return fmt.Errorf("suffix lengths: %w", err)
		}
	}
	return nil
}

// isDelta reports whether enc is one of the delta encodings.
func isDelta(enc int32) bool {
	return enc == encDeltaBinary || enc == encDeltaLength || enc == encDeltaByteArr
}

// inflate returns the zlen bytes at off of r, decompressed by codec into
// out bytes (the codec's frame has been checked against out).
func inflate(r io.ReaderAt, codec int32, off, zlen, out int64) ([]byte, error) {
	z := make([]byte, zlen)
	if m, err := r.ReadAt(z, off); int64(m) < zlen {
		return nil, fmt.Errorf("%w: reading a page: %w", ErrInvalid, err)
	}
	var d []byte
	var err error
	switch codec {
	case codecNone:
		return z, nil
	case codecSnappy:
		// out is at most 64/3 times the body (checkFrame)
		d, err = snappy.Decode(make([]byte, out), z)
	case codecZstd:
		// What DecodeAll allocates is bounded by what the frames' blocks
		// can regenerate (checkZstd), not by what they claim.
		var dec *zstd.Decoder
		if dec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(uint64(out)+zstdMaxBlock)); err == nil {
			d, err = dec.DecodeAll(z, nil)
			dec.Close()
		}
	case codecGzip, codecBrotli:
		// Read as it inflates: memory follows the bytes produced.
		var zr io.Reader
		if codec == codecGzip {
			zr, err = gzip.NewReader(bytes.NewReader(z))
		} else {
			zr = brotli.NewReader(bytes.NewReader(z))
		}
		if err == nil {
			var ob bytes.Buffer
			_, err = io.CopyN(&ob, zr, out)
			d = ob.Bytes()
		}
	default:
		return nil, fmt.Errorf("%w: codec %d", ErrUnsupported, codec)
	}
	if err != nil || int64(len(d)) != out {
		return nil, fmt.Errorf("%w: a page that inflates to %d bytes of the %d it claims: %v", ErrInvalid, len(d), out, err)
	}
	return d, nil
}

// skipLevels returns the values of a version 1 page (levels first: for
// each of repetition and definition with a positive maximum, RLE with a
// 4-byte length, or BIT_PACKED of n values).
func skipLevels(b []byte, n int64, leaf Leaf, repEnc, defEnc int32) ([]byte, error) {
	for _, lv := range []struct {
		max int
		enc int32
	}{{leaf.MaxRep, repEnc}, {leaf.MaxDef, defEnc}} {
		if lv.max == 0 {
			continue
		}
		var size int64
		if lv.enc == encBitPacked {
			bits := int64(0)
			for m := lv.max; m > 0; m >>= 1 {
				bits++
			}
			size = (n*bits + 7) / 8
		} else {
			if len(b) < 4 {
				return nil, fmt.Errorf("%w: levels past the page", ErrInvalid)
			}
			size = int64(binary.LittleEndian.Uint32(b)) + 4
		}
		if size > int64(len(b)) {
			return nil, fmt.Errorf("%w: levels of %d bytes in a page of %d", ErrInvalid, size, len(b))
		}
		b = b[size:]
	}
	return b, nil
}
