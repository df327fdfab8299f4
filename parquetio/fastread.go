package parquetio

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/stride0/stride0/internal/readlimit"
	"github.com/stride0/stride0/parquetio/internal/pqdecode"
	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// The read path has two decoders: package pqdecode's, for the common flat
// case (a top-level primitive column, required or optional, PLAIN or
// dictionary pages; see its documentation), which decodes a column chunk
// straight into buffers from the caller's allocator, and pqarrow's for
// everything else. The choice is made per column when Read starts
// (fastSpec), and again per column chunk: a chunk pqdecode does not handle
// (ErrFallback: an encoding, a codec) is read by pqarrow alone. Both give
// the same arrays (TestFastReadMatchesPqarrow).

// colSource yields a column's rows batch by batch: pqarrow's ColumnReader
// or a fastColumn.
type colSource interface {
	NextBatch(n int64) (*arrow.Chunked, error)
	Release()
}

// withPqarrowOnly makes Read use pqarrow for every column (the tests'
// reference).
func withPqarrowOnly() ReadOption {
	return func(c *readConfig) { c.pqarrowOnly = true }
}

// withNoFallback makes a column pqdecode was chosen for fail where it
// would fall back to pqarrow (the tests' proof that a file went through
// pqdecode).
func withNoFallback() ReadOption {
	return func(c *readConfig) { c.noFallback = true }
}

// errNoFallback is the error of a fallback withNoFallback refused.
var errNoFallback = errors.New("parquetio: pqdecode fell back to pqarrow (withNoFallback)")

// fastList returns the pqdecode spec of manifest field sf when it is a
// list of fixed-width values in the three-level layout (or nil), and its
// leaf.
func fastList(scan *pqscan.File, sf *pqarrow.SchemaField, lim *readlimit.Allocator) (*pqdecode.ListSpec, int) {
	lt, ok := sf.Field.Type.(*arrow.ListType)
	if !ok || len(sf.Children) != 1 || len(sf.Children[0].Children) != 0 {
		return nil, 0
	}
	li := sf.Children[0].ColIndex
	if li < 0 || li >= len(scan.Leaves) {
		return nil, 0
	}
	leaf := scan.Leaves[li]
	e := scan.Elements[leaf.Element]
	if e.Parent <= 0 || leaf.MaxRep != 1 {
		return nil, 0
	}
	r := scan.Elements[e.Parent]
	if r.Parent <= 0 || r.Repetition != 2 || r.Children != 1 || e.Repetition == 2 {
		return nil, 0
	}
	l := scan.Elements[r.Parent]
	if l.Parent != 0 || l.Repetition == 2 || l.Children != 1 {
		return nil, 0
	}
	s := &pqdecode.ListSpec{Physical: e.Physical, Elem: lt.Elem(), Type: lt, NullList: l.Repetition == 1, NullElem: e.Repetition == 1, MaxBuffer: int64(lim.Max)}
	def := 1
	if s.NullList {
		def++
	}
	if s.NullElem {
		def++
	}
	if leaf.MaxDef != def || !pqdecode.Supported(e.Physical, lt.Elem()) || e.Physical == pqscan.TypeBoolean || e.Physical == pqscan.TypeBytes {
		return nil, 0
	}
	return s, li
}

// fastSpec returns the pqdecode spec of manifest field sf (its Arrow type
// as pqarrow reads it), and whether pqdecode can read it.
func fastSpec(scan *pqscan.File, sf *pqarrow.SchemaField, lim *readlimit.Allocator) (pqdecode.Spec, int, bool) {
	if len(sf.Children) != 0 || sf.ColIndex < 0 || sf.ColIndex >= len(scan.Leaves) {
		return pqdecode.Spec{}, 0, false
	}
	leaf := scan.Leaves[sf.ColIndex]
	el := scan.Elements[leaf.Element]
	if leaf.MaxRep != 0 || leaf.MaxDef > 1 || el.Parent != 0 || !pqdecode.Supported(el.Physical, sf.Field.Type) {
		return pqdecode.Spec{}, 0, false
	}
	return pqdecode.Spec{Physical: el.Physical, Optional: leaf.MaxDef == 1, Type: sf.Field.Type, MaxBuffer: int64(lim.Max)}, sf.ColIndex, true
}

