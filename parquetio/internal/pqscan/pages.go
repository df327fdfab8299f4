package pqscan

import (
	"errors"
	"fmt"
	"io"
)

// Page types and encodings of the Parquet format.
const (
	pageData   = 0
	pageIndex  = 1
	pageDict   = 2
	pageDataV2 = 3

	encPlain         = 0
	encPlainDict     = 2
	encBitPacked     = 4
	encDeltaBinary   = 5
	encDeltaLength   = 6
	encDeltaByteArr  = 7
	encRLEDictionary = 8
)

// Page header sizes: arrow-go first reads 16 KiB and gives up past 4 MiB.
const (
	firstHeaderRead = 16 << 10
	maxHeaderSize   = 4 << 20
)

// pageHeader is what the scan reads of a PageHeader.
type pageHeader struct {
	typ                  int32
	uncompressed, compr  int32
	numValues, numRows   int32
	numNulls             int32
	encoding             int32
	defEnc, repEnc       int32 // version 1 level encodings
	defLen, repLen       int32
	compressed           bool // DataPageHeaderV2.is_compressed
	haveSizes, haveInner bool
}

// CheckPages walks the pages of the column chunks of row groups groups and
// leaf columns leaves, as arrow-go's page reader will, and checks every
// size they claim before arrow-go allocates it: the header itself (at most
// 4 MiB, its Thrift bounded by the chunk), compressed_page_size against the
// bytes left in the chunk, both page sizes against lim.MaxBuffer, a v2
// page's level lengths against its sizes, the codec frame of a compressed
// page (zstd frame content and block sizes, snappy's length) against
// uncompressed_page_size, a dictionary's num_values against its body for
// its physical type, and a data page's num_values against the row group's
// rows (a column that does not repeat) or against lim.MaxTotal (one that
// does). Pages are read through r: headers and codec frame headers only,
// plus the body of zstd pages (one page at a time, within lim.MaxBuffer).
func (f *File) CheckPages(r io.ReaderAt, groups, leaves []int, lim Limits) error {
	seen := map[[2]int]bool{}
	var buf []byte
	for _, g := range groups {
		if g < 0 || g >= len(f.RowGroups) {
			return fmt.Errorf("%w: row group %d of a file of %d", ErrInvalid, g, len(f.RowGroups))
		}
		for _, l := range leaves {
			if l < 0 || l >= len(f.Leaves) || seen[[2]int{g, l}] {
				continue
			}
			seen[[2]int{g, l}] = true
			var err error
			if buf, err = f.checkChunk(r, g, l, lim, buf); err != nil {
				return fmt.Errorf("row group %d, column %q: %w", g, f.Path(l), err)
			}
		}
	}
	return nil
}

