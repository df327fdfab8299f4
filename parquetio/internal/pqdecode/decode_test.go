package pqdecode

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/golang/snappy"

	"github.com/stride0/stride0/internal/pqbomb"
	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// tw writes Thrift compact-protocol structs (the fields of a page header).
type tw struct {
	b    []byte
	last []int16
}

func (w *tw) field(id int16, typ byte) {
	d := id - w.last[len(w.last)-1]
	w.b = append(w.b, byte(d)<<4|typ)
	w.last[len(w.last)-1] = id
}
func (w *tw) i32(id int16, v int32) {
	w.field(id, 5)
	w.b = binary.AppendUvarint(w.b, uint64(uint32((v<<1)^(v>>31))))
}
func (w *tw) begin(id int16) { w.field(id, 12); w.last = append(w.last, 0) }
func (w *tw) end()           { w.b = append(w.b, 0); w.last = w.last[:len(w.last)-1] }

// page is a page to write: its header's fields and body.
type page struct {
	typ, enc, numValues   int32
	v2                    bool
	defLen, numNulls      int32
	body                  []byte
	uncompressed, compr   int32 // 0: len(body)
	snappy, notCompressed bool
}

func (p page) bytes() []byte {
	body := p.body
	if p.snappy {
		lv := body[:p.defLen]
		body = append(append([]byte{}, lv...), snappy.Encode(nil, body[p.defLen:])...)
	}
	w := &tw{last: []int16{0}}
	u, c := p.uncompressed, p.compr
	if u == 0 {
		u = int32(len(p.body))
	}
	if c == 0 {
		c = int32(len(body))
	}
	w.i32(1, p.typ)
	w.i32(2, u)
	w.i32(3, c)
	switch p.typ {
	case pqscan.PageDict:
		w.begin(7)
		w.i32(1, p.numValues)
		w.i32(2, p.enc)
		w.end()
	case pqscan.PageData:
		w.begin(5)
		w.i32(1, p.numValues)
		w.i32(2, p.enc)
		w.i32(3, pqscan.EncRLE)
		w.i32(4, pqscan.EncRLE)
		w.end()
	case pqscan.PageDataV2:
		w.begin(8)
		w.i32(1, p.numValues)
		w.i32(2, p.numNulls)
		w.i32(3, p.numValues)
		w.i32(4, p.enc)
		w.i32(5, p.defLen)
		w.i32(6, 0)
		if p.notCompressed {
			w.field(7, 2)
		}
		w.end()
	}
	w.end()
	return append(w.b, body...)
}

// rleEncode encodes vals of bit width bw in the RLE/bit-packed hybrid,
// choosing runs and bit-packed groups at random.
func rleEncode(rng *rand.Rand, vals []uint32, bw int) []byte {
	var out []byte
	for i := 0; i < len(vals); {
		run := 1
		for i+run < len(vals) && vals[i+run] == vals[i] {
			run++
		}
		if run >= 2 && rng.IntN(3) > 0 || i+run == len(vals) && rng.IntN(2) == 0 {
			out = binary.AppendUvarint(out, uint64(run)<<1)
			for j := 0; j < (bw+7)/8; j++ {
				out = append(out, byte(vals[i]>>(8*j)))
			}
			i += run
			continue
		}
		groups := 1 + rng.IntN(3)
		out = binary.AppendUvarint(out, uint64(groups)<<1|1)
		bitsBuf := make([]byte, groups*bw)
		for k := 0; k < groups*8; k++ {
			var v uint32
			if i+k < len(vals) {
				v = vals[i+k]
			}
			for b := 0; b < bw; b++ {
				if v>>b&1 == 1 {
					bitutil.SetBit(bitsBuf, k*bw+b)
				}
			}
		}
		out = append(out, bitsBuf...)
		i += groups * 8
	}
	return out
}

