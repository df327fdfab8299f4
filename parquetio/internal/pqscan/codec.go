package pqscan

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
)

// zstd: the largest a block may regenerate (Block_Maximum_Size).
const zstdMaxBlock = 128 << 10

// checkFrame checks the compressed body of a page (zlen bytes at off)
// against out, the bytes it must inflate to, before arrow-go's codec
// allocates what the frame claims: a snappy block's length must be out;
// zstd frames may claim (content sizes) and regenerate (block sizes, a
// compressed block at most 128 KiB) at most out plus one block; a gzip or
// brotli body for an empty page (arrow-go then inflates it without a
// bound) must inflate to nothing. nilDst says the page is empty as a whole
// (arrow-go then hands the codec no buffer at all).
func checkFrame(r io.ReaderAt, codec int32, off, zlen, out int64, nilDst bool, buf []byte) ([]byte, error) {
	switch codec {
	case codecSnappy:
		var b [binary.MaxVarintLen32]byte
		n := min(int64(len(b)), zlen)
		if m, err := r.ReadAt(b[:n], off); int64(m) < n {
			return buf, fmt.Errorf("%w: reading the snappy length: %w", ErrInvalid, err)
		}
		v, k := binary.Uvarint(b[:n])
		if k <= 0 || v != uint64(out) {
			return buf, fmt.Errorf("%w: a snappy block claims %d bytes for a page of %d", ErrInvalid, v, out)
		}
		// A snappy element of 3 bytes copies at most 64: no body inflates
		// more than 64/3 times.
		if out > (zlen-int64(k))*64/3 {
			return buf, fmt.Errorf("%w: a snappy block of %d bytes cannot inflate to the %d it claims", ErrInvalid, zlen, out)
		}
	case codecZstd:
		return buf, checkZstd(&span{r: r, base: off, n: zlen}, out)
	case codecGzip:
		// deflate codes a 258-byte match in 2 bits at best
		if out > zlen*1032 {
			return buf, fmt.Errorf("%w: a gzip body of %d bytes cannot inflate to the %d it claims", ErrInvalid, zlen, out)
		}
		if !nilDst {
			return buf, nil // arrow-go inflates into the page's buffer
		}
		if zlen > int64(cap(buf)) {
			buf = make([]byte, zlen)
		}
		b := buf[:zlen]
		if m, err := r.ReadAt(b, off); int64(m) < zlen {
			return buf, fmt.Errorf("%w: reading a gzip body: %w", ErrInvalid, err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			return buf, fmt.Errorf("%w: an empty page's gzip body: %w", ErrInvalid, err)
		}
		var one [1]byte
		if n, _ := io.ReadFull(zr, one[:]); n > 0 {
			return buf, fmt.Errorf("%w: an empty page whose gzip body inflates to bytes", ErrInvalid)
		}
	case codecBrotli:
		if nilDst && zlen > 2 {
			return buf, fmt.Errorf("%w: an empty page with a brotli body of %d bytes (an empty brotli stream takes 1 or 2)", ErrInvalid, zlen)
		}
	}
	return buf, nil
}

// span reads small pieces of n bytes at base, through a small cache.
type span struct {
	r       io.ReaderAt
	base, n int64
	cache   [512]byte
	at, len int64 // the cache holds bytes [at, at+len) of the span
}

// get returns k (<= 32) bytes at i of the span.
func (s *span) get(i, k int64) ([]byte, error) {
	if i < 0 || i+k > s.n {
		return nil, fmt.Errorf("%w: a zstd frame runs past its page (%d bytes needed at byte %d of %d)", ErrInvalid, k, i, s.n)
	}
	if i < s.at || i+k > s.at+s.len {
		n := min(int64(len(s.cache)), s.n-i)
		if m, err := s.r.ReadAt(s.cache[:n], s.base+i); int64(m) < n {
			return nil, fmt.Errorf("%w: reading a zstd frame: %w", ErrInvalid, err)
		}
		s.at, s.len = i, n
	}
	return s.cache[i-s.at : i-s.at+k], nil
}

// checkZstd walks the zstd frames of s: what they claim and what their
// blocks can regenerate must fit out (plus one block of slack for frames
// without a content size, whose last compressed block is counted whole).
func checkZstd(s *span, out int64) error {
	if s.n == 0 && out > 0 {
		return fmt.Errorf("%w: an empty zstd body for a page of %d bytes", ErrInvalid, out)
	}
	var claimed, bound int64
	for i := int64(0); i < s.n; {
		m, err := s.get(i, 4)
		if err != nil {
			return err
		}
		magic := binary.LittleEndian.Uint32(m)
		if magic&0xFFFFFFF0 == 0x184D2A50 { // a skippable frame
			b, err := s.get(i+4, 4)
			if err != nil {
				return err
			}
			i += 8 + int64(binary.LittleEndian.Uint32(b))
			if i > s.n {
				return fmt.Errorf("%w: a skippable zstd frame runs past its page", ErrInvalid)
			}
			continue
		}
		if magic != 0xFD2FB528 {
			return fmt.Errorf("%w: no zstd frame at byte %d of the page body (magic %#x)", ErrInvalid, i, magic)
		}
		d, err := s.get(i+4, 1)
		if err != nil {
			return err
		}
		fhd := d[0]
		single := fhd&0x20 != 0
		if fhd&0x08 != 0 {
			return fmt.Errorf("%w: a zstd frame header with its reserved bit set", ErrInvalid)
		}
		p := i + 5
		if !single {
			p++ // window descriptor
		}
		p += [4]int64{0, 1, 2, 4}[fhd&3] // dictionary id
		fcsLen := [4]int64{0, 2, 4, 8}[fhd>>6]
		if fcsLen == 0 && single {
			fcsLen = 1
		}
		fcs := int64(-1)
		if fcsLen > 0 {
			b, err := s.get(p, fcsLen)
			if err != nil {
				return err
			}
			var v uint64
			switch fcsLen {
			case 1:
				v = uint64(b[0])
			case 2:
				v = uint64(binary.LittleEndian.Uint16(b)) + 256
			case 4:
				v = uint64(binary.LittleEndian.Uint32(b))
			case 8:
				v = binary.LittleEndian.Uint64(b)
			}
			if v > uint64(out) {
				return fmt.Errorf("%w: a zstd frame claims %d bytes for a page of %d", ErrInvalid, v, out)
			}
			fcs = int64(v)
			p += fcsLen
		}
		var blocks int64 // what the blocks can regenerate
		for last := false; !last; {
			b, err := s.get(p, 3)
			if err != nil {
				return err
			}
			h := uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16
			last = h&1 != 0
			size := int64(h >> 3)
			p += 3
			switch (h >> 1) & 3 {
			case 0: // raw
				blocks += size
				p += size
			case 1: // RLE: one byte, repeated size times
				blocks += size
				p++
			case 2:
				blocks += zstdMaxBlock
				p += size
			default:
				return fmt.Errorf("%w: a zstd block of the reserved type", ErrInvalid)
			}
			if size > zstdMaxBlock {
				return fmt.Errorf("%w: a zstd block of %d bytes (at most %d)", ErrInvalid, size, zstdMaxBlock)
			}
			if p > s.n {
				return fmt.Errorf("%w: a zstd block runs past its page", ErrInvalid)
			}
			if fcs < 0 && bound+blocks > out+zstdMaxBlock {
				return fmt.Errorf("%w: zstd blocks that can regenerate more than %d bytes for a page of %d", ErrInvalid, bound+blocks, out)
			}
		}
		if fhd&0x04 != 0 {
			p += 4 // checksum
		}
		if fcs > blocks {
			return fmt.Errorf("%w: a zstd frame claims %d bytes but its blocks can regenerate at most %d", ErrInvalid, fcs, blocks)
		}
		if fcs >= 0 {
			claimed += fcs
			bound += fcs
		} else {
			bound += blocks
		}
		if claimed > out {
			return fmt.Errorf("%w: zstd frames that claim %d bytes for a page of %d", ErrInvalid, claimed, out)
		}
		i = p
	}
	return nil
}