// newSource returns the source of column k of p's schema over row groups
// groups.
func (p *pqReader) newSource(k int, groups []int) (colSource, error) {
	if p.fast[k] {
		return &fastColumn{p: p, k: k, groups: groups}, nil
	}
	return p.pqarrowSource(k, groups)
}

// pqarrowSource is pqarrow's reader of column k over groups.
func (p *pqReader) pqarrowSource(k int, groups []int) (cr *pqarrow.ColumnReader, err error) {
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("arrow-go panicked: %v", r)
			}
		}()
		cr, err = p.fr.GetFieldReader(context.Background(), p.fieldIdx[k], p.leaves[k], groups)
	}()
	if err != nil || cr == nil {
		return nil, fmt.Errorf("parquetio.Read: %w: column %q: %v", ErrInvalid, p.schema.Field(k).Name, err)
	}
	return cr, nil
}

// readScratch is a decoder's scratch space and a buffer for a column
// chunk's bytes, pooled across columns and row groups.
type readScratch struct {
	dec   pqdecode.Decoder
	chunk []byte
}

var readScratchPool = sync.Pool{New: func() any { return new(readScratch) }}

// fastColumn decodes column k row group by row group with pqdecode (or
// pqarrow for a chunk pqdecode leaves), handing out slices of the decoded
// row group.
type fastColumn struct {
	p      *pqReader
	k      int
	groups []int
	next   int         // the next row group of groups to decode
	cur    arrow.Array // the current row group's column
	at     int         // its rows handed out
}

func (f *fastColumn) Release() {
	if f.cur != nil {
		f.cur.Release()
		f.cur = nil
	}
}

func (f *fastColumn) NextBatch(n int64) (*arrow.Chunked, error) {
	typ := f.p.spec[f.k].Type
	if l := f.p.list[f.k]; l != nil {
		typ = l.Type
	}
	var parts []arrow.Array
	for n > 0 {
		if f.cur == nil || f.at == f.cur.Len() {
			f.Release()
			if f.next >= len(f.groups) {
				break
			}
			a, err := f.decode(f.groups[f.next])
			if err != nil {
				releaseArrow(parts)
				return nil, err
			}
			f.next++
			f.cur, f.at = a, 0
			continue
		}
		take := min(int64(f.cur.Len()-f.at), n)
		if f.p.list[f.k] != nil {
			parts = append(parts, listPart(f.p.lim, f.cur, f.at, int(take)))
		} else {
			parts = append(parts, arrowarray.NewSlice(f.cur, int64(f.at), int64(f.at)+take))
		}
		f.at += int(take)
		n -= take
	}
	ch := arrow.NewChunked(typ, parts)
	releaseArrow(parts)
	return ch, nil
}

// listPart is rows [from, from+n) of the list array a (of offset 0) as a
// list array of offset 0 (its offsets a slice of a's, its validity
// copied), as pqarrow gives them: frame's AsTensor takes a list's offset
// for its FixedSizeList's, which holds for offset 0 only.
func listPart(mem memory.Allocator, a arrow.Array, from, n int) arrow.Array {
	d := a.Data()
	offs := memory.SliceBuffer(d.Buffers()[1], from*4, (n+1)*4)
	defer offs.Release()
	var valid *memory.Buffer
	nulls := 0
	if b := d.Buffers()[0]; b != nil && d.NullN() > 0 {
		valid = memory.NewResizableBuffer(mem)
		defer valid.Release()
		valid.Resize(int(bitutil.BytesForBits(int64(n))))
		bitutil.CopyBitmap(b.Bytes(), from, n, valid.Bytes(), 0)
		nulls = n - bitutil.CountSetBits(valid.Bytes(), 0, n)
	}
	nd := arrowarray.NewData(d.DataType(), n, []*memory.Buffer{valid, offs}, d.Children(), nulls, 0)
	defer nd.Release()
	return arrowarray.MakeFromData(nd)
}