// TestRLE decodes random values of every bit width 0..32 (runs and
// bit-packed groups, lengths around 8) against the values encoded.
func TestRLE(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for it := 0; it < 2000; it++ {
		bw := rng.IntN(33)
		n := []int{1, 7, 8, 9, 15, 16, 17, 100, 1000}[rng.IntN(9)]
		vals := make([]uint32, n)
		for i := range vals {
			if i > 0 && rng.IntN(2) == 0 {
				vals[i] = vals[i-1]
			} else if bw > 0 {
				vals[i] = uint32(rng.Uint64() & (1<<bw - 1))
			}
		}
		enc := rleEncode(rng, vals, bw)
		got := make([]uint32, n)
		if err := rleInts(enc, bw, got); err != nil {
			t.Fatalf("bit width %d, %d values: %v", bw, n, err)
		}
		for i := range vals {
			if got[i] != vals[i] {
				t.Fatalf("bit width %d, %d values: value %d is %d, want %d", bw, n, i, got[i], vals[i])
			}
		}
		if bw == 1 {
			at := rng.IntN(13)
			bm := make([]byte, bitutil.BytesForBits(int64(at+n)))
			set, err := rleBits(enc, bm, at, n)
			if err != nil {
				t.Fatal(err)
			}
			want := 0
			for i, v := range vals {
				want += int(v)
				if bitutil.BitIsSet(bm, at+i) != (v == 1) {
					t.Fatalf("rleBits: bit %d", i)
				}
			}
			if set != want {
				t.Fatalf("rleBits: %d set, want %d", set, want)
			}
		}
	}
}

