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
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet/compress"
	"github.com/golang/snappy"

	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

var (
	// ErrFallback: the chunk uses something this package does not decode
	// (an encoding, a codec, a type); nothing was returned or kept.
	ErrFallback = errors.New("pqdecode: not a case this decoder handles")
	// ErrInvalid: the chunk's bytes are malformed.
	ErrInvalid = errors.New("invalid Parquet column chunk")
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
// goroutine.
type Decoder struct {
	page    []byte   // an inflated page
	dict    []byte   // a byte-array dictionary's bytes
	dict4   []uint32 // a dictionary of 4-byte values
	dict8   []uint64 // a dictionary of 8-byte values
	dictOff []int32  // a byte-array dictionary's offsets into dict
	dictN   int      // the dictionary's values
	idx     []uint32 // a page's dictionary indices
	data    []byte   // a byte-array chunk's value bytes
	bits    []byte   // a page's boolean values (RLE)
}

// chunk is the state of one Decode.
type chunk struct {
	s       Spec
	n       int
	w       int    // value width in bytes (0: boolean, -1: byte array)
	valid   []byte // validity bitmap (optional columns)
	vals    []byte // fixed-width values, or boolean bits
	offs    []int32
	haveDic bool
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
		d.data = d.data[:0]
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
	col.c.haveDic = false
	nulls, err := col.d.pages(b, &col.c, col.row, col.row+int(rows))
	if err != nil {
		return err
	}
	col.row += int(rows)
	col.nulls += nulls
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
	c, d := &col.c, col.d
	if col.row != c.n {
		return nil, fmt.Errorf("%w: %d of the column's %d rows decoded", ErrInvalid, col.row, c.n)
	}
	if c.w < 0 {
		if len(d.data) > math.MaxInt32 {
			return nil, ErrFallback
		}
		data := col.alloc(len(d.data))
		copy(data, d.data)
		if cap(d.data) > 64<<20 {
			d.data = nil // do not keep a huge scratch
		}
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

var zstdCodec, gzipCodec compress.Codec

func init() {
	zstdCodec, _ = compress.GetCodec(compress.Codecs.Zstd)
	gzipCodec, _ = compress.GetCodec(compress.Codecs.Gzip)
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
		codecs := zstdCodec
		if codec == pqscan.CodecGzip {
			codecs = gzipCodec
		}
		if codecs == nil {
			return nil, ErrFallback
		}
		if cap(d.page) < size {
			d.page = make([]byte, size)
		}
		defer func() {
			if r := recover(); r != nil {
				out, err = nil, fmt.Errorf("%w: inflating a page of codec %d: %v", ErrInvalid, codec, r)
			}
		}()
		if size == 0 {
			return d.page[:0], nil // (checked by pqscan: the body inflates to nothing)
		}
		p := codecs.Decode(d.page[:size], raw)
		if len(p) != size {
			return nil, fmt.Errorf("%w: a page of codec %d inflates to %d bytes, not the %d it claims", ErrInvalid, codec, len(p), size)
		}
		if cap(p) > cap(d.page) {
			d.page = p
		}
		return p, nil
	}
	return nil, ErrFallback
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
		if k == 0 {
			return nil
		}
		if len(p) < 1 {
			return fmt.Errorf("%w: no bit width for the dictionary indices", ErrInvalid)
		}
		bw := int(p[0])
		if bw > 32 {
			return fmt.Errorf("%w: dictionary indices of %d bits", ErrInvalid, bw)
		}
		if cap(d.idx) < k {
			d.idx = make([]uint32, k)
		}
		idx := d.idx[:k]
		if err := rleInts(p[1:], bw, idx); err != nil {
			return fmt.Errorf("dictionary indices: %w", err)
		}
		return d.gather(c, idx, row, nv, k)
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
	// the values take at most the page's bytes (their total is checked
	// against the limits after)
	dst := d.room(len(p))
	o := len(d.data)
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
	d.data = d.data[:o]
	return d.grow(c, 0)
}

// grow checks that l more value bytes keep a byte-array chunk within its
// limits (the offsets are int32).
func (d *Decoder) grow(c *chunk, l int) error {
	if int64(len(d.data))+int64(l) > min(c.s.MaxBuffer, math.MaxInt32) {
		if int64(len(d.data))+int64(l) > math.MaxInt32 {
			return ErrFallback
		}
		return fmt.Errorf("%w: a column chunk of more than %d value bytes (the limit of a buffer)", ErrInvalid, c.s.MaxBuffer)
	}
	return nil
}

// gather writes dictionary values idx to the page's rows; an index out
// of the dictionary is invalid.
func (d *Decoder) gather(c *chunk, idx []uint32, row, nv, k int) error {
	switch c.w {
	case 4:
		return gatherFixed(d.dict4, arrow.Uint32Traits.CastFromBytes(c.vals)[row:row+nv], idx, c.valid, row, k)
	case 8:
		return gatherFixed(d.dict8, arrow.Uint64Traits.CastFromBytes(c.vals)[row:row+nv], idx, c.valid, row, k)
	}
	// byte arrays
	var total int64
	n := uint32(d.dictN)
	for _, v := range idx {
		if v >= n {
			return errIndex(v, n)
		}
		total += int64(d.dictOff[v+1] - d.dictOff[v])
	}
	if total > math.MaxInt32 {
		return ErrFallback
	}
	if err := d.grow(c, int(total)); err != nil {
		return err
	}
	dst := d.room(int(total))
	o := len(d.data)
	dict := d.dict[:cap(d.dict)]
	j := 0
	for r := 0; r < nv; r++ {
		if c.valid == nil || bitutil.BitIsSet(c.valid, row+r) {
			v := idx[j]
			s0, s1 := int(d.dictOff[v]), int(d.dictOff[v+1])
			if s1-s0 <= 16 {
				copy16(dst[o:], dict[s0:])
			} else {
				copy(dst[o:], dict[s0:s1])
			}
			o += s1 - s0
			j++
		}
		c.offs[row+r+1] = int32(o)
	}
	d.data = d.data[:o]
	return nil
}

// room makes d.data's capacity hold n more bytes and 16 of slack (for
// copy16), and returns it up to its capacity.
func (d *Decoder) room(n int) []byte {
	if need := len(d.data) + n + 16; cap(d.data) < need {
		nd := make([]byte, len(d.data), max(need, 2*cap(d.data)))
		copy(nd, d.data)
		d.data = nd
	}
	return d.data[:cap(d.data)]
}

// copy16 copies 16 bytes from src to dst (both hold them): a short value
// and whatever follows it, overwritten by the next.
func copy16(dst, src []byte) {
	*(*[16]byte)(dst[:16]) = *(*[16]byte)(src[:16])
}

func errIndex(v, n uint32) error {
	return fmt.Errorf("%w: dictionary index %d of a dictionary of %d values", ErrInvalid, v, n)
}

// gatherFixed writes dict[idx[j]] to the j-th non-null row of dst (rows
// from row of the bitmap valid; null rows get 0).
func gatherFixed[T uint32 | uint64](dict, dst []T, idx []uint32, valid []byte, row, k int) error {
	n := uint32(len(dict))
	if k == len(dst) {
		dst = dst[:len(idx)]
		for i, v := range idx {
			if v >= n {
				return errIndex(v, n)
			}
			dst[i] = dict[v]
		}
		return nil
	}
	j := 0
	for r := range dst {
		if bitutil.BitIsSet(valid, row+r) {
			v := idx[j]
			if v >= n {
				return errIndex(v, n)
			}
			dst[r] = dict[v]
			j++
		} else {
			dst[r] = 0
		}
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
	p, i, n := 0, 0, len(dst)
	vb := (bw + 7) / 8 // bytes of a run's value
	mask := uint64(1)<<bw - 1
	for i < n {
		h, m := binary.Uvarint(b[p:])
		if m <= 0 {
			return fmt.Errorf("%w: a run header past the end (%d of %d values read)", ErrInvalid, i, n)
		}
		p += m
		if h&1 == 1 {
			g := h >> 1
			if g == 0 || (bw > 0 && g > uint64(len(b)-p)/uint64(bw)) {
				return fmt.Errorf("%w: %d bit-packed groups of %d bits with %d bytes left", ErrInvalid, g, bw, len(b)-p)
			}
			cnt := n - i
			if g*8 < uint64(cnt) {
				cnt = int(g * 8)
			}
			unpack(b[p:p+int(g)*bw], bw, mask, dst[i:i+cnt])
			p += int(g) * bw
			i += cnt
			continue
		}
		cnt := h >> 1
		if cnt == 0 {
			return fmt.Errorf("%w: an empty run", ErrInvalid)
		}
		if len(b)-p < vb {
			return fmt.Errorf("%w: a run without its value", ErrInvalid)
		}
		var v uint64
		for j := 0; j < vb; j++ {
			v |= uint64(b[p+j]) << (8 * j)
		}
		p += vb
		if v > mask {
			return fmt.Errorf("%w: a run of value %d wider than %d bits", ErrInvalid, v, bw)
		}
		c := n - i
		if cnt < uint64(c) {
			c = int(cnt)
		}
		fill := dst[i : i+c]
		for j := range fill {
			fill[j] = uint32(v)
		}
		i += c
	}
	return nil
}

// unpack reads len(dst) values of bw bits, least significant first, from
// b (which holds at least len(dst)*bw bits).
func unpack(b []byte, bw int, mask uint64, dst []uint32) {
	if bw == 0 {
		clear(dst)
		return
	}
	q := 0 // bit position
	j := 0
	if bw <= 8 {
		for ; j+8 <= len(dst) && q/8+8 <= len(b); j += 8 {
			w := binary.LittleEndian.Uint64(b[q/8:])
			o := dst[j : j+8]
			for i := range o {
				o[i] = uint32(w >> (i * bw) & mask)
			}
			q += 8 * bw
		}
	}
	for ; j < len(dst) && q/8+8 <= len(b); j++ {
		dst[j] = uint32(binary.LittleEndian.Uint64(b[q/8:]) >> (q & 7) & mask)
		q += bw
	}
	for ; j < len(dst); j++ {
		var v uint64
		for k, o := 0, q/8; k < 8 && o+k < len(b); k++ {
			v |= uint64(b[o+k]) << (8 * k)
		}
		dst[j] = uint32(v >> (q & 7) & mask)
		q += bw
	}
}
