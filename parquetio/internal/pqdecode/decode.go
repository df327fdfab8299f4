// Package pqdecode decodes the column chunks of the common flat case of
// Parquet straight into Arrow buffers: a top-level column that is required
// or optional (definition level at most 1, no repetition) of physical type
// BOOLEAN, INT32, INT64, FLOAT, DOUBLE or BYTE_ARRAY, in PLAIN or
// dictionary-encoded (PLAIN_DICTIONARY, RLE_DICTIONARY) version 1 and 2
// data pages, uncompressed or compressed with snappy, gzip or zstd.
// Anything else returns ErrFallback, and the caller decodes the chunk
// another way (arrow-go's pqarrow).
//
// Every count and length read from the bytes is checked against the bytes
// there are and the chunk's rows before it is used, and every buffer of
// the result comes from the caller's allocator (the scratch space of a
// Decoder is Go memory reused from chunk to chunk, bounded by MaxBuffer).
// Malformed input fails with an error wrapping ErrInvalid, never a panic.
package pqdecode

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/golang/snappy"

	"github.com/stride0/stride0/internal/readlimit"
	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

var (
	// ErrFallback: the chunk uses something this package does not decode
	// (an encoding, a codec, a type); nothing was returned or kept.
	ErrFallback = errors.New("pqdecode: not a case this decoder handles")
	// ErrInvalid: the chunk's bytes are malformed.
	ErrInvalid = errors.New("invalid Parquet column chunk")
	// ErrLimit: a buffer over the limits (Spec.MaxBuffer); such errors
	// also wrap ErrInvalid. It is readlimit's (and so arrowio's and
	// parquetio's) ErrLimit.
	ErrLimit = readlimit.ErrLimit
)

// Spec describes the column chunk to decode.
type Spec struct {
	// Physical is the leaf's physical type (pqscan.Type*).
	Physical int32
	// Optional says the leaf's maximum definition level is 1 (else 0).
	Optional bool
	// Codec is the chunk's compression codec (pqscan.Codec*).
	Codec int32
	// Rows is the row group's row count: the values the chunk must hold.
	Rows int64
	// Type is the Arrow type of the result; its storage must match
	// Physical (Supported).
	Type arrow.DataType
	// MaxBuffer bounds every buffer the decoder allocates or keeps.
	MaxBuffer int64
}

// Supported reports whether a leaf of physical type phys can be decoded as
// Arrow type t, whose layout it shares (the bytes of the values are the
// values of t).
func Supported(phys int32, t arrow.DataType) bool {
	switch t.ID() {
	case arrow.INT32, arrow.UINT32, arrow.DATE32, arrow.TIME32:
		return phys == pqscan.TypeInt32
	case arrow.INT64, arrow.UINT64, arrow.TIMESTAMP, arrow.TIME64:
		return phys == pqscan.TypeInt64
	case arrow.FLOAT32:
		return phys == pqscan.TypeFloat
	case arrow.FLOAT64:
		return phys == pqscan.TypeDouble
	case arrow.BOOL:
		return phys == pqscan.TypeBoolean
	case arrow.STRING, arrow.BINARY:
		return phys == pqscan.TypeBytes
	}
	return false
}

// Decoder holds scratch space reused from chunk to chunk; one per
// goroutine. Its Go memory is bounded by the pages (at most MaxBuffer
// each) and a block of indices, whatever the rows a file claims; the
// result's buffers, the byte arrays' value bytes included, come from the
// caller's allocator.
type Decoder struct {
	page    []byte   // an inflated page
	dict    []byte   // a byte-array dictionary's bytes
	dict4   []uint32 // a dictionary of 4-byte values
	dict8   []uint64 // a dictionary of 8-byte values
	dictOff []int32  // a byte-array dictionary's offsets into dict
	dictN   int      // the dictionary's values
	idx     []uint32 // a block of dictionary indices (or a list page's levels)
	bits    []byte   // a page's boolean values (RLE)
	gz      *gzip.Reader
	gzIn    bytes.Reader
}

// idxBlock is the number of dictionary indices decoded at a time (they
// stay in the first level of cache while their values are gathered).
const idxBlock = 2048

// MaxBytes is the most value bytes of a byte-array column Decode and
// Column hold (their offsets are int32); past it they return ErrFallback.
// A variable so that tests can lower it.
var MaxBytes int64 = math.MaxInt32

// chunk is the state of one Decode.
type chunk struct {
	s       Spec
	n       int
	w       int    // value width in bytes (0: boolean, -1: byte array)
	valid   []byte // validity bitmap (optional columns)
	vals    []byte // fixed-width values, or boolean bits
	offs    []int32
	data    *memory.Buffer // byte arrays' value bytes (from the caller's allocator)
	dlen    int            // the bytes of data used
	haveDic bool
	sawData bool // a data page was read (a dictionary page must come first)
}