// validChunk is an optional INT32 column of rows rows: a dictionary page
// of 3 values, a version 1 data page of dictionary indices (every third
// row null), and the values it decodes to.
func validChunk(rows int) ([]byte, []page, []int32, []bool) {
	dict := []int32{7, -1, 1 << 30}
	var dbody []byte
	for _, v := range dict {
		dbody = binary.LittleEndian.AppendUint32(dbody, uint32(v))
	}
	defs := make([]uint32, rows)
	var idx []uint32
	want := make([]int32, rows)
	valid := make([]bool, rows)
	for i := range defs {
		if i%3 != 2 {
			defs[i] = 1
			idx = append(idx, uint32(i%3))
			want[i], valid[i] = dict[i%3], true
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	lv := rleEncode(rng, defs, 1)
	body := binary.LittleEndian.AppendUint32(nil, uint32(len(lv)))
	body = append(body, lv...)
	body = append(body, 2)
	body = append(body, rleEncode(rng, idx, 2)...)
	pages := []page{
		{typ: pqscan.PageDict, enc: pqscan.EncPlain, numValues: 3, body: dbody},
		{typ: pqscan.PageData, enc: pqscan.EncRLEDictionary, numValues: int32(rows), body: body},
	}
	var out []byte
	for _, p := range pages {
		out = append(out, p.bytes()...)
	}
	return out, pages, want, valid
}

func join(ps []page) []byte {
	var out []byte
	for _, p := range ps {
		out = append(out, p.bytes()...)
	}
	return out
}

func int32Spec(rows int) Spec {
	return Spec{Physical: pqscan.TypeInt32, Optional: true, Codec: pqscan.CodecNone, Rows: int64(rows), Type: arrow.PrimitiveTypes.Int32, MaxBuffer: 1 << 20}
}

// TestDecodeValidAndHostile decodes a hand-written chunk, then hostile
// variants of it (wrong num_values, runs past the end, an index out of
// the dictionary, a bit width over 32, truncated pages, huge sizes, no
// dictionary): each fails with ErrInvalid, nothing left allocated.
func TestDecodeValidAndHostile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	const rows = 50
	b, pages, want, valid := validChunk(rows)
	var d Decoder
	out, err := d.Decode(b, int32Spec(rows), mem)
	if err != nil {
		t.Fatal(err)
	}
	vals := arrow.Int32Traits.CastFromBytes(out.Buffers()[1].Bytes())
	for i := range want {
		if bitutil.BitIsSet(out.Buffers()[0].Bytes(), i) != valid[i] || (valid[i] && vals[i] != want[i]) {
			t.Fatalf("row %d: %d, want %d (valid %v)", i, vals[i], want[i], valid[i])
		}
	}
	if out.NullN() != rows/3 {
		t.Fatalf("%d nulls, want %d", out.NullN(), rows/3)
	}
	out.Release()
	// the same as a version 2 page, snappy-compressed
	v2 := pages[1]
	l := binary.LittleEndian.Uint32(v2.body)
	v2.body = v2.body[4:]
	v2.typ, v2.v2, v2.defLen, v2.snappy = pqscan.PageDataV2, true, int32(l), true
	dictPage := pages[0]
	dictPage.snappy = true
	sp := int32Spec(rows)
	sp.Codec = pqscan.CodecSnappy
	if out, err = d.Decode(join([]page{dictPage, v2}), sp, mem); err != nil {
		t.Fatalf("v2 snappy: %v", err)
	}
	if out.NullN() != rows/3 || arrow.Int32Traits.CastFromBytes(out.Buffers()[1].Bytes())[3] != want[3] {
		t.Fatal("v2 snappy: values differ")
	}
	out.Release()

	mut := func(f func(p []page) []page) []byte {
		ps := append([]page{}, pages...)
		for i := range ps {
			ps[i].body = append([]byte{}, ps[i].body...)
		}
		return join(f(ps))
	}
	defLen := int(binary.LittleEndian.Uint32(pages[1].body))
	hostile := map[string][]byte{
		"more values than rows": mut(func(p []page) []page { p[1].numValues = rows + 1; return p }),
		"fewer values":          mut(func(p []page) []page { p[1].numValues = rows - 1; return p }),
		"negative values":       mut(func(p []page) []page { p[1].numValues = -5; return p }),
		"run past the end": mut(func(p []page) []page {
			p[1].body = p[1].body[:len(p[1].body)-2]
			return p
		}),
		"index out of range": mut(func(p []page) []page { p[0].numValues = 1; p[0].body = p[0].body[:4]; return p }),
		"bit width 33":       mut(func(p []page) []page { p[1].body[4+defLen] = 33; return p }),
		"no dictionary":      mut(func(p []page) []page { return p[1:] }),
		"two dictionaries":   mut(func(p []page) []page { return append([]page{p[0]}, p...) }),
		"truncated":          b[:len(b)-7],
		"truncated header":   b[:3],
		"huge page size":     mut(func(p []page) []page { p[1].compr = 1 << 30; p[1].uncompressed = 1 << 30; return p }),
		"huge level length": mut(func(p []page) []page {
			binary.LittleEndian.PutUint32(p[1].body, 1<<31)
			return p
		}),
		"dictionary count over its bytes": mut(func(p []page) []page { p[0].numValues = 1 << 28; return p }),
		"sizes disagree":                  mut(func(p []page) []page { p[1].uncompressed = int32(len(p[1].body)) + 1; return p }),
	}
	for name, data := range hostile {
		out, err := d.Decode(data, int32Spec(rows), mem)
		if err == nil {
			out.Release()
			t.Errorf("%s: decoded", name)
			continue
		}
		if !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: %v does not wrap ErrInvalid", name, err)
		}
	}
	// a buffer over the allocator's limit is refused, not allocated
	big := int32Spec(1 << 20)
	big.MaxBuffer = 1 << 10
	if _, err := d.Decode(b, big, limitMem{mem, 1 << 10}); err == nil {
		t.Error("a buffer over the limit was allocated")
	}
	// what is not handled here is ErrFallback
	fb := mut(func(p []page) []page { p[1].enc = 5; return p }) // DELTA_BINARY_PACKED
	if _, err := d.Decode(fb, int32Spec(rows), mem); err != ErrFallback {
		t.Errorf("delta encoding: %v, want ErrFallback", err)
	}
}

