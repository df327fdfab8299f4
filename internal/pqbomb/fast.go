package pqbomb

import "encoding/binary"

// Col is the one column of a file FileOf writes: its physical type (INT32
// 1, INT64 2, DOUBLE 5, BYTE_ARRAY 6), whether it is optional (maximum
// definition level 1), whether a BYTE_ARRAY is a string (the UTF8
// converted type), and its codec.
type Col struct {
	Phys     int32
	Optional bool
	String   bool
	Codec    int32
	// NumValues is the footer's num_values for the chunk; -1: the sum of
	// the data pages' values (what an honest writer says).
	NumValues int64
}

// FileOf writes a Parquet file of one top-level column "x" described by
// c, rows rows in one row group, whose chunk holds pages. Unlike File,
// the column may be optional or a string, and num_values may lie: the
// files pqdecode (the fast reader) reads.
func FileOf(c Col, rows int64, pages ...Page) []byte {
	return FileGroups(c, []Group{{Rows: rows, Pages: pages}})
}

// Group is one row group of FileGroups: its rows and its chunk's pages.
type Group struct {
	Rows  int64
	Pages []Page
}

// FileGroups writes a file of one column c over row groups groups (each
// chunk's num_values as c.NumValues says).
func FileGroups(c Col, groups []Group) []byte {
	out := []byte("PAR1")
	type meta struct{ start, dictAt, dataAt, values, size int64 }
	metas := make([]meta, len(groups))
	var rows int64
	for gi, g := range groups {
		m := meta{start: int64(len(out)), dataAt: -1}
		for _, p := range g.Pages {
			if p.Type == pageDict && m.dictAt == 0 {
				m.dictAt = int64(len(out))
			}
			if p.Type != pageDict && m.dataAt < 0 {
				m.dataAt = int64(len(out))
			}
			if p.Type != pageDict {
				m.values += int64(p.NumValues)
			}
			out = append(out, p.header()...)
			out = append(out, p.Body...)
		}
		if m.dataAt < 0 {
			m.dataAt = m.start
		}
		if c.NumValues >= 0 {
			m.values = c.NumValues
		}
		m.size = int64(len(out)) - m.start
		metas[gi] = m
		rows += g.Rows
	}
	t := newW()
	t.begin(0)
	t.i32(1, 1)
	t.list(2, 12, 2)
	t.begin(0)
	t.str(4, "schema")
	t.i32(5, 1)
	t.end()
	t.begin(0)
	t.i32(1, c.Phys)
	rep := int32(0)
	if c.Optional {
		rep = 1
	}
	t.i32(3, rep)
	t.str(4, "x")
	if c.String {
		t.i32(6, 0) // UTF8
	}
	t.end()
	t.i64(3, rows)
	t.list(4, 12, len(groups))
	for gi, g := range groups {
		m := metas[gi]
		t.begin(0) // RowGroup
		t.list(1, 12, 1)
		t.begin(0) // ColumnChunk
		t.i64(2, m.start)
		t.begin(3) // ColumnMetaData
		t.i32(1, c.Phys)
		t.list(2, 5, 1)
		t.zigzag(encPlain)
		t.list(3, 8, 1)
		t.b = append(t.b, 1, 'x')
		t.i32(4, c.Codec)
		t.i64(5, m.values)
		t.i64(6, m.size)
		t.i64(7, m.size)
		t.i64(9, m.dataAt)
		if m.dictAt > 0 {
			t.i64(11, m.dictAt)
		}
		t.end()
		t.end()
		t.i64(2, m.size)
		t.i64(3, g.Rows)
		t.end()
	}
	t.end()
	return footer(out, t.b)
}

// Levels is a version 1 page's definition levels (bit width 1) for
// valid: the 4-byte length, then one bit-packed run.
func Levels(valid []bool) []byte {
	groups := (len(valid) + 7) / 8
	run := binary.AppendUvarint(nil, uint64(groups)<<1|1)
	bits := make([]byte, groups)
	for i, v := range valid {
		if v {
			bits[i/8] |= 1 << (i % 8)
		}
	}
	run = append(run, bits...)
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(run))), run...)
}

// RLE is one RLE run of n copies of v, of bit width bw (the run's value
// takes (bw+7)/8 bytes).
func RLE(n uint64, v uint32, bw int) []byte {
	b := binary.AppendUvarint(nil, n<<1)
	for j := 0; j < (bw+7)/8; j++ {
		b = append(b, byte(v>>(8*j)))
	}
	return b
}

// Strings is the PLAIN encoding of byte arrays.
func Strings(vals ...string) []byte {
	var b []byte
	for _, v := range vals {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
		b = append(b, v...)
	}
	return b
}

