package parquetio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
)

// The fast writer: files whose columns are all flat primitives or
// strings (fastColumnOf) are written by our own encoder instead of
// pqarrow's, the column chunks of a row group encoded concurrently. Each
// column chunk is a dictionary page and RLE_DICTIONARY data pages when its
// values are few enough to pay (decided while hashing them: the dictionary
// is abandoned as soon as it grows past a quarter of the chunk's values, or
// when a first sample is all distinct), else PLAIN data pages. Pages are
// version 1 data pages, uncompressed, of about fastPageBytes; every chunk
// carries min/max (min_value/max_value, type-defined order) and its null
// count. The footer is written with our own Thrift compact writer
// (thriftwrite.go) and stores the Arrow schema (ARROW:schema) as
// pqarrow does, so that Read, arrow-go, DuckDB and pyarrow read the same
// columns back.

// fastPageBytes is the rough size of one data page.
const fastPageBytes = 1 << 20

// fastMinPageRows is the fewest rows a data page holds (unless the part
// it comes from has fewer).
const fastMinPageRows = 64

// fastMaxStat is the longest min or max value kept in the statistics of a
// string column (longer ones are left out, as Arrow C++ does).
const fastMaxStat = 4096

// fastSample is the number of values hashed before the dictionary is given
// up for a chunk whose values are all distinct so far.
const fastSample = 4096

// parquet enum values
const (
	ptInt32     = 1
	ptInt64     = 2
	ptFloat     = 4
	ptDouble    = 5
	ptByteArray = 6

	encPlain     = 0
	encRLE       = 3
	encRLEDict   = 8
	pageData     = 0
	pageDict     = 2
	ctUTF8       = 0
	ctDate       = 6
	ctUint8      = 11
	ctUint16     = 12
	ctUint32     = 13
	ctUint64     = 14
	ctInt8       = 15
	ctInt16      = 16
	repRequired  = 0
	repOptional  = 1
	statSigned   = 0
	statUnsigned = 1
	statFloat    = 2
	statBytes    = 3
)

// writeCol is how one column is written.
type writeCol struct {
	name     string
	ptype    int32
	conv     int32 // converted type, -1 none
	logical  func(t *thriftW)
	optional bool
	width    int // bytes of a value: 4, 8, or 0 for byte arrays
	stat     int // statSigned, statUnsigned, statFloat, statBytes
	widen    arrow.Type
}

// fastColumnOf returns how f is written by the fast writer, or false when
// it is not one it writes.
func fastColumnOf(f arrow.Field) (writeCol, bool) {
	c := writeCol{name: f.Name, conv: -1, optional: f.Nullable}
	intLogical := func(bw int8, signed bool) func(t *thriftW) {
		return func(t *thriftW) {
			t.beginField(10)
			t.byteField(1, bw)
			t.boolean(2, signed)
			t.end()
		}
	}
	switch f.Type.ID() {
	case arrow.INT8:
		c.ptype, c.conv, c.logical, c.width, c.widen = ptInt32, ctInt8, intLogical(8, true), 4, arrow.INT8
	case arrow.INT16:
		c.ptype, c.conv, c.logical, c.width, c.widen = ptInt32, ctInt16, intLogical(16, true), 4, arrow.INT16
	case arrow.UINT8:
		c.ptype, c.conv, c.logical, c.width, c.widen = ptInt32, ctUint8, intLogical(8, false), 4, arrow.UINT8
	case arrow.UINT16:
		c.ptype, c.conv, c.logical, c.width, c.widen = ptInt32, ctUint16, intLogical(16, false), 4, arrow.UINT16
	case arrow.INT32:
		c.ptype, c.width = ptInt32, 4
	case arrow.UINT32:
		c.ptype, c.conv, c.logical, c.width, c.stat = ptInt32, ctUint32, intLogical(32, false), 4, statUnsigned
	case arrow.INT64:
		c.ptype, c.width = ptInt64, 8
	case arrow.UINT64:
		c.ptype, c.conv, c.logical, c.width, c.stat = ptInt64, ctUint64, intLogical(64, false), 8, statUnsigned
	case arrow.DATE32:
		c.ptype, c.conv, c.width = ptInt32, ctDate, 4
		c.logical = func(t *thriftW) {
			t.beginField(6)
			t.end()
		}
	case arrow.FLOAT32:
		c.ptype, c.width, c.stat = ptFloat, 4, statFloat
	case arrow.FLOAT64:
		c.ptype, c.width, c.stat = ptDouble, 8, statFloat
	case arrow.STRING:
		c.ptype, c.conv, c.stat = ptByteArray, ctUTF8, statBytes
		c.logical = func(t *thriftW) {
			t.beginField(1)
			t.end()
		}
	case arrow.BINARY:
		c.ptype, c.stat = ptByteArray, statBytes
	default:
		return c, false
	}
	if _, ok := f.Type.(arrow.ExtensionType); ok {
		return c, false
	}
	return c, true
}

// fastColumns returns the fast writer's columns for s, or nil when a
// column is not one it writes.
func fastColumns(s *arrow.Schema) []writeCol {
	cols := make([]writeCol, s.NumFields())
	for i, f := range s.Fields() {
		c, ok := fastColumnOf(f)
		if !ok {
			return nil
		}
		cols[i] = c
	}
	return cols
}

// writeChunk is one encoded column chunk: its bytes (pages with their
// headers) and what the footer says of it.
type writeChunk struct {
	buf        []byte
	dictLen    int // bytes of the dictionary page (header included), 0 without
	numValues  int64
	nulls      int64
	dict       bool
	min, max   []byte
	hasMinMax  bool
	pageCounts [2]int32 // dictionary pages, data pages
	size       int64    // len(buf), kept once buf is written and dropped
}