// limitMem panics (as readlimit's allocator does) on a buffer over max.
type limitMem struct {
	memory.Allocator
	max int
}

func (m limitMem) Allocate(n int) []byte {
	if n > m.max {
		panic(errors.New("over the limit"))
	}
	return m.Allocator.Allocate(n)
}

// FuzzDecode decodes arbitrary bytes as a column chunk of every kind
// (types, optional or required, codecs): an error wraps ErrInvalid or is
// ErrFallback, never a panic, and nothing stays allocated.
func FuzzDecode(f *testing.F) {
	b, _, _, _ := validChunk(50)
	f.Add(b, uint8(0))
	f.Add(b[:len(b)/2], uint8(0))
	f.Add(b[:20], uint8(3))
	f.Add([]byte{}, uint8(1))
	// the chunks of the fast bombs and of their honest siblings
	var files [][]byte
	for _, b := range pqbomb.FastBombs() {
		files = append(files, b.Data)
	}
	files = append(files, pqbomb.FastValid()...)
	for _, data := range files {
		footer := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
		chunk := data[4 : len(data)-8-footer]
		for _, kind := range []uint8{0, 1, 4, 8, 9, 0x20} {
			f.Add(chunk, kind)
		}
	}
	types := []struct {
		phys int32
		t    arrow.DataType
	}{
		{pqscan.TypeInt32, arrow.PrimitiveTypes.Int32}, {pqscan.TypeInt64, arrow.PrimitiveTypes.Int64},
		{pqscan.TypeDouble, arrow.PrimitiveTypes.Float64}, {pqscan.TypeBoolean, arrow.FixedWidthTypes.Boolean},
		{pqscan.TypeBytes, arrow.BinaryTypes.String},
	}
	codecs := []int32{pqscan.CodecNone, pqscan.CodecSnappy, pqscan.CodecZstd, pqscan.CodecGzip}
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		ty := types[int(kind)%len(types)]
		s := Spec{Physical: ty.phys, Type: ty.t, Optional: kind&8 == 0, Codec: codecs[int(kind>>4)%len(codecs)], Rows: 50, MaxBuffer: 1 << 20}
		var d Decoder
		if kind&4 != 0 && ty.phys != pqscan.TypeBoolean && ty.phys != pqscan.TypeBytes {
			ls := ListSpec{Physical: ty.phys, Elem: ty.t, Type: arrow.ListOf(ty.t), NullList: kind&1 == 0, NullElem: kind&2 == 0, Rows: 20, Values: 60, MaxBuffer: 1 << 20}
			col, err := d.BeginList(ls, mem)
			if err == nil {
				if err = col.Chunk(data, 20, 60, s.Codec); err == nil {
					var out arrow.ArrayData
					if out, err = col.Finish(); err == nil {
						out.Release()
					}
				} else {
					col.Abort()
				}
			}
			if err != nil && err != ErrFallback && !errors.Is(err, ErrInvalid) {
				t.Fatalf("list: %v wraps neither ErrInvalid nor is ErrFallback", err)
			}
			mem.AssertSize(t, 0)
			return
		}
		out, err := d.Decode(data, s, mem)
		if err == nil {
			out.Release()
		} else if err != ErrFallback && !errors.Is(err, ErrInvalid) {
			t.Fatalf("%v wraps neither ErrInvalid nor is ErrFallback", err)
		}
		mem.AssertSize(t, 0)
	})
}

// defLevels is the 4-byte length and the RLE/bit-packed definition levels
// of valid (bit width 1).
func defLevels(rng *rand.Rand, valid []bool) []byte {
	defs := make([]uint32, len(valid))
	for i, v := range valid {
		if v {
			defs[i] = 1
		}
	}
	lv := rleEncode(rng, defs, 1)
	return append(binary.LittleEndian.AppendUint32(nil, uint32(len(lv))), lv...)
}

