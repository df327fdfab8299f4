// Package pqbomb builds small hostile Parquet files by hand (the Thrift of
// their page headers and footer written directly): each claims a size that
// a reader which believes it allocates far beyond the file, or a schema
// deep enough to take a naive reader quadratic time. Tests, fuzz seeds and
// cmd/probe share them.
package pqbomb

import (
	"encoding/binary"
	"math"
)

// Bomb is one hostile file.
type Bomb struct {
	Name, Title string
	Data        []byte
}

// Codecs, page types and encodings of the Parquet format.
const (
	codecNone   = 0
	codecSnappy = 1
	codecGzip   = 2
	codecZstd   = 6

	pageData   = 0
	pageDict   = 2
	pageDataV2 = 3

	encPlain       = 0
	encRLE         = 3
	encDeltaBinary = 5
	encDeltaLength = 6
	encRLEDict     = 8
)

// Page is one page of a column chunk, its header's claims given directly.
type Page struct {
	Type                     int32
	Uncompressed, Compressed int32 // -1: len(Body) (0 is 0)
	NumValues                int32
	Encoding                 int32
	DefLen, RepLen           int32 // version 2 pages
	Body                     []byte
}

func (p Page) header() []byte {
	t := newW()
	t.begin(0)
	t.i32(1, p.Type)
	u, c := p.Uncompressed, p.Compressed
	if u < 0 {
		u = int32(len(p.Body))
	}
	if c < 0 {
		c = int32(len(p.Body))
	}
	t.i32(2, u)
	t.i32(3, c)
	switch p.Type {
	case pageData:
		t.begin(5)
		t.i32(1, p.NumValues)
		t.i32(2, p.Encoding)
		t.i32(3, encRLE)
		t.i32(4, encRLE)
		t.end()
	case pageDict:
		t.begin(7)
		t.i32(1, p.NumValues)
		t.i32(2, p.Encoding)
		t.end()
	case pageDataV2:
		t.begin(8)
		t.i32(1, p.NumValues)
		t.i32(2, 0)
		t.i32(3, p.NumValues)
		t.i32(4, p.Encoding)
		t.i32(5, p.DefLen)
		t.i32(6, p.RepLen)
		t.end()
	}
	t.end()
	return t.b
}

// File writes a Parquet file of one required column "x" of physical type
// phys (INT32 1, INT64 2, BYTE_ARRAY 6), rows rows in one row group, whose
// column chunk (codec codec) holds pages.
func File(phys, codec int32, rows int64, pages ...Page) []byte {
	return FileOf(Col{Phys: phys, Codec: codec, NumValues: -1}, rows, pages...)
}

func footer(out, meta []byte) []byte {
	out = append(out, meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, "PAR1"...)
}

// Deep writes a file whose schema nests levels groups (each the only child
// of the one above) over one INT32 leaf, with no row groups.
func Deep(levels int) []byte {
	t := newW()
	t.begin(0)
	t.i32(1, 1)
	t.list(2, 12, levels+2)
	t.begin(0)
	t.str(4, "schema")
	t.i32(5, 1)
	t.end()
	for i := 0; i < levels; i++ {
		t.begin(0)
		t.i32(3, 1)
		t.str(4, "g")
		t.i32(5, 1)
		t.end()
	}
	t.begin(0)
	t.i32(1, 1)
	t.i32(3, 1)
	t.str(4, "x")
	t.end()
	t.i64(3, 0)
	t.list(4, 12, 0)
	t.end()
	return footer([]byte("PAR1"), t.b)
}

// zstdFrame is a zstd frame header claiming fcs bytes (an 8-byte content
// size, a 1 KiB window: a decoder that checks the window alone lets it
// through) and one last RLE block of n bytes of 0.
func zstdFrame(fcs uint64, n uint32) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0xc0, 0x00}
	b = binary.LittleEndian.AppendUint64(b, fcs)
	h := n<<3 | 1<<1 | 1 // RLE, last
	return append(b, byte(h), byte(h>>8), byte(h>>16), 0)
}