// fastRowGroup is a row group written: where each chunk went.
type fastRowGroup struct {
	rows   int64
	chunks []writeChunkMeta
}

type writeChunkMeta struct {
	writeChunk
	offset int64 // of the chunk's first byte in the file
}

// fastWriter writes the file.
type fastWriter struct {
	w       io.Writer
	cols    []writeCol
	schema  *arrow.Schema
	workers int
	page    int // bytes of a data page, about
	pos     int64
	groups  []fastRowGroup
	started bool
}

func newFastWriter(w io.Writer, schema *arrow.Schema, cols []writeCol, workers, page int) *fastWriter {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	if page <= 0 {
		page = fastPageBytes
	}
	return &fastWriter{w: w, cols: cols, schema: schema, workers: workers, page: page}
}

func (fw *fastWriter) write(p []byte) error {
	n, err := fw.w.Write(p)
	fw.pos += int64(n)
	if err == nil && n != len(p) {
		err = io.ErrShortWrite
	}
	return err
}

func (fw *fastWriter) start() error {
	if fw.started {
		return nil
	}
	fw.started = true
	return fw.write([]byte("PAR1"))
}

// writeGroup encodes the row group made of parts (records of the writer's
// schema) and writes it.
func (fw *fastWriter) writeGroup(parts []arrow.Record, rows int64) error {
	if err := fw.start(); err != nil {
		return err
	}
	nc := len(fw.cols)
	chunks := make([]writeChunk, nc)
	errs := make([]error, nc)
	done := make([]chan struct{}, nc)
	for i := range done {
		done[i] = make(chan struct{})
	}
	var next atomic.Int64
	var stop atomic.Bool // the caller gave up (a write failed)
	work := func(sc *writeScratch) {
		for {
			i := int(next.Add(1) - 1)
			if i >= nc {
				return
			}
			if !stop.Load() {
				cols := make([]arrow.Array, len(parts))
				for j, p := range parts {
					cols[j] = p.Column(i)
				}
				chunks[i], errs[i] = encodeChunk(&fw.cols[i], cols, sc, fw.page)
			}
			close(done[i])
		}
	}
	// the workers encode the chunks; this goroutine writes each, in order,
	// as soon as it is done
	var wg sync.WaitGroup
	for k := 0; k < min(fw.workers, nc); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(&writeScratch{})
		}()
	}
	defer wg.Wait()
	g := fastRowGroup{rows: rows, chunks: make([]writeChunkMeta, nc)}
	for i := range chunks {
		<-done[i]
		err := errs[i]
		if err != nil {
			err = fmt.Errorf("column %q: %w", fw.cols[i].name, err)
		} else {
			g.chunks[i] = writeChunkMeta{writeChunk: chunks[i], offset: fw.pos}
			err = fw.write(chunks[i].buf)
		}
		chunks[i].buf, g.chunks[i].buf = nil, nil
		if err != nil {
			stop.Store(true)
			return err
		}
	}
	fw.groups = append(fw.groups, g)
	return nil
}

// close writes the footer (and the magic if nothing was written yet).
func (fw *fastWriter) close() error {
	if err := fw.start(); err != nil {
		return err
	}
	footer, err := fw.footer()
	if err != nil {
		return err
	}
	footer = binary.LittleEndian.AppendUint32(footer, uint32(len(footer)))
	footer = append(footer, "PAR1"...)
	return fw.write(footer)
}

func (fw *fastWriter) footer() ([]byte, error) {
	enc, err := encodeSchema(fw.schema)
	if err != nil {
		return nil, fmt.Errorf("%w: storing the schema %v: %w", ErrUnsupported, fw.schema, err)
	}
	var rows int64
	for _, g := range fw.groups {
		rows += g.rows
	}
	t := &thriftW{b: make([]byte, 0, 1024+len(enc))}
	t.begin()
	t.i32(1, 2) // version
	t.list(2, tcStruct, len(fw.cols)+1)
	t.begin()
	t.str(4, "schema")
	t.i32(5, int32(len(fw.cols)))
	t.end()
	for _, c := range fw.cols {
		t.begin()
		t.i32(1, c.ptype)
		rep := int32(repRequired)
		if c.optional {
			rep = repOptional
		}
		t.i32(3, rep)
		t.str(4, c.name)
		if c.conv >= 0 {
			t.i32(6, c.conv)
		}
		if c.logical != nil {
			t.beginField(10)
			c.logical(t)
			t.end()
		}
		t.end()
	}
	t.i64(3, rows)
	t.list(4, tcStruct, len(fw.groups))
	for gi, g := range fw.groups {
		t.begin()
		t.list(1, tcStruct, len(g.chunks))
		var total int64
		for ci, ch := range g.chunks {
			c := &fw.cols[ci]
			t.begin()
			t.i64(2, ch.offset)
			t.beginField(3)
			t.i32(1, c.ptype)
			if ch.dict {
				t.list(2, tcI32, 3)
				t.listI32(encPlain)
				t.listI32(encRLE)
				t.listI32(encRLEDict)
			} else {
				t.list(2, tcI32, 2)
				t.listI32(encPlain)
				t.listI32(encRLE)
			}
			t.list(3, tcBinary, 1)
			t.listStr(c.name)
			t.i32(4, 0) // uncompressed
			t.i64(5, ch.numValues)
			size := ch.size
			t.i64(6, size)
			t.i64(7, size)
			t.i64(9, ch.offset+int64(ch.dictLen))
			if ch.dict {
				t.i64(11, ch.offset)
			}
			t.beginField(12)
			t.i64(3, ch.nulls)
			if ch.hasMinMax {
				t.binary(5, ch.max)
				t.binary(6, ch.min)
			}
			t.end()
			t.end() // ColumnMetaData
			t.end() // ColumnChunk
			total += size
		}
		t.i64(2, total)
		t.i64(3, g.rows)
		if len(g.chunks) > 0 {
			t.i64(5, g.chunks[0].offset)
		}
		t.i64(6, total)
		if gi < math.MaxInt16 {
			t.field(7, tcI16)
			t.zigzag(int64(gi))
		}
		t.end()
	}
	md := fw.schema.Metadata()
	kv := 1
	for _, k := range md.Keys() {
		if k != "ARROW:schema" {
			kv++
		}
	}
	t.list(5, tcStruct, kv)
	for i, k := range md.Keys() {
		if k == "ARROW:schema" {
			continue
		}
		t.begin()
		t.str(1, k)
		t.str(2, md.Values()[i])
		t.end()
	}
	t.begin()
	t.str(1, "ARROW:schema")
	t.str(2, enc)
	t.end()
	t.str(6, "stride0 version 1.0.0")
	t.list(7, tcStruct, len(fw.cols))
	for range fw.cols {
		t.begin()
		t.beginField(1)
		t.end()
		t.end()
	}
	t.end()
	return t.b, nil
}