// checkChunk walks the pages of one column chunk; buf is scratch space,
// returned for reuse.
func (f *File) checkChunk(r io.ReaderAt, g, l int, lim Limits, buf []byte) ([]byte, error) {
	c := f.RowGroups[g].Chunks[l]
	leaf := f.Leaves[l]
	el := f.Elements[leaf.Element]
	rows := f.RowGroups[g].Rows
	// arrow-go reads pages while the data pages' values add up to less than
	// the chunk's num_values, from Start; old parquet-mr files get up to
	// 100 bytes of padding past Len (PARQUET-816), still inside the file.
	end := c.Start + c.Len
	end += min(100, f.Size-8-f.FooterLen-end)
	if c.Len > lim.MaxBuffer {
		return buf, fmt.Errorf("%w: %w: a column chunk of %d bytes exceeds the limit of %d (WithMaxBuffer; arrow-go reads a chunk whole)", ErrInvalid, ErrLimit, c.Len, lim.MaxBuffer)
	}
	if el.Physical == typeFixed && int64(el.TypeLength) > lim.MaxBuffer {
		return buf, fmt.Errorf("%w: %w: FIXED_LEN_BYTE_ARRAY values of %d bytes exceed the limit of %d (WithMaxBuffer)", ErrInvalid, ErrLimit, el.TypeLength, lim.MaxBuffer)
	}
	if leaf.MaxRep == 0 && c.NumValues > rows {
		return buf, fmt.Errorf("%w: %d values in a row group of %d rows (the column does not repeat)", ErrInvalid, c.NumValues, rows)
	}
	if lim.MaxTotal >= 0 && c.NumValues > lim.MaxTotal/10 {
		return buf, fmt.Errorf("%w: %w: %d values would take more than the %d bytes the reader may allocate (WithMaxTotal)", ErrInvalid, ErrLimit, c.NumValues, lim.MaxTotal)
	}
	pos := c.Start
	var values int64
	var w window
	for page := 0; values < c.NumValues; page++ {
		if pos >= end {
			return buf, fmt.Errorf("%w: its pages end at byte %d with %d of the %d values the footer claims", ErrInvalid, pos, values, c.NumValues)
		}
		h, hlen, err := readHeader(r, pos, end, &w)
		if err != nil {
			return buf, fmt.Errorf("page %d at byte %d: %w", page, pos, err)
		}
		where := fmt.Sprintf("page %d at byte %d", page, pos)
		body := pos + int64(hlen)
		if h.compr < 0 || h.uncompressed < 0 || int64(h.compr) > end-body {
			return buf, fmt.Errorf("%w: %s: compressed_page_size %d, uncompressed_page_size %d, with %d bytes left in the column chunk", ErrInvalid, where, h.compr, h.uncompressed, end-body)
		}
		if int64(h.compr) > lim.MaxBuffer || int64(h.uncompressed) > lim.MaxBuffer || (lim.MaxTotal >= 0 && int64(h.uncompressed) > lim.MaxTotal) {
			return buf, fmt.Errorf("%w: %w: %s: compressed_page_size %d, uncompressed_page_size %d: over the limits of %d bytes (WithMaxBuffer) or %d in all (WithMaxTotal)", ErrInvalid, ErrLimit, where, h.compr, h.uncompressed, lim.MaxBuffer, lim.MaxTotal)
		}
		// num_nulls is not checked for sign: arrow-go v15 writes a
		// dictionary-encoded column's version 2 pages with num_nulls =
		// -num_values (its page statistics count the indices as nulls
		// removed), and readers, arrow-go's included, ignore the field.
		// Nothing here sizes anything by it.
		if h.numValues < 0 || h.numRows < 0 {
			return buf, fmt.Errorf("%w: %s: %d values, %d rows", ErrInvalid, where, h.numValues, h.numRows)
		}
		// The compressed part of the page and what it must inflate to.
		zbody, zlen, out := body, int64(h.compr), int64(h.uncompressed)
		codec := c.Codec
		switch h.typ {
		case pageDict:
			if err := checkDict(h, el); err != nil {
				return buf, fmt.Errorf("%s: %w", where, err)
			}
		case pageData, pageDataV2:
			if err := checkValues(h, leaf, rows, lim); err != nil {
				return buf, fmt.Errorf("%s: %w", where, err)
			}
			values += int64(h.numValues)
			if h.typ == pageDataV2 {
				levels := int64(h.defLen) + int64(h.repLen)
				if h.defLen < 0 || h.repLen < 0 || levels > zlen || levels > out {
					return buf, fmt.Errorf("%w: %s: level lengths %d and %d in a page of %d bytes (%d uncompressed)", ErrInvalid, where, h.defLen, h.repLen, h.compr, h.uncompressed)
				}
				zbody, zlen, out = zbody+levels, zlen-levels, out-levels
				if !h.compressed {
					codec = codecNone
				}
			}
		default:
			// arrow-go v15 does not skip the body of other pages (it reads
			// it as the next header).
			return buf, fmt.Errorf("%w: %s: page type %d", ErrUnsupported, where, h.typ)
		}
		if codec == codecNone {
			if zlen != out {
				return buf, fmt.Errorf("%w: %s: an uncompressed page of %d bytes claims %d", ErrInvalid, where, zlen, out)
			}
		} else if buf, err = checkFrame(r, codec, zbody, zlen, out, h.uncompressed == 0, buf); err != nil {
			return buf, fmt.Errorf("%s: %w", where, err)
		}
		if err := checkEncoding(h, el); err != nil {
			return buf, fmt.Errorf("%s: %w", where, err)
		}
		if h.typ != pageDict && isDelta(h.encoding) {
			vals, err := inflate(r, codec, zbody, zlen, out)
			if err == nil && h.typ == pageData {
				vals, err = skipLevels(vals, int64(h.numValues), leaf, h.repEnc, h.defEnc)
			}
			if err == nil {
				err = checkDelta(h.encoding, vals, int64(h.numValues))
			}
			if err != nil {
				return buf, fmt.Errorf("%s: %w", where, err)
			}
		}
		pos = body + int64(h.compr)
	}
	return buf, nil
}