// A dictionary-encoded page whose rows are all null (no indices, not even
// their bit width) between pages with values: the offsets of its rows
// (byte arrays) stay those of the row before, and fixed-width values are
// zero, whatever the allocator left in the buffers. Before, the offsets
// of such a page were left as allocated (0 with Go's allocator: offsets
// going backwards, an invalid array).
func TestDecodeAllNullDictPage(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	dict := []string{"alpha", "", "a string longer than sixteen bytes"}
	var dbody []byte
	for _, v := range dict {
		dbody = binary.LittleEndian.AppendUint32(dbody, uint32(len(v)))
		dbody = append(dbody, v...)
	}
	pageValid := [][]bool{{true, false, true}, {false, false, false, false}, {true, true}}
	var want []string
	var valid []bool
	pages := []page{{typ: pqscan.PageDict, enc: pqscan.EncPlain, numValues: int32(len(dict)), body: dbody}}
	k := 0
	for _, pv := range pageValid {
		body := defLevels(rng, pv)
		var idx []uint32
		for _, v := range pv {
			valid = append(valid, v)
			if v {
				idx = append(idx, uint32(k%3))
				want = append(want, dict[k%3])
				k++
			} else {
				want = append(want, "")
			}
		}
		if len(idx) > 0 {
			body = append(body, 2)
			body = append(body, rleEncode(rng, idx, 2)...)
		}
		pages = append(pages, page{typ: pqscan.PageData, enc: pqscan.EncRLEDictionary, numValues: int32(len(pv)), body: body})
	}
	rows := len(want)
	for _, typ := range []string{"string", "int32"} {
		mem := memory.NewCheckedAllocator(dirtyMem{memory.NewGoAllocator()})
		s := Spec{Physical: pqscan.TypeBytes, Optional: true, Codec: pqscan.CodecNone, Rows: int64(rows), Type: arrow.BinaryTypes.String, MaxBuffer: 1 << 20}
		ps := pages
		if typ == "int32" {
			s.Physical, s.Type = pqscan.TypeInt32, arrow.PrimitiveTypes.Int32
			ps = append([]page{}, pages...)
			ps[0] = page{typ: pqscan.PageDict, enc: pqscan.EncPlain, numValues: 3, body: []byte{7, 0, 0, 0, 8, 0, 0, 0, 9, 0, 0, 0}}
		}
		var d Decoder
		out, err := d.Decode(join(ps), s, mem)
		if err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
		a := arrowarray.MakeFromData(out)
		out.Release()
		if v, ok := a.(interface{ ValidateFull() error }); ok {
			if err := v.ValidateFull(); err != nil {
				t.Fatalf("%s: %v", typ, err)
			}
		}
		for i := 0; i < rows; i++ {
			if a.IsValid(i) != valid[i] {
				t.Fatalf("%s: row %d valid %v", typ, i, a.IsValid(i))
			}
			switch x := a.(type) {
			case *arrowarray.String:
				if x.Value(i) != want[i] {
					t.Fatalf("row %d: %q, want %q", i, x.Value(i), want[i])
				}
			case *arrowarray.Int32:
				if !valid[i] && x.Value(i) != 0 {
					t.Fatalf("int32 row %d: null row holds %d", i, x.Value(i))
				}
			}
		}
		a.Release()
		mem.AssertSize(t, 0)
	}
}

// dirtyMem hands out buffers full of 0xA5, as an allocator that does not
// clear them may.
type dirtyMem struct{ memory.Allocator }

func (m dirtyMem) Allocate(n int) []byte {
	b := m.Allocator.Allocate(n)
	for i := range b {
		b[i] = 0xA5
	}
	return b
}

func (m dirtyMem) Reallocate(n int, b []byte) []byte {
	old := len(b)
	nb := m.Allocator.Reallocate(n, b)
	for i := old; i < len(nb); i++ {
		nb[i] = 0xA5
	}
	return nb
}