// writeScratch is a worker's reusable buffers.
type writeScratch struct {
	idx   []uint32 // dictionary indices of the chunk's non-null values
	body  []byte   // a page's body
	u32   []uint32 // widened or compacted values
	u64   []uint64
	valid []byte // a page's validity, bit 0 aligned
	spans []int32
}

// encodeChunk encodes one column chunk from the column's pieces (each
// with its own offset and nulls).
func encodeChunk(c *writeCol, parts []arrow.Array, sc *writeScratch, page int) (ch writeChunk, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: encoding: %v", ErrInvalid, r)
		}
	}()
	var n int64
	for _, p := range parts {
		n += int64(p.Len())
		ch.nulls += int64(p.NullN())
	}
	ch.numValues = n
	if c.width == 0 {
		encodeBytesChunk(c, parts, sc, &ch, page)
	} else if c.width == 4 {
		encodeFixedChunk[uint32](c, parts, sc, &ch, page)
	} else {
		encodeFixedChunk[uint64](c, parts, sc, &ch, page)
	}
	ch.size = int64(len(ch.buf))
	return ch, nil
}

// values32 is the part's values as 32-bit words (widened when the column
// is narrower), all rows (nulls included).
func values32(c *writeCol, a arrow.Array, sc *writeScratch) []uint32 {
	d := a.Data()
	off, n := d.Offset(), d.Len()
	buf := d.Buffers()[1]
	if n == 0 || buf == nil {
		return nil
	}
	b := buf.Bytes()
	switch c.widen {
	case arrow.INT8, arrow.UINT8:
		src := b[off : off+n]
		sc.u32 = grow(sc.u32, n)
		out := sc.u32
		if c.widen == arrow.INT8 {
			for i, v := range src {
				out[i] = uint32(int32(int8(v)))
			}
		} else {
			for i, v := range src {
				out[i] = uint32(v)
			}
		}
		return out
	case arrow.INT16, arrow.UINT16:
		src := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/2)[off : off+n]
		sc.u32 = grow(sc.u32, n)
		out := sc.u32
		if c.widen == arrow.INT16 {
			for i, v := range src {
				out[i] = uint32(int32(int16(v)))
			}
		} else {
			for i, v := range src {
				out[i] = uint32(v)
			}
		}
		return out
	}
	return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)[off : off+n]
}

func values64(a arrow.Array) []uint64 {
	d := a.Data()
	off, n := d.Offset(), d.Len()
	buf := d.Buffers()[1]
	if n == 0 || buf == nil {
		return nil
	}
	b := buf.Bytes()
	return unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/8)[off : off+n]
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// nonNull returns the non-null values of vals (rows of a, whose validity
// it reads), compacted into scratch when a has nulls.
func nonNull[W uint32 | uint64](a arrow.Array, vals []W, scratch *[]W) []W {
	if a.NullN() == 0 {
		return vals
	}
	d := a.Data()
	bm, off := d.Buffers()[0].Bytes(), d.Offset()
	out := (*scratch)[:0]
	for i, v := range vals {
		if bitutil.BitIsSet(bm, off+i) {
			out = append(out, v)
		}
	}
	*scratch = out
	return out
}

// fixedParts returns each part's non-null values, in order.
func fixedParts[W uint32 | uint64](c *writeCol, parts []arrow.Array, sc *writeScratch) [][]W {
	out := make([][]W, len(parts))
	for j, p := range parts {
		var vals []W
		var z W
		if unsafe.Sizeof(z) == 4 {
			v := values32(c, p, sc)
			if c.widen != 0 { // sc.u32 is reused: keep a copy
				v = append([]uint32(nil), v...)
			}
			var comp []uint32
			v = nonNull(p, v, &comp)
			vals = *(*[]W)(unsafe.Pointer(&v))
		} else {
			v := values64(p)
			var comp []uint64
			v = nonNull(p, v, &comp)
			vals = *(*[]W)(unsafe.Pointer(&v))
		}
		out[j] = vals
	}
	return out
}