// window holds bytes [at, at+len(b)) of the file, read for page headers:
// a chunk of many small pages is read once, not 16 KiB a page.
type window struct {
	at int64
	b  []byte
}

// readHeader reads the page header at pos (it ends before end), from the
// bytes w holds when they reach far enough, else reading 16 KiB, then more
// as needed up to 4 MiB.
func readHeader(r io.ReaderAt, pos, end int64, w *window) (pageHeader, int, error) {
	for n := int64(firstHeaderRead); ; n *= 2 {
		n = min(n, end-pos, maxHeaderSize)
		if pos < w.at || pos+n > w.at+int64(len(w.b)) {
			if int64(cap(w.b)) < n {
				w.b = make([]byte, n)
			}
			w.b = w.b[:n]
			if m, err := r.ReadAt(w.b, pos); m < len(w.b) {
				w.b = w.b[:0]
				return pageHeader{}, 0, fmt.Errorf("%w: reading %d bytes: %w", ErrInvalid, n, err)
			}
			w.at = pos
		}
		b := w.b[pos-w.at:]
		b = b[:min(int64(len(b)), end-pos, maxHeaderSize)]
		h, hlen, err := parseHeader(b)
		var short *errShort
		if !errors.As(err, &short) {
			return h, hlen, err
		}
		if int64(len(b)) == end-pos || len(b) >= maxHeaderSize {
			return h, 0, fmt.Errorf("%w: the page header runs past the %d bytes left in the column chunk (or 4 MiB): %w", ErrInvalid, end-pos, err)
		}
		n = max(n, int64(len(b)))
	}
}

// parseHeader reads a PageHeader from b; it returns the header's length.
func parseHeader(b []byte) (pageHeader, int, error) {
	r := &tReader{b: b}
	h := pageHeader{typ: -1, compressed: true}
	i32 := func(what string, id int16, typ byte, p *int32) error {
		if err := want(what, id, typ, tI32); err != nil {
			return err
		}
		v, err := r.i32()
		*p = v
		return err
	}
	var haveType, haveU, haveC bool
	err := r.fields(func(id int16, typ byte) error {
		switch id {
		case 1:
			haveType = true
			return i32("PageHeader", id, typ, &h.typ)
		case 2:
			haveU = true
			return i32("PageHeader", id, typ, &h.uncompressed)
		case 3:
			haveC = true
			return i32("PageHeader", id, typ, &h.compr)
		case 5, 7, 8:
			if err := want("PageHeader", id, typ, tStruct); err != nil {
				return err
			}
			if (id == 5 && h.typ != pageData) || (id == 7 && h.typ != pageDict) || (id == 8 && h.typ != pageDataV2) {
				return r.skip(typ) // not the header of this page's type
			}
			h.haveInner = true
			return r.fields(func(fid int16, ft byte) error {
				switch {
				case fid == 1:
					return i32("page header", fid, ft, &h.numValues)
				case id == 5 && fid == 2, id == 7 && fid == 2, id == 8 && fid == 4:
					return i32("page header", fid, ft, &h.encoding)
				case id == 5 && fid == 3:
					return i32("page header", fid, ft, &h.defEnc)
				case id == 5 && fid == 4:
					return i32("page header", fid, ft, &h.repEnc)
				case id == 8 && fid == 2:
					return i32("page header", fid, ft, &h.numNulls)
				case id == 8 && fid == 3:
					return i32("page header", fid, ft, &h.numRows)
				case id == 8 && fid == 5:
					return i32("page header", fid, ft, &h.defLen)
				case id == 8 && fid == 6:
					return i32("page header", fid, ft, &h.repLen)
				case id == 8 && fid == 7:
					if err := want("page header", fid, ft, tTrue); err != nil {
						return err
					}
					h.compressed = ft == tTrue
					return nil
				}
				return r.skip(ft)
			})
		}
		return r.skip(typ)
	})
	if err != nil {
		return h, 0, err
	}
	if !haveType || !haveU || !haveC {
		return h, 0, fmt.Errorf("%w: a page header without its type or sizes", ErrInvalid)
	}
	if (h.typ == pageData || h.typ == pageDict || h.typ == pageDataV2) && !h.haveInner {
		return h, 0, fmt.Errorf("%w: a page of type %d without its header", ErrInvalid, h.typ)
	}
	return h, r.pos, nil
}