// Decode decodes the column chunk whose pages are b (from its first page
// header; bytes past the last page needed are ignored) into an array of
// s.Type with s.Rows rows. It returns ErrFallback (unwrapped, nothing
// allocated kept) for what it does not handle, an error wrapping ErrInvalid
// for malformed bytes, and the allocator's refusal (a panic of mem turned
// into an error) for a buffer over its limits.
func (d *Decoder) Decode(b []byte, s Spec, mem memory.Allocator) (arrow.ArrayData, error) {
	col, err := d.Begin(s, mem)
	if err != nil {
		return nil, err
	}
	if err := col.Chunk(b, s.Rows, s.Codec); err != nil {
		col.Abort()
		return nil, err
	}
	return col.Finish()
}

// Column decodes column chunks one after the other into the buffers of one
// array (the chunks of a column in the row groups read, say).
type Column struct {
	d     *Decoder
	mem   memory.Allocator
	c     chunk
	bufs  []*memory.Buffer // validity (when optional), values or offsets
	row   int              // rows decoded
	nulls int
}

// guard turns a panic (the allocator's refusal) into an error wrapping
// ErrInvalid.
func guard(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(error); ok {
			*err = fmt.Errorf("%w: %w", ErrInvalid, e)
		} else {
			*err = fmt.Errorf("%w: decoding panicked: %v", ErrInvalid, r)
		}
	}
}

// Begin allocates the buffers of an array of s.Rows rows of s.Type from
// mem, to be filled by Chunk and handed out by Finish (or released by
// Abort). s.Codec is ignored (each chunk gives its own).
func (d *Decoder) Begin(s Spec, mem memory.Allocator) (col *Column, err error) {
	if !Supported(s.Physical, s.Type) || s.Rows < 0 || s.Rows > math.MaxInt32 {
		return nil, ErrFallback
	}
	col = &Column{d: d, mem: mem}
	defer func() {
		if err != nil {
			col.Abort()
			col = nil
		}
	}()
	defer guard(&err) // (runs first)
	c := &col.c
	*c = chunk{s: s, n: int(s.Rows)}
	switch s.Physical {
	case pqscan.TypeInt32, pqscan.TypeFloat:
		c.w = 4
	case pqscan.TypeInt64, pqscan.TypeDouble:
		c.w = 8
	case pqscan.TypeBoolean:
		c.w = 0
	default:
		c.w = -1
	}
	if s.Optional {
		c.valid = col.alloc(int(bitutil.BytesForBits(int64(c.n))))
		clear(c.valid)
	}
	switch {
	case c.w > 0:
		c.vals = col.alloc(c.n * c.w)
	case c.w == 0:
		c.vals = col.alloc(int(bitutil.BytesForBits(int64(c.n))))
		clear(c.vals)
	default:
		c.offs = arrow.Int32Traits.CastFromBytes(col.alloc((c.n + 1) * 4))
		c.offs[0] = 0
		c.data = memory.NewResizableBuffer(mem)
		col.bufs = append(col.bufs, c.data)
	}
	return col, nil
}

func (col *Column) alloc(n int) []byte {
	buf := memory.NewResizableBuffer(col.mem)
	col.bufs = append(col.bufs, buf)
	buf.Resize(n)
	return buf.Bytes()
}

// Chunk decodes the next column chunk, of rows rows compressed with codec,
// whose pages are b. On error the column is to be aborted.
func (col *Column) Chunk(b []byte, rows int64, codec int32) (err error) {
	defer guard(&err)
	if rows < 0 || rows > int64(col.c.n-col.row) {
		return fmt.Errorf("%w: a chunk of %d rows with %d of %d left", ErrInvalid, rows, col.c.n-col.row, col.c.n)
	}
	col.c.s.Codec = codec
	col.d.dictN = 0
	col.c.haveDic, col.c.sawData = false, false
	nulls, err := col.d.pages(b, &col.c, col.row, col.row+int(rows))
	if err != nil {
		return err
	}
	col.row += int(rows)
	col.nulls += nulls
	if c := &col.c; c.w < 0 && col.row < c.n && col.row > 0 {
		// the value bytes of the rows left, at the rate of those read (and
		// a little more): one reallocation instead of a doubling per
		// chunk, each a copy of what was read
		rate := float64(c.dlen) / float64(col.row)
		want := float64(c.dlen) + rate*float64(c.n-col.row)*1.05 + 16
		if limit := float64(min(c.s.MaxBuffer, MaxBytes)) + 16; want > limit {
			want = limit
		}
		if int(want) > c.data.Cap() {
			func() {
				defer func() { _ = recover() }() // refused by a limit: grow as needed instead
				c.data.Reserve(int(want))
			}()
		}
	}
	return nil
}