func hashWord(v uint64) uint64 {
	v ^= v >> 33
	v *= 0xff51afd7ed558ccd
	v ^= v >> 33
	return v
}

// fixedDict hashes vals into a dictionary of distinct words; false when
// the dictionary does not pay (see the top of the file).
type fixedDict[W uint32 | uint64] struct {
	slots []int32 // 0 empty, else index+1
	keys  []W
	shift uint
}

func (d *fixedDict[W]) init(capacity int) {
	size := 1024
	for size < 2*capacity && size < 1<<24 {
		size <<= 1
	}
	d.slots = make([]int32, size)
	d.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

func (d *fixedDict[W]) grow() {
	old := d.keys
	d.slots = make([]int32, 2*len(d.slots))
	d.shift--
	mask := uint64(len(d.slots) - 1)
	for k, v := range old {
		h := hashWord(uint64(v)) >> d.shift
		for d.slots[h] != 0 {
			h = (h + 1) & mask
		}
		d.slots[h] = int32(k + 1)
	}
}

// index adds the values to the dictionary and their indices to idx; it
// stops (false) once the dictionary holds more than limit values.
func (d *fixedDict[W]) index(vals []W, idx []uint32, limit int) bool {
	mask := uint64(len(d.slots) - 1)
	for i, v := range vals {
		h := hashWord(uint64(v)) >> d.shift
		for {
			s := d.slots[h]
			if s == 0 {
				if len(d.keys) >= limit {
					return false
				}
				d.keys = append(d.keys, v)
				k := len(d.keys)
				d.slots[h] = int32(k)
				idx[i] = uint32(k - 1)
				if 2*k > len(d.slots) {
					d.grow()
					mask = uint64(len(d.slots) - 1)
				}
				break
			}
			if d.keys[s-1] == v {
				idx[i] = uint32(s - 1)
				break
			}
			h = (h + 1) & mask
		}
	}
	return true
}

// indexTable is index for values within len(table) of base: table[v-base]
// holds v's index+1, or 0.
func (d *fixedDict[W]) indexTable(vals []W, idx []uint32, limit int, table []int32, base W) bool {
	for i, v := range vals {
		o := uint64(v - base)
		k := table[o]
		if k == 0 {
			if len(d.keys) >= limit {
				return false
			}
			d.keys = append(d.keys, v)
			k = int32(len(d.keys))
			table[o] = k
		}
		idx[i] = uint32(k - 1)
	}
	return true
}

// dictLimit is the most distinct values a chunk of n non-null values may
// have for the dictionary to be used.
func dictLimit(n int) int { return max(n/4, 16) }

func encodeFixedChunk[W uint32 | uint64](c *writeCol, parts []arrow.Array, sc *writeScratch, ch *writeChunk, page int) {
	vals := fixedParts[W](c, parts, sc)
	nv := 0
	for _, v := range vals {
		nv += len(v)
	}
	// integers over a small range are looked up in a table indexed by
	// the value's offset from the least, not hashed
	var signed minMaxState[W]
	var table []int32
	if c.stat != statFloat {
		for _, v := range vals {
			signed.add(&writeCol{stat: statSigned}, v)
		}
		if r := uint64(signed.max - signed.min); signed.have && r < uint64(max(4096, min(nv, 1<<20))) {
			table = make([]int32, r+1)
		}
	}
	// the dictionary
	var dict fixedDict[W]
	useDict := nv > 0
	if useDict {
		sc.idx = grow(sc.idx, nv)
		limit := dictLimit(nv)
		index := dict.index
		if table != nil {
			index = func(v []W, idx []uint32, limit int) bool { return dict.indexTable(v, idx, limit, table, signed.min) }
		} else {
			dict.init(min(limit, 1<<12))
		}
		at := 0
	outer:
		for _, v := range vals {
			for len(v) > 0 {
				k := len(v)
				if at < fastSample {
					k = min(k, fastSample-at)
				}
				if !index(v[:k], sc.idx[at:], limit) {
					useDict = false
					break outer
				}
				at += k
				v = v[k:]
				// a first sample all distinct: plain
				if at == fastSample && nv > 2*fastSample && len(dict.keys) == fastSample {
					useDict = false
					break outer
				}
			}
		}
	}
	// statistics
	switch {
	case useDict:
		fixedMinMax(c, dict.keys, ch)
	case c.stat == statSigned:
		signed.finish(c, ch)
	default:
		var st minMaxState[W]
		for _, v := range vals {
			st.add(c, v)
		}
		st.finish(c, ch)
	}
	var z W
	width := int(unsafe.Sizeof(z))
	rows := int(ch.numValues)
	if useDict {
		ch.dict = true
		bw := max(1, bits.Len(uint(len(dict.keys)-1)))
		ch.buf = make([]byte, 0, len(dict.keys)*width+nv*bw/8+rows/8+64*(2+rows*bw/8/page))
		body := append(sc.body[:0], wordBytes(dict.keys)...)
		ch.buf = appendPageHeader(ch.buf, pageDict, len(body), len(dict.keys), encPlain)
		ch.buf = append(ch.buf, body...)
		ch.dictLen = len(ch.buf)
		ch.pageCounts[0] = 1
		sc.body = body
		pageRows := max(fastMinPageRows, page*8/bw)
		writeDataPages(c, parts, pageRows, sc, ch, func(body []byte, from, to int) []byte {
			body = append(body, byte(bw))
			return appendBitPacked(body, sc.idx[from:to], bw)
		})
		return
	}
	ch.buf = make([]byte, 0, nv*width+rows/8+64*(2+rows*width/page))
	pageRows := max(fastMinPageRows, page/width)
	flat := vals
	writeDataPages(c, parts, pageRows, sc, ch, func(body []byte, from, to int) []byte {
		// from, to count non-null values over all the parts
		for _, v := range flat {
			if from >= len(v) {
				from -= len(v)
				to -= len(v)
				continue
			}
			e := min(to, len(v))
			body = append(body, wordBytes(v[from:e])...)
			to -= e
			from = 0
			if to <= 0 {
				break
			}
		}
		return body
	})
}

func wordBytes[W uint32 | uint64](v []W) []byte {
	if len(v) == 0 {
		return nil
	}
	var z W
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(v))), len(v)*int(unsafe.Sizeof(z)))
}