// width is the bytes a PLAIN value of leaf el takes at least.
func width(el Element) int64 {
	switch el.Physical {
	case typeInt32, typeFloat:
		return 4
	case typeInt64, typeDouble:
		return 8
	case typeInt96:
		return 12
	case typeBytes:
		return 4 // its length
	case typeFixed:
		return int64(el.TypeLength)
	}
	return 1
}

// checkDict checks a dictionary page: PLAIN values of a type that has a
// dictionary, as many as its uncompressed body holds.
func checkDict(h pageHeader, el Element) error {
	if el.Physical == typeBoolean {
		return fmt.Errorf("%w: a dictionary page for a BOOLEAN column", ErrInvalid)
	}
	if h.encoding != encPlain && h.encoding != encPlainDict {
		return fmt.Errorf("%w: a dictionary page of encoding %d", ErrUnsupported, h.encoding)
	}
	if need := int64(h.numValues) * width(el); need > int64(h.uncompressed) {
		return fmt.Errorf("%w: a dictionary page claims %d values (at least %d bytes) over %d bytes", ErrInvalid, h.numValues, need, h.uncompressed)
	}
	return nil
}

// checkValues checks a data page's counts: a column that does not repeat
// has a value per row, so no more values than the row group's rows; one
// that does is bounded by the limits (a value costs at least its levels,
// 2 bytes each, and a slot of 8).
func checkValues(h pageHeader, leaf Leaf, rows int64, lim Limits) error {
	n := int64(h.numValues)
	if h.typ == pageDataV2 && (int64(h.numNulls) > n || int64(h.numRows) > n || int64(h.numRows) > rows) {
		return fmt.Errorf("%w: %d values, %d nulls, %d rows in a row group of %d rows", ErrInvalid, n, h.numNulls, h.numRows, rows)
	}
	if leaf.MaxRep == 0 {
		if n > rows {
			return fmt.Errorf("%w: %d values in a row group of %d rows (the column does not repeat)", ErrInvalid, n, rows)
		}
		return nil
	}
	if lim.MaxTotal >= 0 && n*10 > lim.MaxTotal {
		return fmt.Errorf("%w: %w: %d values would take more than the %d bytes the reader may allocate (WithMaxTotal)", ErrInvalid, ErrLimit, n, lim.MaxTotal)
	}
	return nil
}

// checkEncoding refuses encodings that do not fit the column.
func checkEncoding(h pageHeader, el Element) error {
	if h.typ == pageDict {
		return nil
	}
	switch h.encoding {
	case encDeltaBinary:
		if el.Physical != typeInt32 && el.Physical != typeInt64 {
			return fmt.Errorf("%w: DELTA_BINARY_PACKED for physical type %d", ErrInvalid, el.Physical)
		}
	case encDeltaLength, encDeltaByteArr:
		if el.Physical != typeBytes && el.Physical != typeFixed {
			return fmt.Errorf("%w: encoding %d for physical type %d", ErrInvalid, h.encoding, el.Physical)
		}
	}
	return nil
}