// Abort releases the column's buffers.
func (col *Column) Abort() {
	for _, buf := range col.bufs {
		buf.Release()
	}
	col.bufs = nil
}

// Finish returns the array the chunks filled (every row must have been
// decoded); the column is done either way.
func (col *Column) Finish() (out arrow.ArrayData, err error) {
	defer func() {
		if err != nil {
			out = nil
		}
		col.Abort()
	}()
	defer guard(&err) // (runs first)
	c := &col.c
	if col.row != c.n {
		return nil, fmt.Errorf("%w: %d of the column's %d rows decoded", ErrInvalid, col.row, c.n)
	}
	if c.w < 0 {
		c.data.ResizeNoShrink(c.dlen) // (within its capacity)
	}
	bufs := col.bufs
	var vb *memory.Buffer
	if c.s.Optional {
		vb, bufs = bufs[0], bufs[1:]
		if col.nulls == 0 {
			vb = nil
		}
	}
	all := append([]*memory.Buffer{vb}, bufs...)
	return arrowarray.NewData(c.s.Type, c.n, all, nil, col.nulls, 0), nil
}

// pages walks the chunk's pages until its rows are read; it returns the
// count of nulls.
func (d *Decoder) pages(b []byte, c *chunk, row, end int) (nulls int, err error) {
	pos := 0
	for page := 0; row < end; page++ {
		if pos >= len(b) {
			return 0, fmt.Errorf("%w: the pages end %d rows short of the chunk's", ErrInvalid, end-row)
		}
		h, hl, err := pqscan.ParsePageHeader(b[pos:])
		if err != nil {
			if errors.Is(err, pqscan.ErrInvalid) {
				return 0, fmt.Errorf("%w: page %d: %w", ErrInvalid, page, err)
			}
			return 0, ErrFallback
		}
		body := pos + hl
		if h.Compressed < 0 || int(h.Compressed) > len(b)-body || h.Uncompressed < 0 || int64(h.Uncompressed) > c.s.MaxBuffer {
			return 0, fmt.Errorf("%w: page %d: compressed_page_size %d, uncompressed_page_size %d, with %d bytes left", ErrInvalid, page, h.Compressed, h.Uncompressed, len(b)-body)
		}
		raw := b[body : body+int(h.Compressed)]
		pos = body + int(h.Compressed)
		switch h.Type {
		case pqscan.PageDict:
			if c.haveDic {
				return 0, fmt.Errorf("%w: page %d: a second dictionary page", ErrInvalid, page)
			}
			if c.sawData {
				return 0, fmt.Errorf("%w: page %d: a dictionary page after data pages (it must come first)", ErrInvalid, page)
			}
			if h.Encoding != pqscan.EncPlain && h.Encoding != pqscan.EncPlainDict {
				return 0, ErrFallback
			}
			p, err := d.inflate(raw, c.s.Codec, int(h.Uncompressed))
			if err == nil {
				err = d.loadDict(p, int(h.NumValues), c)
			}
			if err != nil {
				return 0, fmt.Errorf("page %d (dictionary): %w", page, err)
			}
			c.haveDic = true
		case pqscan.PageData, pqscan.PageDataV2:
			c.sawData = true
			nv := int(h.NumValues)
			if nv < 0 || nv > end-row {
				return 0, fmt.Errorf("%w: page %d: %d values with %d of the row group's rows left", ErrInvalid, page, nv, end-row)
			}
			var levels, vals []byte
			if h.Type == pqscan.PageData {
				p, err := d.inflate(raw, c.s.Codec, int(h.Uncompressed))
				if err != nil {
					return 0, fmt.Errorf("page %d: %w", page, err)
				}
				if c.s.Optional {
					if h.DefEncoding != pqscan.EncRLE {
						return 0, ErrFallback
					}
					if len(p) < 4 {
						return 0, fmt.Errorf("%w: page %d: no room for the definition levels' length", ErrInvalid, page)
					}
					l := binary.LittleEndian.Uint32(p)
					if uint64(l) > uint64(len(p)-4) {
						return 0, fmt.Errorf("%w: page %d: definition levels of %d bytes in a page of %d", ErrInvalid, page, l, len(p))
					}
					levels, vals = p[4:4+l], p[4+l:]
				} else {
					vals = p
				}
			} else {
				if h.DefLen < 0 || h.RepLen != 0 || int64(h.DefLen) > int64(len(raw)) || h.DefLen > h.Uncompressed {
					return 0, fmt.Errorf("%w: page %d: level lengths %d and %d in a page of %d bytes", ErrInvalid, page, h.DefLen, h.RepLen, len(raw))
				}
				if !c.s.Optional && h.DefLen != 0 {
					return 0, fmt.Errorf("%w: page %d: definition levels in a required column", ErrInvalid, page)
				}
				levels = raw[:h.DefLen]
				codec := c.s.Codec
				if !h.Compressed2 {
					codec = pqscan.CodecNone
				}
				var err error
				if vals, err = d.inflate(raw[h.DefLen:], codec, int(h.Uncompressed-h.DefLen)); err != nil {
					return 0, fmt.Errorf("page %d: %w", page, err)
				}
			}
			k := nv
			if c.s.Optional {
				set, err := rleBits(levels, c.valid, row, nv)
				if err != nil {
					return 0, fmt.Errorf("page %d: definition levels: %w", page, err)
				}
				k = set
			}
			if err := d.values(c, h.Encoding, vals, row, nv, k); err != nil {
				if err == ErrFallback {
					return 0, err
				}
				return 0, fmt.Errorf("page %d: %w", page, err)
			}
			nulls += nv - k
			row += nv
		default:
			return 0, ErrFallback
		}
	}
	return nulls, nil
}