// Bombs returns the hostile files of issue 17 item 9 and their siblings
// (new ones go at the end: cmd/probe numbers them in this order).
func Bombs() []Bomb {
	ints := make([]byte, 8) // two INT32 values
	return []Bomb{
		{"zstd-fcs", "a zstd frame whose content size claims 60 GiB",
			File(1, codecZstd, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: zstdFrame(60<<30, 8)})},
		{"zstd-rle", "zstd frames without a content size whose RLE blocks regenerate 1 GiB",
			File(1, codecZstd, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: zstdNoFCS(8192)})},
		{"snappy-len", "a snappy block length of 0xFFFFFFFF",
			File(1, codecSnappy, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: []byte{0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0, 0}})},
		{"dict-count", "a dictionary page claiming 2^31-1 values over an 8-byte body",
			File(1, codecNone, 2,
				Page{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: math.MaxInt32, Encoding: encPlain, Body: ints},
				Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encRLEDict, Body: []byte{1, 2, 0}})},
		{"page-size", "a page whose compressed_page_size is 2^31-1",
			File(1, codecNone, 2, Page{Type: pageData, Uncompressed: 8, Compressed: math.MaxInt32, NumValues: 2, Body: ints})},
		{"page-usize", "a page whose uncompressed_page_size is 2^31-1 over a snappy body",
			File(1, codecSnappy, 2, Page{Type: pageData, Uncompressed: math.MaxInt32, Compressed: -1, NumValues: 2, Body: []byte{0xff, 0xff, 0xff, 0xff, 0x07, 0}})},
		{"v2-levels", "a version 2 page whose level lengths claim 2^31-1 bytes",
			File(1, codecNone, 2, Page{Type: pageDataV2, Uncompressed: -1, Compressed: -1, NumValues: 2, DefLen: math.MaxInt32, Body: ints})},
		{"values", "a data page claiming 2^31-1 values in a row group of 2 rows",
			File(1, codecNone, 2, Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: math.MaxInt32, Body: ints})},
		{"delta-block", "a DELTA_BINARY_PACKED page whose block size claims 2^32-128 values per miniblock",
			File(1, codecNone, 2, Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encDeltaBinary, Body: deltaHeader(1<<32-128, 1, 2)})},
		{"delta-total", "a DELTA_LENGTH_BYTE_ARRAY page whose lengths claim 2^40 values",
			File(6, codecNone, 2, Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encDeltaLength, Body: deltaHeader(128, 4, 1<<40)})},
		{"gzip-empty", "an empty page (uncompressed_page_size 0) whose gzip body inflates to 64 MiB",
			File(1, codecGzip, 2,
				Page{Type: pageData, Uncompressed: 0, Compressed: -1, NumValues: 0, Body: gzipZeros(64 << 20)},
				Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: gzipZeros(8)})},
		{"deep-schema", "a schema of 20,000 nested groups",
			Deep(20000)},
		{"snappy-ratio", "a snappy page of 512 MiB from a 6-byte body (within the default limits)",
			File(1, codecSnappy, 2, Page{Type: pageData, Uncompressed: 1 << 29, Compressed: -1, NumValues: 2, Encoding: encDeltaBinary, Body: []byte{0x80, 0x80, 0x80, 0x80, 0x02, 0}})},
	}
}

// zstdNoFCS is a zstd frame without a content size of n last-less RLE
// blocks of 128 KiB each (and a last empty raw block).
func zstdNoFCS(n int) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58} // no FCS, a 2 MiB window
	h := uint32(128<<10)<<3 | 1<<1                  // RLE, not last
	for i := 0; i < n; i++ {
		b = append(b, byte(h), byte(h>>8), byte(h>>16), 0)
	}
	return append(b, 1, 0, 0) // raw, last, empty
}

// deltaHeader is a DELTA_BINARY_PACKED header: block size, miniblocks per
// block, total values, first value 0.
func deltaHeader(block, minis, total uint64) []byte {
	b := binary.AppendUvarint(nil, block)
	b = binary.AppendUvarint(b, minis)
	b = binary.AppendUvarint(b, total)
	return append(b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
}

// Valid returns small well-formed files written by hand (the shapes of the
// bombs, with honest sizes), for fuzz seeds.
func Valid() [][]byte {
	ints := []byte{1, 0, 0, 0, 2, 0, 0, 0}
	return [][]byte{
		File(1, codecNone, 2, Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 2, Body: ints}),
		File(1, codecNone, 2,
			Page{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encPlain, Body: ints},
			Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encRLEDict, Body: []byte{1, 3, 0b10}}),
		File(1, codecNone, 2, Page{Type: pageDataV2, Uncompressed: -1, Compressed: -1, NumValues: 2, Body: ints}),
		File(1, codecZstd, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: zstdFrame(8, 8)}),
		File(1, codecGzip, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: gzipZeros(8)}),
		Deep(3),
	}
}