func cat(bs ...[]byte) []byte {
	var out []byte
	for _, b := range bs {
		out = append(out, b...)
	}
	return out
}

func all(n int, v bool) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = v
	}
	return out
}

// FastBombs returns hostile files of the shapes the fast reader
// (pqdecode) decodes, whose page headers and codec frames pass pqscan's
// checks, so that what is wrong is found by the decoder itself: each
// fails with ErrInvalid, none reads outside its bytes or allocates more
// than the limits (their counts are small, or lie about what the bytes
// hold). New ones go at the end (cmd/probe numbers them in this order).
func FastBombs() []Bomb {
	i32 := Col{Phys: 1, NumValues: -1}
	opt := Col{Phys: 1, Optional: true, NumValues: -1}
	str := Col{Phys: 6, Optional: true, String: true, NumValues: -1}
	i64 := Col{Phys: 2, NumValues: -1}
	dict2 := Page{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encPlain, Body: make([]byte, 8)}
	sdict := Page{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encPlain, Body: Strings("a", "bb")}
	data := func(n int32, enc int32, body []byte) Page {
		return Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: n, Encoding: enc, Body: body}
	}
	v2 := func(n int32, enc int32, defLen int32, body []byte) Page {
		return Page{Type: pageDataV2, Uncompressed: -1, Compressed: -1, NumValues: n, Encoding: enc, DefLen: defLen, Body: body}
	}
	zlie := i32
	zlie.Codec, zlie.NumValues = codecZstd, 0
	gz := i32
	gz.Codec = codecGzip
	sn := i32
	sn.Codec = codecSnappy
	zs := i32
	zs.Codec = codecZstd
	lieRows := opt
	lieRows.NumValues = 2
	return []Bomb{
		{"fast-levels-run", "definition levels whose bit-packed run claims 2^40 groups in 3 bytes",
			FileOf(opt, 16, data(16, encPlain, cat([]byte{3, 0, 0, 0}, binary.AppendUvarint(nil, 1<<41|1), make([]byte, 64))))},
		{"fast-level-value", "a definition level of 2 in a column of maximum level 1",
			FileOf(opt, 4, data(4, encPlain, cat([]byte{2, 0, 0, 0}, RLE(4, 2, 1), make([]byte, 16))))},
		{"fast-levels-length", "version 1 definition levels whose length claims 2^31 bytes",
			FileOf(opt, 4, data(4, encPlain, cat([]byte{0, 0, 0, 0x80}, RLE(4, 1, 1), make([]byte, 16))))},
		{"fast-dict-index", "a dictionary index of 5 in a dictionary of 2 values",
			FileOf(i32, 4, dict2, data(4, encRLEDict, cat([]byte{3}, RLE(4, 5, 3))))},
		{"fast-bit-width-33", "dictionary indices of bit width 33",
			FileOf(i32, 4, dict2, data(4, encRLEDict, cat([]byte{33}, RLE(4, 0, 33))))},
		{"fast-bit-width-255", "dictionary indices of bit width 255 (a bit-packed run of 2^20 groups)",
			FileOf(i32, 4, dict2, data(4, encRLEDict, cat([]byte{255}, binary.AppendUvarint(nil, 1<<21|1), make([]byte, 32))))},
		{"fast-no-dict", "dictionary indices without a dictionary page",
			FileOf(i32, 4, data(4, encRLEDict, cat([]byte{1}, RLE(4, 0, 1))))},
		{"fast-two-dicts", "two dictionary pages",
			FileOf(i32, 4, dict2, dict2, data(4, encRLEDict, cat([]byte{1}, RLE(4, 0, 1))))},
		{"fast-dict-after-data", "a dictionary page after a data page",
			FileOf(i32, 4, data(2, encPlain, make([]byte, 8)), dict2, data(2, encRLEDict, cat([]byte{1}, RLE(2, 0, 1))))},
		{"fast-indices-short", "a page of 2^20 dictionary indices whose runs hold 8",
			FileOf(i32, 1<<20, dict2, data(1<<20, encRLEDict, cat([]byte{1}, RLE(8, 0, 1))))},
		{"fast-plain-short", "a PLAIN INT64 page of 2^16 values over 8 bytes",
			FileOf(i64, 1<<16, data(1<<16, encPlain, make([]byte, 8)))},
		{"fast-string-length", "a PLAIN string whose length claims 2^31-1 bytes",
			FileOf(str, 2, data(2, encPlain, cat(Levels(all(2, true)), []byte{0xff, 0xff, 0xff, 0x7f}, make([]byte, 12))))},
		{"fast-string-index", "a string dictionary index past its 2 values",
			FileOf(str, 3, sdict, data(3, encRLEDict, cat(Levels(all(3, true)), []byte{2}, RLE(3, 3, 2))))},
		{"fast-dict-strings-short", "a string dictionary page of 2 values whose second runs past the page",
			FileOf(str, 2, Page{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encPlain, Body: Strings("a", "bb")[:8]},
				data(2, encRLEDict, cat(Levels(all(2, true)), []byte{1}, RLE(2, 1, 1))))},
		{"fast-v2-levels", "a version 2 page whose definition levels run past their bytes",
			FileOf(opt, 8, v2(8, encPlain, 2, cat(binary.AppendUvarint(nil, 8<<1|1), make([]byte, 32))))},
		{"fast-v2-required-levels", "definition levels in a version 2 page of a required column",
			FileOf(i32, 2, v2(2, encPlain, 2, cat(RLE(2, 1, 1), make([]byte, 8))))},
		{"fast-num-values", "num_values 0 for a chunk of 2 rows, its page a zstd frame regenerating 1 GiB that pqscan skips",
			FileOf(zlie, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: zstdNoFCS(8192)})},
		{"fast-gzip-long", "a gzip page of 8 bytes that inflates to 1 MiB",
			FileOf(gz, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: gzipZeros(1 << 20)})},
		{"fast-gzip-short", "a gzip page claiming 64 bytes that inflates to 8",
			FileOf(gz, 2, Page{Type: pageData, Uncompressed: 64, Compressed: -1, NumValues: 2, Body: gzipZeros(8)})},
		{"fast-snappy-corrupt", "a snappy page whose length says 8 and whose body copies from before its start",
			FileOf(sn, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: []byte{8, 0x01 | 4<<2, 0xff}})},
		{"fast-zstd-short", "a zstd page without a content size that inflates to 4 of the 8 bytes claimed",
			FileOf(zs, 2, Page{Type: pageData, Uncompressed: 8, Compressed: -1, NumValues: 2, Body: zstdRaw(4)})},
		{"fast-rows-chunk", "a row group of 2^30 rows whose chunk (num_values 2) holds 2",
			FileOf(lieRows, 1<<30, data(2, encPlain, cat(Levels(all(2, true)), make([]byte, 8))))},
		{"fast-groups-rows", "two row groups of 2 rows whose second chunk holds 1",
			FileGroups(i32, []Group{{Rows: 2, Pages: []Page{data(2, encPlain, make([]byte, 8))}}, {Rows: 2, Pages: []Page{data(1, encPlain, make([]byte, 4))}}})},
	}
}