var zstdCodec compress.Codec

func init() {
	zstdCodec, _ = compress.GetCodec(compress.Codecs.Zstd)
}

// inflate returns the size bytes raw inflates to (raw itself when not
// compressed), in d.page.
func (d *Decoder) inflate(raw []byte, codec int32, size int) (out []byte, err error) {
	switch codec {
	case pqscan.CodecNone:
		if len(raw) != size {
			return nil, fmt.Errorf("%w: an uncompressed page of %d bytes claims %d", ErrInvalid, len(raw), size)
		}
		return raw, nil
	case pqscan.CodecSnappy:
		n, err := snappy.DecodedLen(raw)
		if err != nil || n != size {
			return nil, fmt.Errorf("%w: a snappy block of %d bytes (%v) for a page of %d", ErrInvalid, n, err, size)
		}
		if cap(d.page) < size {
			d.page = make([]byte, size)
		}
		p, err := snappy.Decode(d.page[:size], raw)
		if err != nil || len(p) != size {
			return nil, fmt.Errorf("%w: snappy: %v", ErrInvalid, err)
		}
		return p, nil
	case pqscan.CodecZstd, pqscan.CodecGzip:
		// the frames' claims first (what zstd may allocate past the page;
		// gzip's best ratio), as pqscan checks the pages of a file: the
		// decoder does not lean on that scan having seen this page
		if err := pqscan.CheckBody(codec, raw, int64(size)); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
		}
		if cap(d.page) < size {
			d.page = make([]byte, size)
		}
		if codec == pqscan.CodecGzip {
			return d.gunzip(raw, d.page[:size])
		}
		if zstdCodec == nil {
			return nil, ErrFallback
		}
		defer func() {
			if r := recover(); r != nil {
				out, err = nil, fmt.Errorf("%w: inflating a zstd page: %v", ErrInvalid, r)
			}
		}()
		if size == 0 {
			return d.page[:0], nil // (checked: the body inflates to nothing)
		}
		p := zstdCodec.Decode(d.page[:size], raw)
		if len(p) != size {
			return nil, fmt.Errorf("%w: a zstd page inflates to %d bytes, not the %d it claims", ErrInvalid, len(p), size)
		}
		if cap(p) > cap(d.page) && cap(p) <= 2*size {
			d.page = p
		}
		return p, nil
	}
	return nil, ErrFallback
}

// gunzip inflates the gzip stream raw into dst, which it must fill
// exactly.
func (d *Decoder) gunzip(raw, dst []byte) ([]byte, error) {
	d.gzIn.Reset(raw)
	var err error
	if d.gz == nil {
		d.gz, err = gzip.NewReader(&d.gzIn)
	} else {
		err = d.gz.Reset(&d.gzIn)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: a gzip page: %w", ErrInvalid, err)
	}
	if n, err := io.ReadFull(d.gz, dst); err != nil {
		return nil, fmt.Errorf("%w: a gzip page inflates to %d bytes, not the %d it claims (%w)", ErrInvalid, n, len(dst), err)
	}
	var one [1]byte
	if n, err := d.gz.Read(one[:]); n > 0 || err != io.EOF {
		if n > 0 {
			err = errors.New("more bytes")
		}
		return nil, fmt.Errorf("%w: a gzip page inflates to more than the %d bytes it claims (%v)", ErrInvalid, len(dst), err)
	}
	return dst, nil
}