// decode reads row group g's chunk of the column whole.
func (f *fastColumn) decode(g int) (arrow.Array, error) {
	p := f.p
	s := readScratchPool.Get().(*readScratch)
	defer readScratchPool.Put(s)
	b, rows, codec, err := p.chunkBytes(s, g, f.k)
	if err != nil {
		return nil, err
	}
	var d arrow.ArrayData
	if ls := p.list[f.k]; ls != nil {
		l := *ls
		l.Rows, l.Values = rows, p.scan.RowGroups[g].Chunks[p.leaf[f.k]].NumValues
		var col *pqdecode.ListColumn
		if col, err = s.dec.BeginList(l, p.lim); err == nil {
			if err = col.Chunk(b, rows, l.Values, codec); err == nil {
				d, err = col.Finish()
			} else {
				col.Abort()
			}
		}
	} else {
		spec := p.spec[f.k]
		spec.Codec, spec.Rows = codec, rows
		d, err = s.dec.Decode(b, spec, p.lim)
	}
	if errors.Is(err, pqdecode.ErrFallback) {
		return f.fallback(g)
	}
	if err != nil {
		return nil, fmt.Errorf("parquetio.Read: column %q: row group %d: %w: %w", p.schema.Field(f.k).Name, g, ErrInvalid, err)
	}
	defer d.Release()
	return arrowarray.MakeFromData(d), nil
}

// checkChunk checks that row group g's chunk of the flat column k holds
// a value (or a null) per row, as the footer says: pqdecode reads pages
// until the rows are read, so they must be the pages pqscan checked (those
// of the chunk's num_values).
func (p *pqReader) checkChunk(g, k int) error {
	rg := p.scan.RowGroups[g]
	if c := rg.Chunks[p.leaf[k]]; p.list[k] == nil && c.NumValues != rg.Rows {
		return fmt.Errorf("parquetio.Read: column %q: %w: row group %d's chunk holds %d values for %d rows", p.schema.Field(k).Name, ErrInvalid, g, c.NumValues, rg.Rows)
	}
	return nil
}

// chunkBytes reads the bytes of row group g's chunk of column k into
// s.chunk; it returns them, the row group's rows and the chunk's codec.
func (p *pqReader) chunkBytes(s *readScratch, g, k int) ([]byte, int64, int32, error) {
	scan := p.scan
	rg := scan.RowGroups[g]
	c := rg.Chunks[p.leaf[k]]
	// as pqscan.CheckPages: up to 100 bytes of padding past the chunk
	end := c.Start + c.Len
	end += max(0, min(100, scan.Size-8-scan.FooterLen-end))
	size := end - c.Start
	if err := p.checkChunk(g, k); err != nil {
		return nil, 0, 0, err
	}
	if size > int64(p.lim.Max) {
		return nil, 0, 0, fmt.Errorf("parquetio.Read: column %q: %w: %w: row group %d's chunk of %d bytes exceeds the limit of %d", p.schema.Field(k).Name, ErrInvalid, ErrLimit, g, size, p.lim.Max)
	}
	if cap(s.chunk) > 64<<20 {
		s.chunk = nil // do not keep a huge buffer
	}
	if int64(cap(s.chunk)) < size {
		s.chunk = make([]byte, size)
	}
	b := s.chunk[:size]
	if m, err := p.r.ReadAt(b, c.Start); int64(m) < size {
		return nil, 0, 0, fmt.Errorf("parquetio.Read: column %q: %w: reading row group %d's %d bytes at %d: %w", p.schema.Field(k).Name, ErrInvalid, g, size, c.Start, err)
	}
	return b, rg.Rows, c.Codec, nil
}