// minMaxState keeps the min and max of words under the column's order.
type minMaxState[W uint32 | uint64] struct {
	have     bool
	min, max W
}

func (s *minMaxState[W]) add(c *writeCol, vals []W) {
	if len(vals) == 0 {
		return
	}
	var mn, mx W
	var ok bool
	switch c.stat {
	case statUnsigned:
		mn, mx, ok = minMaxUnsigned(vals)
	case statFloat:
		mn, mx, ok = minMaxFloat(vals)
	default:
		mn, mx, ok = minMaxSigned(vals)
	}
	if !ok {
		return
	}
	if !s.have {
		s.min, s.max, s.have = mn, mx, true
		return
	}
	pair := []W{s.min, s.max, mn, mx}
	switch c.stat {
	case statUnsigned:
		s.min, s.max, _ = minMaxUnsigned(pair)
	case statFloat:
		s.min, s.max, _ = minMaxFloat(pair)
	default:
		s.min, s.max, _ = minMaxSigned(pair)
	}
}

func (s *minMaxState[W]) finish(c *writeCol, ch *writeChunk) {
	if !s.have {
		return
	}
	mn, mx := s.min, s.max
	if c.stat == statFloat { // a zero min is -0, a zero max +0
		var z W
		if unsafe.Sizeof(z) == 4 {
			if math.Float32frombits(uint32(mn)) == 0 {
				mn = W(math.Float32bits(float32(math.Copysign(0, -1))))
			}
			if math.Float32frombits(uint32(mx)) == 0 {
				mx = 0
			}
		} else {
			if math.Float64frombits(uint64(mn)) == 0 {
				mn = W(math.Float64bits(math.Copysign(0, -1)))
			}
			if math.Float64frombits(uint64(mx)) == 0 {
				mx = 0
			}
		}
	}
	ch.min = append([]byte(nil), wordBytes([]W{mn})...)
	ch.max = append([]byte(nil), wordBytes([]W{mx})...)
	ch.hasMinMax = true
}

func fixedMinMax[W uint32 | uint64](c *writeCol, keys []W, ch *writeChunk) {
	var st minMaxState[W]
	st.add(c, keys)
	st.finish(c, ch)
}

func minMaxSigned[W uint32 | uint64](v []W) (W, W, bool) {
	var z W
	if unsafe.Sizeof(z) == 4 {
		mn, mx := minMaxInt32(unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(v))), len(v)))
		return W(uint32(mn)), W(uint32(mx)), true
	}
	mn, mx := minMaxInt64(unsafe.Slice((*int64)(unsafe.Pointer(unsafe.SliceData(v))), len(v)))
	return W(uint64(mn)), W(uint64(mx)), true
}

// minMaxInt32 of a non-empty slice, four lanes at a time.
func minMaxInt32(v []int32) (int32, int32) {
	m0, m1, m2, m3 := v[0], v[0], v[0], v[0]
	x0, x1, x2, x3 := v[0], v[0], v[0], v[0]
	i := 0
	for ; i+4 <= len(v); i += 4 {
		q := v[i : i+4 : i+4]
		m0, x0 = min(m0, q[0]), max(x0, q[0])
		m1, x1 = min(m1, q[1]), max(x1, q[1])
		m2, x2 = min(m2, q[2]), max(x2, q[2])
		m3, x3 = min(m3, q[3]), max(x3, q[3])
	}
	for ; i < len(v); i++ {
		m0, x0 = min(m0, v[i]), max(x0, v[i])
	}
	return min(m0, m1, m2, m3), max(x0, x1, x2, x3)
}

// minMaxInt64 of a non-empty slice, four lanes at a time.
func minMaxInt64(v []int64) (int64, int64) {
	m0, m1, m2, m3 := v[0], v[0], v[0], v[0]
	x0, x1, x2, x3 := v[0], v[0], v[0], v[0]
	i := 0
	for ; i+4 <= len(v); i += 4 {
		q := v[i : i+4 : i+4]
		m0, x0 = min(m0, q[0]), max(x0, q[0])
		m1, x1 = min(m1, q[1]), max(x1, q[1])
		m2, x2 = min(m2, q[2]), max(x2, q[2])
		m3, x3 = min(m3, q[3]), max(x3, q[3])
	}
	for ; i < len(v); i++ {
		m0, x0 = min(m0, v[i]), max(x0, v[i])
	}
	return min(m0, m1, m2, m3), max(x0, x1, x2, x3)
}

func minMaxUnsigned[W uint32 | uint64](v []W) (W, W, bool) {
	mn, mx := v[0], v[0]
	for _, w := range v {
		mn = min(mn, w)
		mx = max(mx, w)
	}
	return mn, mx, true
}