// loadDict keeps the PLAIN values of a dictionary page.
func (d *Decoder) loadDict(p []byte, n int, c *chunk) error {
	if n < 0 {
		return fmt.Errorf("%w: a dictionary of %d values", ErrInvalid, n)
	}
	switch {
	case c.w > 0:
		if int64(n)*int64(c.w) > int64(len(p)) {
			return fmt.Errorf("%w: a dictionary of %d values of %d bytes in %d bytes", ErrInvalid, n, c.w, len(p))
		}
		if c.w == 4 {
			if cap(d.dict4) < n {
				d.dict4 = make([]uint32, n)
			}
			d.dict4 = d.dict4[:n]
			for i := range d.dict4 {
				d.dict4[i] = binary.LittleEndian.Uint32(p[i*4:])
			}
		} else {
			if cap(d.dict8) < n {
				d.dict8 = make([]uint64, n)
			}
			d.dict8 = d.dict8[:n]
			for i := range d.dict8 {
				d.dict8[i] = binary.LittleEndian.Uint64(p[i*8:])
			}
		}
	case c.w == 0:
		return fmt.Errorf("%w: a dictionary page for a BOOLEAN column", ErrInvalid)
	default:
		if int64(n)*4 > int64(len(p)) {
			return fmt.Errorf("%w: a dictionary of %d byte arrays in %d bytes", ErrInvalid, n, len(p))
		}
		d.dict = d.dict[:0]
		if cap(d.dictOff) < n+1 {
			d.dictOff = make([]int32, n+1)
		}
		d.dictOff = d.dictOff[:n+1]
		at := 0
		for i := 0; i < n; i++ {
			if len(p)-at < 4 {
				return fmt.Errorf("%w: dictionary value %d runs past its page", ErrInvalid, i)
			}
			l := binary.LittleEndian.Uint32(p[at:])
			at += 4
			if uint64(l) > uint64(len(p)-at) {
				return fmt.Errorf("%w: dictionary value %d of %d bytes with %d left", ErrInvalid, i, l, len(p)-at)
			}
			d.dictOff[i] = int32(len(d.dict))
			d.dict = append(d.dict, p[at:at+int(l)]...)
			at += int(l)
		}
		d.dictOff[n] = int32(len(d.dict))
		d.dict = append(d.dict, make([]byte, 16)...)[:len(d.dict)] // slack for copy16
	}
	d.dictN = n
	return nil
}

// values decodes the k non-null values of a page of nv rows starting at
// row into the chunk's buffers (the validity bits of those rows are set).
func (d *Decoder) values(c *chunk, enc int32, p []byte, row, nv, k int) error {
	switch enc {
	case pqscan.EncPlain:
		return d.plain(c, p, row, nv, k)
	case pqscan.EncPlainDict, pqscan.EncRLEDictionary:
		if c.w == 0 {
			return fmt.Errorf("%w: dictionary indices for a BOOLEAN column", ErrInvalid)
		}
		if !c.haveDic {
			return fmt.Errorf("%w: dictionary indices without a dictionary page", ErrInvalid)
		}
		if k == 0 { // every row null: no indices (not even their bit width)
			if c.w > 0 {
				clear(c.vals[row*c.w : (row+nv)*c.w])
			} else {
				out := c.offs[row+1 : row+nv+1]
				for i := range out {
					out[i] = int32(c.dlen)
				}
			}
			return nil
		}
		if len(p) < 1 {
			return fmt.Errorf("%w: no bit width for the dictionary indices", ErrInvalid)
		}
		bw := int(p[0])
		if bw > 32 {
			return fmt.Errorf("%w: dictionary indices of %d bits", ErrInvalid, bw)
		}
		if cap(d.idx) < idxBlock {
			d.idx = make([]uint32, idxBlock)
		}
		r := newRLE(p[1:], bw)
		if err := d.gather(c, &r, row, nv, k); err != nil {
			return fmt.Errorf("dictionary indices: %w", err)
		}
		return nil
	case pqscan.EncRLE:
		if c.w != 0 {
			return ErrFallback
		}
		if len(p) < 4 {
			return fmt.Errorf("%w: RLE booleans without their length", ErrInvalid)
		}
		l := binary.LittleEndian.Uint32(p)
		if uint64(l) > uint64(len(p)-4) {
			return fmt.Errorf("%w: RLE booleans of %d bytes in %d", ErrInvalid, l, len(p)-4)
		}
		nb := int(bitutil.BytesForBits(int64(k)))
		if cap(d.bits) < nb {
			d.bits = make([]byte, nb)
		}
		bm := d.bits[:nb]
		clear(bm)
		if _, err := rleBits(p[4:4+l], bm, 0, k); err != nil {
			return fmt.Errorf("RLE booleans: %w", err)
		}
		return spreadBits(c, bm, row, nv, k)
	}
	return ErrFallback
}