// fallback reads row group g's chunk of the column with pqarrow.
func (f *fastColumn) fallback(g int) (a arrow.Array, err error) {
	p := f.p
	if p.noFallback {
		return nil, fmt.Errorf("column %q: row group %d: %w", p.schema.Field(f.k).Name, g, errNoFallback)
	}
	cr, err := p.pqarrowSource(f.k, []int{g})
	if err != nil {
		return nil, err
	}
	defer cr.Release()
	defer func() {
		if r := recover(); r != nil {
			a, err = nil, fmt.Errorf("parquetio.Read: column %q: %w: arrow-go panicked: %v", p.schema.Field(f.k).Name, ErrInvalid, r)
		}
	}()
	ch, err := cr.NextBatch(p.scan.RowGroups[g].Rows)
	if err != nil {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", p.schema.Field(f.k).Name, ErrInvalid, err)
	}
	defer ch.Release()
	switch len(ch.Chunks()) {
	case 0:
		return arrowarray.MakeArrayOfNull(p.lim, ch.DataType(), 0), nil
	case 1:
		a := ch.Chunk(0)
		a.Retain()
		return a, nil
	}
	return arrowarray.Concatenate(ch.Chunks(), p.lim)
}

// ReadTable reads the file r whole (the columns and row groups the
// options select, as Read does, with the same checks, limits and types)
// into one record whose columns are single arrays. A column pqdecode reads
// is decoded row group after row group straight into one set of buffers,
// so there are no batches to concatenate; the others are read by pqarrow
// and concatenated. With WithRowGroupWorkers(n > 1) or WithParallel, up to
// n (or all) columns are decoded at once. WithBatchRows is ignored.
func ReadTable(r parquet.ReaderAtSeeker, opts ...ReadOption) (rec arrow.Record, err error) {
	const what = "parquetio.ReadTable"
	defer readlimit.Guard(&err, what)
	rr, err := Read(r, opts...)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	p := rr.(*pqReader)
	c := applyReadOptions(opts)
	workers := max(1, c.groupWorkers)
	if c.parallel {
		workers = len(p.cols)
	}
	workers = min(workers, len(p.cols))
	cols := make([]arrow.Array, len(p.cols))
	errs := make([]error, len(p.cols))
	order := p.costOrder()
	var next atomic.Int64
	var failed atomic.Bool // a column failed: the others not started are not
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := readScratchPool.Get().(*readScratch)
			defer readScratchPool.Put(s)
			for !failed.Load() {
				i := int(next.Add(1) - 1)
				if i >= len(cols) {
					return
				}
				k := order[i]
				if cols[k], errs[k] = p.wholeColumn(k, s); errs[k] != nil {
					failed.Store(true)
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			releaseArrow(cols)
			return nil, err
		}
	}
	defer releaseArrow(cols)
	return arrowarray.NewRecord(p.schema, cols, p.rows), nil
}

// costOrder lists the columns read, the costliest to decode first (their
// chunks' bytes, and a value's bytes per row: strings count as 16), so
// that the workers of ReadTable do not end with one long column left.
func (p *pqReader) costOrder() []int {
	order := make([]int, len(p.cols))
	cost := make([]int64, len(p.cols))
	for k := range order {
		order[k] = k
		if !p.fast[k] {
			cost[k] = math.MaxInt64 // pqarrow: the slowest
			continue
		}
		w := int64(16)
		switch p.spec[k].Physical {
		case pqscan.TypeInt32, pqscan.TypeFloat:
			w = 4
		case pqscan.TypeInt64, pqscan.TypeDouble:
			w = 8
		case pqscan.TypeBoolean:
			w = 1
		}
		for _, g := range p.sel {
			rg := p.scan.RowGroups[g]
			cost[k] += rg.Chunks[p.leaf[k]].Len + w*rg.Rows
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return cost[order[i]] > cost[order[j]] })
	return order
}

// wholeFallback reads column k as Read does (pqdecode's fastColumn falls
// back per row group): for a column pqdecode does not read whole.
func (p *pqReader) wholeFallback(k int) (arrow.Array, error) {
	if p.noFallback && p.fast[k] {
		return nil, fmt.Errorf("column %q: %w", p.schema.Field(k).Name, errNoFallback)
	}
	return p.readColumnOf(p.cols[k], k, p.rows)
}