// minMaxFloat skips NaNs; false when all are NaN.
func minMaxFloat[W uint32 | uint64](v []W) (W, W, bool) {
	var z W
	if unsafe.Sizeof(z) == 4 {
		var mn, mx float32
		have := false
		for _, w := range v {
			x := math.Float32frombits(uint32(w))
			if x != x {
				continue
			}
			if !have {
				mn, mx, have = x, x, true
				continue
			}
			if x < mn {
				mn = x
			}
			if x > mx {
				mx = x
			}
		}
		return W(math.Float32bits(mn)), W(math.Float32bits(mx)), have
	}
	var mn, mx float64
	have := false
	for _, w := range v {
		x := math.Float64frombits(uint64(w))
		if x != x {
			continue
		}
		if !have {
			mn, mx, have = x, x, true
			continue
		}
		if x < mn {
			mn = x
		}
		if x > mx {
			mx = x
		}
	}
	return W(math.Float64bits(mn)), W(math.Float64bits(mx)), have
}

// writeDataPages cuts the chunk's rows into pages of at most pageRows rows
// (and at part boundaries) and appends each page to ch.buf: its
// definition levels (an optional column) and the values body gives for its
// non-null values from..to (counted over the whole chunk).
func writeDataPages(c *writeCol, parts []arrow.Array, pageRows int, sc *writeScratch, ch *writeChunk, body func(b []byte, from, to int) []byte) {
	at := 0 // non-null values before the page
	wrote := false
	for _, p := range parts {
		n := p.Len()
		for r := 0; r < n || (!wrote && n == 0); r += pageRows {
			e := min(n, r+pageRows)
			rows := e - r
			nn := rows
			b := sc.body[:0]
			if c.optional {
				b, nn = appendDefLevels(b, p, r, rows, sc)
			}
			b = body(b, at, at+nn)
			sc.body = b
			ch.buf = appendPageHeader(ch.buf, pageData, len(b), rows, -1, ch.dict)
			ch.buf = append(ch.buf, b...)
			ch.pageCounts[1]++
			at += nn
			wrote = true
			if n == 0 {
				break
			}
		}
	}
	if !wrote { // no parts: one empty page
		b := sc.body[:0]
		if c.optional {
			b = binary.LittleEndian.AppendUint32(b, 0)
		}
		b = body(b, 0, 0)
		ch.buf = appendPageHeader(ch.buf, pageData, len(b), 0, -1, ch.dict)
		ch.buf = append(ch.buf, b...)
		ch.pageCounts[1]++
	}
}

// appendDefLevels appends the definition levels of rows r..r+rows of p
// (a 4-byte length, then the RLE/bit-packed hybrid of bit width 1) and
// returns the number of non-null rows.
func appendDefLevels(b []byte, p arrow.Array, r, rows int, sc *writeScratch) ([]byte, int) {
	lenAt := len(b)
	b = append(b, 0, 0, 0, 0)
	start := len(b)
	d := p.Data()
	nulls := 0
	if p.NullN() > 0 && rows > 0 {
		bm := d.Buffers()[0].Bytes()
		nb := (rows + 7) / 8
		sc.valid = grow(sc.valid, nb)
		v := sc.valid
		for i := range v {
			v[i] = 0
		}
		bitutil.CopyBitmap(bm, d.Offset()+r, rows, v, 0)
		nulls = rows - bitutil.CountSetBits(v, 0, rows)
	}
	if rows > 0 {
		if nulls == 0 {
			b = binary.AppendUvarint(b, uint64(rows)<<1)
			b = append(b, 1)
		} else {
			b = binary.AppendUvarint(b, uint64((rows+7)/8)<<1|1)
			b = append(b, sc.valid[:(rows+7)/8]...)
		}
	}
	binary.LittleEndian.PutUint32(b[lenAt:], uint32(len(b)-start))
	return b, rows - nulls
}

// appendBitPacked appends vals as one bit-packed run of width bw (1 to
// 32; the last group of 8 padded with zeros).
func appendBitPacked(b []byte, vals []uint32, bw int) []byte {
	if len(vals) == 0 {
		return b
	}
	groups := (len(vals) + 7) / 8
	b = binary.AppendUvarint(b, uint64(groups)<<1|1)
	start := len(b)
	need := groups * bw // bytes: 8 values of bw bits per group
	b = slicesGrow(b, need+8)
	out := b[start : start+need+8]
	pos := 0
	var acc uint64
	nb := 0
	w := uint(bw)
	for _, v := range vals {
		acc |= uint64(v) << uint(nb)
		nb += bw
		if nb >= 64 {
			binary.LittleEndian.PutUint64(out[pos:], acc)
			pos += 8
			nb -= 64
			acc = uint64(v) >> (w - uint(nb)) // the bits that did not fit (0 when none)
		}
	}
	if nb > 0 {
		binary.LittleEndian.PutUint64(out[pos:], acc)
	}
	// the padding values are zeros: the bytes past the last value's are
	// zero (acc's high bits), and those past pos+8 are cut off
	for i := pos + (nb+7)/8; i < need; i++ {
		out[i] = 0
	}
	return b[:start+need]
}

// slicesGrow returns b with room for n more bytes past its length.
func slicesGrow(b []byte, n int) []byte {
	if cap(b)-len(b) >= n {
		return b
	}
	nb := make([]byte, len(b), 2*cap(b)+n)
	copy(nb, b)
	return nb
}