// plain decodes PLAIN values.
func (d *Decoder) plain(c *chunk, p []byte, row, nv, k int) error {
	switch {
	case c.w > 0:
		w := c.w
		if int64(k)*int64(w) > int64(len(p)) {
			return fmt.Errorf("%w: %d values of %d bytes in %d bytes", ErrInvalid, k, w, len(p))
		}
		dst := c.vals[row*w : (row+nv)*w]
		if k == nv {
			copy(dst, p[:k*w])
			return nil
		}
		j := 0
		for r := 0; r < nv; r++ {
			o := dst[r*w : r*w+w]
			if bitutil.BitIsSet(c.valid, row+r) {
				copy(o, p[j:j+w])
				j += w
			} else {
				clear(o)
			}
		}
		return nil
	case c.w == 0:
		if int64(int(bitutil.BytesForBits(int64(k)))) > int64(len(p)) {
			return fmt.Errorf("%w: %d booleans in %d bytes", ErrInvalid, k, len(p))
		}
		return spreadBits(c, p, row, nv, k)
	}
	// the values take at most the page's bytes less their lengths
	dst, err := c.room(max(0, len(p)-4*k))
	if err != nil {
		return err
	}
	o := c.dlen
	at := 0
	for r := 0; r < nv; r++ {
		if c.valid == nil || bitutil.BitIsSet(c.valid, row+r) {
			if len(p)-at < 4 {
				return fmt.Errorf("%w: byte array %d of the page runs past its end", ErrInvalid, r)
			}
			l := int(binary.LittleEndian.Uint32(p[at:]))
			at += 4
			if l > len(p)-at || l < 0 {
				return fmt.Errorf("%w: a byte array of %d bytes with %d left in the page", ErrInvalid, l, len(p)-at)
			}
			if l <= 16 && len(p)-at >= 16 {
				copy16(dst[o:], p[at:])
			} else {
				copy(dst[o:], p[at:at+l])
			}
			o += l
			at += l
		}
		c.offs[row+r+1] = int32(o)
	}
	c.dlen = o
	return nil
}

// room makes the chunk's value bytes hold n more (and 16 of slack, for
// copy16) and returns them, to their capacity. Past the limits (MaxBuffer,
// MaxBytes) it fails: ErrInvalid, or ErrFallback past MaxBytes when
// MaxBuffer allows more (the offsets cannot say it).
func (c *chunk) room(n int) ([]byte, error) {
	need := int64(c.dlen) + int64(n)
	if need > min(c.s.MaxBuffer, MaxBytes) {
		if need > MaxBytes {
			return nil, ErrFallback
		}
		return nil, fmt.Errorf("%w: %w: a column of more than %d value bytes (the limit of a buffer)", ErrInvalid, ErrLimit, c.s.MaxBuffer)
	}
	if want := int(need) + 16; c.data.Cap() < want {
		c.data.Reserve(max(want, min(2*c.data.Cap(), int(min(c.s.MaxBuffer, MaxBytes))+16)))
	}
	return c.data.Buf(), nil
}

// gather writes the dictionary values of the k indices r decodes to the
// page's non-null rows (nv rows from row); an index out of the dictionary
// is invalid. The indices are decoded a block at a time.
func (d *Decoder) gather(c *chunk, r *rleDec, row, nv, k int) error {
	idx := d.idx[:idxBlock]
	if c.w > 0 {
		if c.w == 4 {
			return gatherFixed(d.dict4, arrow.Uint32Traits.CastFromBytes(c.vals)[row:row+nv], r, idx, c.valid, row, k)
		}
		return gatherFixed(d.dict8, arrow.Uint64Traits.CastFromBytes(c.vals)[row:row+nv], r, idx, c.valid, row, k)
	}
	n := uint32(d.dictN)
	offs := d.dictOff[:d.dictN+1]
	dict := d.dict[:cap(d.dict)] // (16 bytes of slack past the values)
	out := c.offs[row+1 : row+nv+1]
	o := c.dlen
	for at, rr := 0, 0; at < k; {
		m := min(idxBlock, k-at)
		b := idx[:m]
		if err := r.next(b); err != nil {
			return err
		}
		total := 0
		for _, v := range b {
			if v >= n {
				return errIndex(v, n)
			}
			total += int(offs[v+1] - offs[v])
		}
		c.dlen = o
		dst, err := c.room(total)
		if err != nil {
			return err
		}
		if c.valid == nil {
			o32 := int32(o)
			for j, v := range b {
				s0, s1 := offs[v], offs[v+1]
				if s1-s0 <= 16 {
					copy16(dst[o32:], dict[s0:])
				} else {
					copy(dst[o32:], dict[s0:s1])
				}
				o32 += s1 - s0
				out[rr+j] = o32
			}
			o = int(o32)
			rr += m
		} else {
			for j := 0; j < m; rr++ {
				if bitutil.BitIsSet(c.valid, row+rr) {
					v := b[j]
					s0, s1 := int(offs[v]), int(offs[v+1])
					if s1-s0 <= 16 {
						copy16(dst[o:], dict[s0:])
					} else {
						copy(dst[o:], dict[s0:s1])
					}
					o += s1 - s0
					j++
				}
				out[rr] = int32(o)
			}
		}
		at += m
		if at == k { // null rows at the end of the page
			for ; rr < nv; rr++ {
				out[rr] = int32(o)
			}
		}
	}
	c.dlen = o
	return nil
}