// wholeColumn reads column k over all the row groups read as one array.
func (p *pqReader) wholeColumn(k int, s *readScratch) (arrow.Array, error) {
	if !p.fast[k] || p.rows > math.MaxInt32 {
		return p.wholeFallback(k)
	}
	if p.list[k] != nil {
		return p.wholeList(k, s)
	}
	for _, g := range p.sel { // before the buffers of all the rows are allocated
		if err := p.checkChunk(g, k); err != nil {
			return nil, err
		}
	}
	spec := p.spec[k]
	spec.Rows = p.rows
	col, err := s.dec.Begin(spec, p.lim)
	if errors.Is(err, pqdecode.ErrFallback) {
		return p.wholeFallback(k)
	}
	if err != nil {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", p.schema.Field(k).Name, ErrInvalid, err)
	}
	for _, g := range p.sel {
		b, rows, codec, err := p.chunkBytes(s, g, k)
		if err == nil {
			err = col.Chunk(b, rows, codec)
		}
		if errors.Is(err, pqdecode.ErrFallback) {
			col.Abort()
			return p.wholeFallback(k) // p.cols[k] falls back per row group
		}
		if err != nil {
			col.Abort()
			if errors.Is(err, pqdecode.ErrInvalid) {
				err = fmt.Errorf("parquetio.Read: column %q: row group %d: %w: %w", p.schema.Field(k).Name, g, ErrInvalid, err)
			}
			return nil, err
		}
	}
	d, err := col.Finish()
	if errors.Is(err, pqdecode.ErrFallback) {
		return p.wholeFallback(k)
	}
	if err != nil {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", p.schema.Field(k).Name, ErrInvalid, err)
	}
	a := arrowarray.MakeFromData(d)
	d.Release()
	defer a.Release()
	return p.readColumnOf(&arraySource{a}, k, p.rows)
}

// wholeList is wholeColumn for a list column.
func (p *pqReader) wholeList(k int, s *readScratch) (arrow.Array, error) {
	l := *p.list[k]
	l.Rows = p.rows
	for _, g := range p.sel {
		n := p.scan.RowGroups[g].Chunks[p.leaf[k]].NumValues
		if n < 0 || l.Values > math.MaxInt32-n {
			return p.wholeFallback(k)
		}
		l.Values += n
	}
	col, err := s.dec.BeginList(l, p.lim)
	if errors.Is(err, pqdecode.ErrFallback) {
		return p.wholeFallback(k)
	}
	if err != nil {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", p.schema.Field(k).Name, ErrInvalid, err)
	}
	for _, g := range p.sel {
		b, rows, codec, err := p.chunkBytes(s, g, k)
		if err == nil {
			err = col.Chunk(b, rows, p.scan.RowGroups[g].Chunks[p.leaf[k]].NumValues, codec)
		}
		if errors.Is(err, pqdecode.ErrFallback) {
			col.Abort()
			return p.wholeFallback(k)
		}
		if err != nil {
			col.Abort()
			if errors.Is(err, pqdecode.ErrInvalid) {
				err = fmt.Errorf("parquetio.Read: column %q: row group %d: %w: %w", p.schema.Field(k).Name, g, ErrInvalid, err)
			}
			return nil, err
		}
	}
	d, err := col.Finish()
	if err != nil {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", p.schema.Field(k).Name, ErrInvalid, err)
	}
	a := arrowarray.MakeFromData(d)
	d.Release()
	defer a.Release()
	return p.readColumnOf(&arraySource{a}, k, p.rows)
}

// arraySource hands out one array whole.
type arraySource struct{ a arrow.Array }

func (s *arraySource) NextBatch(int64) (*arrow.Chunked, error) {
	return arrow.NewChunked(s.a.DataType(), []arrow.Array{s.a}), nil
}

func (s *arraySource) Release() {}