// appendPageHeader appends a PageHeader: a dictionary page of n values
// in encoding enc, or a data page of n values (dict says whether they are
// dictionary indices).
func appendPageHeader(b []byte, typ int32, size, n int, enc int32, dict ...bool) []byte {
	t := thriftW{b: b}
	t.begin()
	t.i32(1, typ)
	t.i32(2, int32(size))
	t.i32(3, int32(size))
	if typ == pageDict {
		t.beginField(7)
		t.i32(1, int32(n))
		t.i32(2, enc)
		t.end()
	} else {
		e := int32(encPlain)
		if len(dict) > 0 && dict[0] {
			e = encRLEDict
		}
		t.beginField(5)
		t.i32(1, int32(n))
		t.i32(2, e)
		t.i32(3, encRLE)
		t.i32(4, encRLE)
		t.end()
	}
	t.end()
	return t.b
}

// bytesDict is a dictionary of byte strings. Strings of at most 16 bytes
// are found through short, which holds them inline (no second memory
// access, no byte comparison); longer ones through slots.
type bytesDict struct {
	short     []shortSlot
	shortUsed int
	longUsed  int
	slots     []int32  // 0 empty, else index+1
	hashes    []uint64 // of the long entries, by index (0 for short ones)
	offs      []int32  // entry k is data[offs[k]:offs[k+1]]
	data      []byte
	shift     uint
}

func hashBytes(b []byte) uint64 {
	h := uint64(len(b)) * 0x9E3779B97F4A7C15
	for len(b) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(b)) * 0xff51afd7ed558ccd
		h ^= h >> 29
		b = b[8:]
	}
	var t uint64
	for i, x := range b {
		t |= uint64(x) << (8 * i)
	}
	h = (h ^ t) * 0xff51afd7ed558ccd
	h ^= h >> 32
	return hashWord(h)
}

// shortSlot is a string of at most 16 bytes, little-endian in lo and hi,
// and its entry index+1 (0: empty).
type shortSlot struct {
	lo, hi uint64
	n      uint32
	k      int32
}

// load16 returns the bytes of v (at most 16) as two little-endian words,
// zero beyond len(v).
func load16(v []byte) (lo, hi uint64) {
	n := len(v)
	switch {
	case n >= 16:
		return binary.LittleEndian.Uint64(v), binary.LittleEndian.Uint64(v[8:])
	case n >= 8:
		lo = binary.LittleEndian.Uint64(v)
		v = v[8:]
	}
	if cap(v) >= 8 { // the buffer goes on: one load, masked
		t := binary.LittleEndian.Uint64(v[:8:8]) & (1<<(8*uint(len(v))) - 1)
		if n >= 8 {
			return lo, t
		}
		return t, 0
	}
	var t uint64
	for i, c := range v {
		t |= uint64(c) << (8 * i)
	}
	if n >= 8 {
		return lo, t
	}
	return t, 0
}

// addShort is add for len(v) <= 16.
func (d *bytesDict) addShort(v []byte, limit int) int32 {
	lo, hi := load16(v)
	n := uint32(len(v))
	h := hashWord(lo*0x9E3779B97F4A7C15 ^ hi ^ uint64(n)<<56)
	mask := uint64(len(d.short) - 1)
	s := h & mask
	for {
		e := &d.short[s]
		if e.k == 0 {
			break
		}
		if e.lo == lo && e.hi == hi && e.n == n {
			return e.k - 1
		}
		s = (s + 1) & mask
	}
	if len(d.hashes) >= limit {
		return -1
	}
	d.hashes = append(d.hashes, 0)
	d.data = append(d.data, v...)
	d.offs = append(d.offs, int32(len(d.data)))
	k := int32(len(d.hashes))
	d.short[s] = shortSlot{lo: lo, hi: hi, n: n, k: k}
	d.shortUsed++
	if 2*d.shortUsed > len(d.short) {
		old := d.short
		d.short = make([]shortSlot, 2*len(old))
		mask = uint64(len(d.short) - 1)
		for _, e := range old {
			if e.k == 0 {
				continue
			}
			s := hashWord(e.lo*0x9E3779B97F4A7C15^e.hi^uint64(e.n)<<56) & mask
			for d.short[s].k != 0 {
				s = (s + 1) & mask
			}
			d.short[s] = e
		}
	}
	return k - 1
}

func (d *bytesDict) init() {
	d.short = make([]shortSlot, 1024)
	d.slots = make([]int32, 1024)
	d.shift = 64 - 10
	d.offs = append(d.offs[:0], 0)
}

func (d *bytesDict) entry(k int) []byte { return d.data[d.offs[k]:d.offs[k+1]] }

func (d *bytesDict) grow() {
	d.slots = make([]int32, 2*len(d.slots))
	d.shift--
	mask := uint64(len(d.slots) - 1)
	for k, h := range d.hashes {
		if k >= len(d.offs)-1 || d.offs[k+1]-d.offs[k] <= 16 {
			continue // a short entry
		}
		s := h >> d.shift
		for d.slots[s] != 0 {
			s = (s + 1) & mask
		}
		d.slots[s] = int32(k + 1)
	}
}

// add returns v's index, adding it; -1 when that would pass limit entries.
func (d *bytesDict) add(v []byte, limit int) int32 {
	if len(v) <= 16 {
		return d.addShort(v, limit)
	}
	h := hashBytes(v)
	mask := uint64(len(d.slots) - 1)
	s := h >> d.shift
	for {
		k := d.slots[s]
		if k == 0 {
			break
		}
		if d.hashes[k-1] == h && bytes.Equal(d.entry(int(k-1)), v) {
			return k - 1
		}
		s = (s + 1) & mask
	}
	if len(d.hashes) >= limit {
		return -1
	}
	d.hashes = append(d.hashes, h)
	d.data = append(d.data, v...)
	d.offs = append(d.offs, int32(len(d.data)))
	k := len(d.hashes)
	d.slots[s] = int32(k)
	d.longUsed++
	if 2*d.longUsed > len(d.slots) {
		d.grow()
	}
	return int32(k - 1)
}