// copy16 copies 16 bytes from src to dst (both hold them): a short value
// and whatever follows it, overwritten by the next.
func copy16(dst, src []byte) {
	*(*[16]byte)(dst[:16]) = *(*[16]byte)(src[:16])
}

func errIndex(v, n uint32) error {
	return fmt.Errorf("%w: dictionary index %d of a dictionary of %d values", ErrInvalid, v, n)
}

// gatherFixed writes dict[i] for the k indices i r decodes to the non-null
// rows of dst (rows from row of the bitmap valid; null rows get 0), a
// block (len(idx)) at a time.
func gatherFixed[T uint32 | uint64](dict, dst []T, r *rleDec, idx []uint32, valid []byte, row, k int) error {
	n := uint32(len(dict))
	if k == len(dst) {
		for at := 0; at < k; at += len(idx) {
			b := idx[:min(len(idx), k-at)]
			if err := r.next(b); err != nil {
				return err
			}
			o := dst[at : at+len(b)]
			for i, v := range b {
				if v >= n {
					return errIndex(v, n)
				}
				o[i] = dict[v]
			}
		}
		return nil
	}
	j, have, taken := 0, 0, 0
	for i := range dst {
		if !bitutil.BitIsSet(valid, row+i) {
			dst[i] = 0
			continue
		}
		if j == have {
			have, j = min(len(idx), k-taken), 0
			if err := r.next(idx[:have]); err != nil {
				return err
			}
			taken += have
		}
		v := idx[j]
		j++
		if v >= n {
			return errIndex(v, n)
		}
		dst[i] = dict[v]
	}
	return nil
}

// spreadBits writes k boolean values (bits of src from 0) to the page's
// non-null rows.
func spreadBits(c *chunk, src []byte, row, nv, k int) error {
	if k == nv {
		bitutil.CopyBitmap(src, 0, k, c.vals, row)
		return nil
	}
	j := 0
	for r := 0; r < nv; r++ {
		if bitutil.BitIsSet(c.valid, row+r) {
			if bitutil.BitIsSet(src, j) {
				bitutil.SetBit(c.vals, row+r)
			}
			j++
		}
	}
	return nil
}

// rleBits decodes n values of bit width 1 of the RLE/bit-packed hybrid
// encoding from b into the bitmap bm from bit at (bm's bits there are
// clear); it returns how many are 1. Runs that reach past n values are
// cut at n; a value other than 0 or 1 is invalid.
func rleBits(b []byte, bm []byte, at, n int) (set int, err error) {
	p, i := 0, 0
	for i < n {
		h, m := binary.Uvarint(b[p:])
		if m <= 0 {
			return 0, fmt.Errorf("%w: a run header past the end of the levels (%d of %d values read)", ErrInvalid, i, n)
		}
		p += m
		if h&1 == 1 { // bit-packed groups of 8 values, a byte each
			g := h >> 1
			if g == 0 || g > uint64(len(b)-p) {
				return 0, fmt.Errorf("%w: %d bit-packed groups with %d bytes left", ErrInvalid, g, len(b)-p)
			}
			cnt := n - i
			if g*8 < uint64(cnt) {
				cnt = int(g * 8)
			}
			bitutil.CopyBitmap(b[p:], 0, cnt, bm, at+i)
			set += bitutil.CountSetBits(b[p:], 0, cnt)
			p += int(g)
			i += cnt
			continue
		}
		cnt := h >> 1
		if cnt == 0 {
			return 0, fmt.Errorf("%w: an empty run", ErrInvalid)
		}
		if p >= len(b) {
			return 0, fmt.Errorf("%w: a run without its value", ErrInvalid)
		}
		v := b[p]
		p++
		if v > 1 {
			return 0, fmt.Errorf("%w: level or boolean %d in a run (at most 1)", ErrInvalid, v)
		}
		c := n - i
		if cnt < uint64(c) {
			c = int(cnt)
		}
		if v == 1 {
			bitutil.SetBitsTo(bm, int64(at+i), int64(c), true)
			set += c
		}
		i += c
	}
	return set, nil
}

// rleInts decodes len(dst) values of bit width bw (<= 32) of the
// RLE/bit-packed hybrid encoding from b.
func rleInts(b []byte, bw int, dst []uint32) error {
	r := newRLE(b, bw)
	return r.next(dst)
}