// zstdRaw is a zstd frame without a content size holding one raw block of
// n zeros.
func zstdRaw(n int) []byte {
	b := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x58}
	h := uint32(n)<<3 | 1 // raw, last
	b = append(b, byte(h), byte(h>>8), byte(h>>16))
	return append(b, make([]byte, n)...)
}

// FastValid returns small well-formed files of the shapes FastBombs
// lies in (with honest sizes), which the fast reader reads: an optional
// INT32 column with nulls, PLAIN and dictionary pages, an optional string
// column with a dictionary, a version 2 page, two row groups.
func FastValid() [][]byte {
	opt := Col{Phys: 1, Optional: true, NumValues: -1}
	str := Col{Phys: 6, Optional: true, String: true, NumValues: -1}
	i32 := Col{Phys: 1, NumValues: -1}
	valid := []bool{true, false, true, true}
	return [][]byte{
		FileOf(opt, 4, Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 4, Encoding: encPlain, Body: cat(Levels(valid), make([]byte, 12))}),
		FileOf(str, 4,
			Page{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encPlain, Body: Strings("a", "bb")},
			Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 4, Encoding: encRLEDict, Body: cat(Levels(valid), []byte{1}, RLE(3, 1, 1))}),
		FileOf(str, 4, Page{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 4, Encoding: encPlain, Body: cat(Levels(valid), Strings("x", "", "a string of more than sixteen bytes"))}),
		FileOf(opt, 8, Page{Type: pageDataV2, Uncompressed: -1, Compressed: -1, NumValues: 8, Encoding: encPlain, DefLen: 2, Body: cat(RLE(8, 1, 1), make([]byte, 32))}),
		FileGroups(i32, []Group{
			{Rows: 2, Pages: []Page{{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 2, Encoding: encPlain, Body: make([]byte, 8)}}},
			{Rows: 3, Pages: []Page{{Type: pageDict, Uncompressed: -1, Compressed: -1, NumValues: 1, Encoding: encPlain, Body: []byte{9, 0, 0, 0}},
				{Type: pageData, Uncompressed: -1, Compressed: -1, NumValues: 3, Encoding: encRLEDict, Body: cat([]byte{0}, RLE(3, 0, 0))}}},
		}),
	}
}