// bytesView is a part of a string or binary column.
type bytesView struct {
	offs  []int32 // rows+1
	data  []byte
	valid []byte // nil without nulls
	voff  int    // bit offset of row 0 in valid
}

func viewBytes(a arrow.Array) bytesView {
	d := a.Data()
	var v bytesView
	n, off := d.Len(), d.Offset()
	if n == 0 {
		return v
	}
	ob := d.Buffers()[1].Bytes()
	v.offs = unsafe.Slice((*int32)(unsafe.Pointer(unsafe.SliceData(ob))), len(ob)/4)[off : off+n+1]
	if b := d.Buffers()[2]; b != nil {
		v.data = b.Bytes()
	}
	if a.NullN() > 0 {
		v.valid, v.voff = d.Buffers()[0].Bytes(), off
	}
	return v
}

func (v *bytesView) ok(i int) bool { return v.valid == nil || bitutil.BitIsSet(v.valid, v.voff+i) }

func encodeBytesChunk(c *writeCol, parts []arrow.Array, sc *writeScratch, ch *writeChunk, page int) {
	views := make([]bytesView, len(parts))
	nv := 0
	for j, p := range parts {
		views[j] = viewBytes(p)
		nv += p.Len() - p.NullN()
	}
	var dict bytesDict
	useDict := nv > 0
	if useDict {
		dict.init()
		sc.idx = grow(sc.idx, nv)
		limit := dictLimit(nv)
		at := 0
	outer:
		for j := range views {
			v := &views[j]
			for i := 0; i+1 < len(v.offs); i++ {
				if !v.ok(i) {
					continue
				}
				k := dict.add(v.data[v.offs[i]:v.offs[i+1]], limit)
				if k < 0 || (at == fastSample-1 && nv > 2*fastSample && len(dict.hashes) == fastSample) {
					useDict = false
					break outer
				}
				sc.idx[at] = uint32(k)
				at++
			}
		}
	}
	// statistics
	var mn, mx []byte
	have := false
	see := func(b []byte) {
		if !have {
			mn, mx, have = b, b, true
			return
		}
		if bytes.Compare(b, mn) < 0 {
			mn = b
		} else if bytes.Compare(b, mx) > 0 {
			mx = b
		}
	}
	if useDict {
		for k := range dict.hashes {
			see(dict.entry(k))
		}
	} else {
		for j := range views {
			v := &views[j]
			for i := 0; i+1 < len(v.offs); i++ {
				if v.ok(i) {
					see(v.data[v.offs[i]:v.offs[i+1]])
				}
			}
		}
	}
	if have && len(mn) <= fastMaxStat && len(mx) <= fastMaxStat {
		ch.min, ch.max, ch.hasMinMax = append([]byte{}, mn...), append([]byte{}, mx...), true
	}
	rows := int(ch.numValues)
	if useDict {
		ch.dict = true
		bw := max(1, bits.Len(uint(len(dict.hashes)-1)))
		ch.buf = make([]byte, 0, len(dict.data)+4*len(dict.hashes)+nv*bw/8+rows/8+64*(2+rows*bw/8/page))
		body := sc.body[:0]
		for k := range dict.hashes {
			e := dict.entry(k)
			body = binary.LittleEndian.AppendUint32(body, uint32(len(e)))
			body = append(body, e...)
		}
		ch.buf = appendPageHeader(ch.buf, pageDict, len(body), len(dict.hashes), encPlain)
		ch.buf = append(ch.buf, body...)
		ch.dictLen = len(ch.buf)
		ch.pageCounts[0] = 1
		sc.body = body
		pageRows := max(fastMinPageRows, page*8/bw)
		writeDataPages(c, parts, pageRows, sc, ch, func(body []byte, from, to int) []byte {
			body = append(body, byte(bw))
			return appendBitPacked(body, sc.idx[from:to], bw)
		})
		return
	}
	var total int64
	for j := range views {
		if v := &views[j]; len(v.offs) > 0 {
			total += int64(v.offs[len(v.offs)-1] - v.offs[0])
		}
	}
	ch.buf = make([]byte, 0, int(total)+4*nv+rows/8+64*(2+int(total)/page))
	avg := int(total/int64(max(1, nv))) + 4
	pageRows := max(fastMinPageRows, page/avg)
	// pages never span parts, so the page's values are those of its part
	// from the part's first non-null value on: track where each page is.
	pj, pi := 0, 0 // the next row to look at: part, row in it
	writeDataPages(c, parts, pageRows, sc, ch, func(body []byte, from, to int) []byte {
		// called page after page: from is where the last call stopped
		for k := from; k < to; {
			v := &views[pj]
			if pi >= len(v.offs)-1 {
				pj, pi = pj+1, 0
				continue
			}
			if v.ok(pi) {
				e := v.data[v.offs[pi]:v.offs[pi+1]]
				body = binary.LittleEndian.AppendUint32(body, uint32(len(e)))
				body = append(body, e...)
				k++
			}
			pi++
		}
		return body
	})
}

// fastParts reports whether parts can be written as they are (else they
// are concatenated first: pages never span parts, and small parts would
// make small pages).
func fastParts(parts []arrow.Record, rows int64) bool {
	return len(parts) <= 1 || rows/int64(len(parts)) >= 8192
}