// rleDec reads values of the RLE/bit-packed hybrid encoding, of a bit
// width up to 32, as many at a time as asked.
type rleDec struct {
	b    []byte
	p    int // the next run's header in b
	bw   int
	vb   int // bytes of a run's value
	mask uint64
	run  int    // values left in the current RLE run
	val  uint32 // its value
	pk   []byte // the current bit-packed run's bytes
	pkAt int    // its values taken
	pkN  int    // its values (8 a group)
}

func newRLE(b []byte, bw int) rleDec {
	return rleDec{b: b, bw: bw, vb: (bw + 7) / 8, mask: uint64(1)<<bw - 1}
}

// maxRun bounds the values of a run (no page holds more).
const maxRun = 1 << 31

// next decodes len(dst) values; running out of runs is invalid.
func (r *rleDec) next(dst []uint32) error {
	for len(dst) > 0 {
		if r.run > 0 {
			m := min(r.run, len(dst))
			fill := dst[:m]
			for j := range fill {
				fill[j] = r.val
			}
			r.run -= m
			dst = dst[m:]
			continue
		}
		if r.pkAt < r.pkN {
			m := min(r.pkN-r.pkAt, len(dst))
			unpack(r.pk, r.pkAt, r.bw, r.mask, dst[:m])
			r.pkAt += m
			dst = dst[m:]
			continue
		}
		h, m := binary.Uvarint(r.b[r.p:])
		if m <= 0 {
			return fmt.Errorf("%w: a run header past the end (%d values short)", ErrInvalid, len(dst))
		}
		r.p += m
		if h&1 == 1 { // bit-packed groups of 8 values
			g := h >> 1
			if g == 0 || (r.bw > 0 && g > uint64(len(r.b)-r.p)/uint64(r.bw)) {
				return fmt.Errorf("%w: %d bit-packed groups of %d bits with %d bytes left", ErrInvalid, g, r.bw, len(r.b)-r.p)
			}
			g = min(g, maxRun/8)
			r.pk, r.pkAt, r.pkN = r.b[r.p:r.p+int(g)*r.bw], 0, int(g)*8
			r.p += int(g) * r.bw
			continue
		}
		cnt := h >> 1
		if cnt == 0 {
			return fmt.Errorf("%w: an empty run", ErrInvalid)
		}
		if len(r.b)-r.p < r.vb {
			return fmt.Errorf("%w: a run without its value", ErrInvalid)
		}
		var v uint64
		for j := 0; j < r.vb; j++ {
			v |= uint64(r.b[r.p+j]) << (8 * j)
		}
		r.p += r.vb
		if v > r.mask {
			return fmt.Errorf("%w: a run of value %d wider than %d bits", ErrInvalid, v, r.bw)
		}
		r.run, r.val = int(min(cnt, maxRun)), uint32(v)
	}
	return nil
}

// unpack reads len(dst) values of bw bits, least significant first, from
// value from of b (which holds at least (from+len(dst))*bw bits).
func unpack(b []byte, from, bw int, mask uint64, dst []uint32) {
	if bw == 0 {
		clear(dst)
		return
	}
	q := from * bw // bit position
	j := 0
	if bw <= 8 {
		for ; j < len(dst) && q&7 != 0; j++ { // to a whole group
			dst[j] = uint32(load(b, q>>3) >> (q & 7) & mask)
			q += bw
		}
		// 8 values in bw bytes, from one load
		for ; j+8 <= len(dst) && q>>3+8 <= len(b); j += 8 {
			w := binary.LittleEndian.Uint64(b[q>>3:])
			o := dst[j : j+8 : j+8]
			o[0] = uint32(w & mask)
			o[1] = uint32(w >> bw & mask)
			o[2] = uint32(w >> (2 * bw) & mask)
			o[3] = uint32(w >> (3 * bw) & mask)
			o[4] = uint32(w >> (4 * bw) & mask)
			o[5] = uint32(w >> (5 * bw) & mask)
			o[6] = uint32(w >> (6 * bw) & mask)
			o[7] = uint32(w >> (7 * bw) & mask)
			q += 8 * bw
		}
	}
	for ; j < len(dst) && q>>3+8 <= len(b); j++ {
		dst[j] = uint32(binary.LittleEndian.Uint64(b[q>>3:]) >> (q & 7) & mask)
		q += bw
	}
	for ; j < len(dst); j++ {
		dst[j] = uint32(load(b, q>>3) >> (q & 7) & mask)
		q += bw
	}
}

// load reads up to 8 bytes of b at o, little-endian, zero past its end.
func load(b []byte, o int) uint64 {
	if o+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[o:])
	}
	var v uint64
	for k := 0; o+k < len(b); k++ {
		v |= uint64(b[o+k]) << (8 * k)
	}
	return v
}
