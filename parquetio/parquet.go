package parquetio

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/bitutil"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/file"
	"github.com/apache/arrow/go/v15/parquet/pqarrow"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/readlimit"
	"github.com/stride0/stride0/internal/suggest"
	"github.com/stride0/stride0/parquetio/internal/pqdecode"
	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// Parquet goes through arrow-go v15's own parquet/pqarrow, with two
// workarounds:
//
//   - pqarrow writes an extension column as its storage plus the extension's
//     name and metadata in the stored Arrow schema (ARROW:schema, written
//     because Write always stores it), but cannot read an extension
//     column back ("extension type not implemented"). Read swaps the
//     storage type into pqarrow's schema manifest, reads the storage, and
//     wraps it again as the extension (no copy).
//   - pqarrow cannot write a FixedSizeList with a null row ("lists with
//     non-zero length null components are not supported"). The rule (the one
//     arrowio's tensor columns follow everywhere): a null row is written
//     as a valid row whose elements are all null, and on read a
//     FixedSizeList row whose elements are all null is a null row.

// DefaultBatchRows is the number of rows Read puts in a batch
// unless WithBatchRows says otherwise.
const DefaultBatchRows = 64 << 10

// ReadOption configures Read and Info.
type ReadOption func(*readConfig)

type readConfig struct {
	readlimit.Config          // WithAllocator, WithMaxBuffer, WithMaxTotal
	columns          []string // nil: all
	parallel         bool
	groupWorkers     int
	batch            int
	rowGroups        []int // nil: all
	pqarrowOnly      bool  // withPqarrowOnly
	noFallback       bool  // withNoFallback
}

// applyReadOptions returns the configuration opts make, defaults filled in.
func applyReadOptions(opts []ReadOption) readConfig {
	var c readConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	c.Fill()
	if c.batch <= 0 {
		c.batch = DefaultBatchRows
	}
	return c
}

// ipcOptions are the options arrowio.ReadStream takes to read the Arrow
// schema stored in a file under c's allocator and limits.
func (c *readConfig) ipcOptions() []arrowio.ReadOption {
	return []arrowio.ReadOption{arrowio.WithAllocator(c.Mem), arrowio.WithMaxBuffer(c.Max), arrowio.WithMaxTotal(c.Total)}
}

// WithAllocator sets the allocator batches are read into
// (memory.DefaultAllocator by default).
func WithAllocator(mem memory.Allocator) ReadOption {
	return func(c *readConfig) { c.Mem = mem }
}

// WithMaxBuffer sets the largest single buffer (a page, a decompressed
// page, a column chunk, a batch's buffer) the reader may allocate; input
// that asks for more fails with an error wrapping ErrInvalid and ErrLimit.
// n <= 0 means arrowio.DefaultMaxBuffer.
func WithMaxBuffer(n int) ReadOption {
	return func(c *readConfig) { c.Max = n }
}

// WithMaxTotal sets the most bytes a reader may allocate over its whole
// life: n > 0 is that many bytes, n < 0 means no limit, 0 the default
// (arrowio.DefaultTotalBase + arrowio.DefaultTotalRatio × the file's size).
func WithMaxTotal(n int64) ReadOption {
	return func(c *readConfig) { c.Total = n }
}

// WithColumns makes Read read only the named top-level columns, in
// the order given (the other columns' bytes are not read). A name the file
// does not have fails with ErrNoColumn (the message lists the file's
// columns and suggests the nearest).
func WithColumns(names ...string) ReadOption {
	names = append([]string{}, names...)
	return func(c *readConfig) { c.columns = names }
}

// WithParallel makes Read decode the columns of a batch concurrently,
// one goroutine per column.
func WithParallel(on bool) ReadOption {
	return func(c *readConfig) { c.parallel = on }
}

// WithRowGroupWorkers makes Read decode up to n row groups at once, each
// on its own goroutine, ahead of the batches the caller reads (n == 1: one
// row group at a time, in the caller's goroutine; n <= 0, the default:
// batches of WithBatchRows rows that may span row groups). Batches still
// come in the file's order, but with n >= 1 none spans two row groups. Memory: up to n
// decoded row groups besides the batch being read. Every limit holds as
// without it (the checks run once, before any decoding; the allocations of
// all the row groups count against one WithMaxTotal).
func WithRowGroupWorkers(n int) ReadOption {
	return func(c *readConfig) { c.groupWorkers = n }
}

// WithBatchRows sets the number of rows per batch Read yields (n <= 0
// means DefaultBatchRows).
func WithBatchRows(n int) ReadOption {
	return func(c *readConfig) { c.batch = n }
}

// WithRowGroups makes Read read only the row groups of these indices
// (0-based), in the order given; an index may appear more than once. An
// index outside the file's row groups fails with ErrInvalid. No index at
// all reads no rows. Without it every row group is read.
func WithRowGroups(idx ...int) ReadOption {
	idx = append([]int{}, idx...)
	return func(c *readConfig) { c.rowGroups = idx }
}

// WriteOption configures Write.
type WriteOption func(*writeConfig)

type writeConfig struct {
	mem      memory.Allocator
	rowGroup int64
	props    []parquet.WriterProperty
	workers  int
	// pageBytes is the rough size of the fast writer's data pages (0:
	// fastPageBytes); set by tests.
	pageBytes int
}

// DefaultRowGroupRows is the largest row group Write writes unless
// WithRowGroupRows says otherwise.
const DefaultRowGroupRows = 1 << 20

// WithRowGroupRows sets the largest number of rows in one row group (n <= 0
// means DefaultRowGroupRows). Each batch starts no new row group by itself:
// batches fill row groups of n rows.
func WithRowGroupRows(n int) WriteOption {
	return func(c *writeConfig) { c.rowGroup = int64(n) }
}

// WithWriteAllocator sets the allocator Write's temporary buffers
// come from (memory.DefaultAllocator by default).
func WithWriteAllocator(mem memory.Allocator) WriteOption {
	return func(c *writeConfig) { c.mem = mem }
}

// WithWriteWorkers sets how many column chunks of a row group are encoded
// at once (n <= 0: runtime.GOMAXPROCS(0)). It applies to the files written
// without WithProperties whose columns are all flat numbers, dates or
// strings (see fastColumnOf); the others are written by arrow-go's
// pqarrow, one column after another.
func WithWriteWorkers(n int) WriteOption {
	return func(c *writeConfig) { c.workers = n }
}

// WithProperties passes writer properties to arrow-go's parquet
// writer (compression, dictionary, statistics, data page version, ...).
// WithRowGroupRows and WithWriteAllocator override the matching properties.
// Write writes version 2 data pages by default; version 1 pages
// (parquet.WithDataPageVersion(parquet.DataPageV1)) are written correctly
// but slowly by arrow-go v15 for tensor and nullable columns (a copy of the
// page's level buffer every few values).
func WithProperties(props ...parquet.WriterProperty) WriteOption {
	return func(c *writeConfig) { c.props = append(c.props, props...) }
}

// Write writes every batch of rr to w as one Parquet file, with the
// Arrow schema stored in the file's metadata (ARROW:schema), so that
// arrow.fixed_shape_tensor columns, field metadata and FixedSizeList sizes
// come back from Read (and pyarrow) as they were. Null tensor rows
// are written as rows of null elements (see Read). An empty rr writes
// a file with the schema and no rows. It does not close w.
func Write(w io.Writer, rr arrowarray.RecordReader, opts ...WriteOption) (err error) {
	if w == nil || rr == nil {
		return fmt.Errorf("parquetio.Write: %w: nil writer or reader", array.ErrNil)
	}
	schema := rr.Schema()
	if schema == nil {
		return fmt.Errorf("parquetio.Write: %w: reader without a schema", ErrInvalid)
	}
	pw, err := newWriter("parquetio.Write", w, schema, opts)
	if err != nil {
		return err
	}
	defer pw.abort()
	for rr.Next() {
		if err := pw.write("parquetio.Write", rr.Record()); err != nil {
			return err
		}
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("parquetio.Write: reading batches: %w", err)
	}
	return pw.close("parquetio.Write")
}

// pqGroup gathers the pieces of one row group.
type pqGroup struct {
	mem    memory.Allocator
	schema *arrow.Schema
	parts  []arrow.Record
	rows   int64
}

func (g *pqGroup) release() {
	for _, p := range g.parts {
		p.Release()
	}
	g.parts, g.rows = nil, 0
}

// flush writes the gathered pieces as one row group (nothing if none).
func (g *pqGroup) flush(fw *pqarrow.FileWriter) error {
	defer g.release()
	if g.rows == 0 {
		return nil
	}
	rec, err := g.concat()
	if err != nil {
		return err
	}
	defer rec.Release()
	if err := fw.Write(rec); err != nil {
		return fmt.Errorf("parquetio.Write: %w: %w", ErrUnsupported, err)
	}
	return nil
}

// concat returns the gathered pieces as one record (retained).
func (g *pqGroup) concat() (arrow.Record, error) {
	if len(g.parts) == 1 {
		g.parts[0].Retain()
		return g.parts[0], nil
	}
	cols := make([]arrow.Array, g.schema.NumFields())
	defer releaseArrow(cols)
	for i := range cols {
		chunks := make([]arrow.Array, len(g.parts))
		for j, p := range g.parts {
			chunks[j] = p.Column(i)
		}
		c, err := arrowarray.Concatenate(chunks, g.mem)
		if err != nil {
			return nil, fmt.Errorf("parquetio.Write: column %q: %w: %w", g.schema.Field(i).Name, ErrInvalid, err)
		}
		cols[i] = c
	}
	return arrowarray.NewRecord(g.schema, cols, g.rows), nil
}

// pqWritable returns rec with every top-level FixedSizeList column (plain or
// as extension storage) that has null rows or an offset rewritten: offset 0,
// no row validity, and the elements of the null rows null. Other columns are
// shared.
func pqWritable(mem memory.Allocator, rec arrow.Record, ws *arrow.Schema) (arrow.Record, error) {
	cols := make([]arrow.Array, rec.NumCols())
	defer releaseArrow(cols)
	for i, col := range rec.Columns() {
		if wt := ws.Field(i).Type; !arrow.TypeEqual(wt, col.DataType()) {
			rd := retypeData(col.Data(), wt) // ws's relaxed field types
			col = arrowarray.MakeFromData(rd)
			rd.Release()
			defer col.Release()
		}
		d := col.Data()
		ext, _ := col.DataType().(arrow.ExtensionType)
		if ext != nil {
			d = col.(arrowarray.ExtensionArray).Storage().Data()
		}
		fsl, ok := d.DataType().(*arrow.FixedSizeListType)
		if !ok && (hasFSL(d.DataType()) || d.DataType().ID() == arrow.DICTIONARY) && d.Offset() != 0 {
			// A FixedSizeList under a struct or list of a slice, or a
			// dictionary array of a slice (pqarrow v15 fails on it:
			// "slice bounds out of range"): copied whole, as pqarrow ignores
			// its offset too.
			c, err := arrowarray.Concatenate([]arrow.Array{col}, mem)
			if err != nil {
				return nil, fmt.Errorf("column %q: %w: %w", rec.ColumnName(i), ErrInvalid, err)
			}
			cols[i] = c
			continue
		}
		if !ok || (d.NullN() == 0 && d.Offset() == 0) {
			col.Retain()
			cols[i] = col
			continue
		}
		nd, err := fslNoRowNulls(mem, d, int(fsl.Len()))
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", rec.ColumnName(i), err)
		}
		if ext != nil {
			nd.Reset(ext, nd.Len(), nd.Buffers(), nd.Children(), 0, nd.Offset())
		}
		cols[i] = arrowarray.MakeFromData(nd)
		nd.Release()
	}
	return arrowarray.NewRecord(ws, cols, rec.NumRows()), nil
}

func releaseArrow(as []arrow.Array) {
	for _, a := range as {
		if a != nil {
			a.Release()
		}
	}
}

// fslNoRowNulls: d (a FixedSizeList of list size k) as a FixedSizeList of
// offset 0 without row validity whose child (sliced to d's rows) is null
// wherever d's child is null or its row is.
func fslNoRowNulls(mem memory.Allocator, d arrow.ArrayData, k int) (*arrowarray.Data, error) {
	if len(d.Children()) != 1 || len(d.Buffers()) < 1 || (d.NullN() > 0 && d.Buffers()[0] == nil) {
		return nil, fmt.Errorf("%w: FixedSizeList with nulls but no validity bitmap, or no child", ErrInvalid)
	}
	n, off := d.Len(), d.Offset()
	child := d.Children()[0]
	if child.Len() < (off+n)*k || (d.NullN() > 0 && d.Buffers()[0].Len() < readlimit.BitmapBytes(off+n)) {
		return nil, fmt.Errorf("%w: FixedSizeList of %d rows of %d at offset %d over a child of %d", ErrInvalid, n, k, off, child.Len())
	}
	if d.NullN() == 0 {
		sub := arrowarray.NewSliceData(child, int64(off*k), int64((off+n)*k))
		defer sub.Release()
		return arrowarray.NewData(d.DataType(), n, []*memory.Buffer{nil}, []arrow.ArrayData{sub}, 0, 0), nil
	}
	base := child.Offset() + off*k // the first element, in the child's buffers
	rows := d.Buffers()[0].Bytes()
	var elems []byte
	if b := child.Buffers()[0]; b != nil && child.NullN() > 0 {
		elems = b.Bytes()
	}
	bm := memory.NewResizableBuffer(mem)
	bm.Resize(readlimit.BitmapBytes(base + n*k))
	out := bm.Bytes()
	for i := range out {
		out[i] = 0
	}
	nulls := 0
	for r := 0; r < n; r++ {
		rowOK := bitutil.BitIsSet(rows, off+r)
		for j := 0; j < k; j++ {
			e := base + r*k + j
			if rowOK && (elems == nil || bitutil.BitIsSet(elems, e)) {
				bitutil.SetBit(out, e)
			} else {
				nulls++
			}
		}
	}
	cb := append([]*memory.Buffer{bm}, child.Buffers()[1:]...)
	nc := arrowarray.NewData(child.DataType(), n*k, cb, child.Children(), nulls, base)
	bm.Release()
	defer nc.Release()
	return arrowarray.NewData(d.DataType(), n, []*memory.Buffer{nil}, []arrow.ArrayData{nc}, 0, 0), nil
}

// Read returns a RecordReader over the Parquet file r (pqarrow
// needs random access: an *os.File, a *bytes.Reader). Options:
// WithAllocator, WithMaxBuffer (it caps every single buffer the decoder
// allocates, so a corrupt length fails with ErrInvalid instead of
// allocating it), WithMaxTotal, WithColumns, WithParallel, WithBatchRows
// and WithRowGroups.
//
// arrow.fixed_shape_tensor columns come back as
// *arrowio.FixedShapeTensorArray with their metadata, ready for
// arrowio.FromArrow without a copy. A FixedSizeList row (tensor row) whose
// elements are all null is a null row: that is how Write writes null rows,
// and what arrowio.ToTensorColumn does with a mask.
// Memory: for each column read, its compressed column chunk in the current
// row group (pqarrow reads a chunk whole) and a batch. Malformed input returns
// an error wrapping ErrInvalid, never a panic. Before arrow-go reads
// anything, the footer, and the page headers and codec frames of the
// chunks to be read, are checked against the file's real bytes and the
// limits (see the package documentation): a size that lies fails here,
// naming the row group, column, page and sizes, instead of being
// allocated. A file that is not Parquet fails with ErrInvalid ("not a
// Parquet file"), a column of WithColumns the file lacks with ErrNoColumn.
//
// Each batch is valid until the next call to Next. Release the reader when
// done (it does not close r).
func Read(r parquet.ReaderAtSeeker, opts ...ReadOption) (rr arrowarray.RecordReader, err error) {
	const what = "parquetio.Read"
	c := applyReadOptions(opts)
	defer readlimit.Guard(&err, what)
	o, err := openParquet(what, r, &c)
	if err != nil {
		return nil, err
	}
	pf, m := o.pf, o.fr.Manifest
	ok := false
	defer func() {
		if !ok {
			pf.Close()
		}
	}()
	groups := c.rowGroups
	if groups == nil {
		groups = make([]int, pf.NumRowGroups())
		for i := range groups {
			groups[i] = i
		}
	}
	var rows int64
	for _, g := range groups {
		if g < 0 || g >= pf.NumRowGroups() {
			return nil, fmt.Errorf("%s: %w: row group %d of a file of %d row groups", what, ErrInvalid, g, pf.NumRowGroups())
		}
		n := pf.MetaData().RowGroup(g).NumRows()
		if n < 0 || rows > math.MaxInt64-n {
			return nil, fmt.Errorf("%s: %w: row group %d holds %d rows", what, ErrInvalid, g, n)
		}
		rows += n
	}
	if c.rowGroups == nil {
		rows = pf.NumRows()
	}
	idx := make([]int, 0, len(m.Fields))
	if c.columns == nil {
		for i := range m.Fields {
			idx = append(idx, i)
		}
	} else {
		for _, name := range c.columns {
			j := -1
			for i := range m.Fields {
				if m.Fields[i].Field.Name == name {
					j = i
					break
				}
			}
			if j < 0 {
				have := make([]string, len(m.Fields))
				for i := range m.Fields {
					have[i] = m.Fields[i].Field.Name
				}
				return nil, suggest.MissingError(what, ErrNoColumn, name, have)
			}
			idx = append(idx, j)
		}
	}
	// Every page of the chunks to be read is checked before pqarrow reads
	// one (pqscan: the sizes arrow-go would allocate).
	var leafList []int
	for _, i := range idx {
		leaves := map[int]bool{}
		pqLeaves(&m.Fields[i], leaves)
		for l := range leaves {
			leafList = append(leafList, l)
		}
	}
	if err := o.scan.CheckPages(o.r, groups, leafList, pqLimits(o.lim)); err != nil {
		return nil, pqScanErr(what, err)
	}
	p := &pqReader{pf: pf, lim: o.lim, parallel: c.parallel, batch: int64(c.batch), fr: o.fr, scan: o.scan, r: o.r, noFallback: c.noFallback}
	p.refs.Store(1)
	fields := make([]arrow.Field, len(idx))
	for k, i := range idx {
		sf := &m.Fields[i]
		f := o.field(i)
		if ext, isExt := sf.Field.Type.(arrow.ExtensionType); isExt {
			sf.Field.Type = ext.StorageType() // read the storage, wrap it after
		}
		leaves := map[int]bool{}
		pqLeaves(sf, leaves)
		spec, leaf, fast := fastSpec(o.scan, sf, o.lim)
		list, lleaf := fastList(o.scan, sf, o.lim)
		if list != nil {
			fast, leaf = true, lleaf
		}
		p.list = append(p.list, list)
		p.fieldIdx = append(p.fieldIdx, i)
		p.leaves = append(p.leaves, leaves)
		p.fast = append(p.fast, fast && !c.pqarrowOnly)
		p.spec = append(p.spec, spec)
		p.leaf = append(p.leaf, leaf)
		fields[k] = f
	}
	p.schema = arrow.NewSchema(fields, m.SchemaMeta)
	for k := range idx {
		src, err := p.newSource(k, groups)
		if err != nil {
			p.Release()
			ok = true // p.Release closed pf
			return nil, fmt.Errorf("%s: %w", what, err)
		}
		p.cols = append(p.cols, src)
	}
	p.rows, p.sel = rows, groups
	if c.groupWorkers >= 1 && len(groups) > 1 {
		p.groups, p.workers = groups, c.groupWorkers
	}
	ok = true
	return p, nil
}

// field is the Arrow field Read gives for column i of pqarrow's
// manifest: the stored type (an extension type kept), the field's metadata
// without the keys pqarrow adds, and the nullability Write was given.
func (o *pqOpen) field(i int) arrow.Field {
	f := *o.fr.Manifest.Fields[i].Field
	f.Metadata = pqMetadata(f.Metadata)
	if o.orig != nil {
		if of := o.orig.Field(i); of.Name == f.Name && sameUpToNulls(of.Type, f.Type) {
			f.Type, f.Nullable = of.Type, of.Nullable
		}
	}
	if origin := o.fr.Manifest.OriginSchema; origin != nil && i < origin.NumFields() && origin.Field(i).Name == f.Name {
		if t, ok := storedTimestamp(origin.Field(i).Type, f.Type); ok {
			f.Type = t
		}
	}
	return f
}

// storedTimestamp is the timestamp type a column was written as, from the
// Arrow schema stored in the file, when pqarrow reads it as another:
// arrow-go v15 reads every timestamp column as zone "UTC" (a column
// without a zone included) and a column of seconds as milliseconds (Parquet
// has no seconds). read is the type pqarrow reads.
func storedTimestamp(stored, read arrow.DataType) (arrow.DataType, bool) {
	st, ok1 := stored.(*arrow.TimestampType)
	rt, ok2 := read.(*arrow.TimestampType)
	if !ok1 || !ok2 || arrow.TypeEqual(st, rt) {
		return nil, false
	}
	if st.Unit == rt.Unit || (st.Unit == arrow.Second && rt.Unit == arrow.Millisecond) {
		return st, true
	}
	return nil, false
}

// retimestamp returns d, a timestamp column as pqarrow read it, as type t
// (storedTimestamp): the same buffers when only the zone differs,
// milliseconds divided by 1000 into a new buffer for seconds.
func retimestamp(mem memory.Allocator, d arrow.ArrayData, t *arrow.TimestampType) arrow.ArrayData {
	rt := d.DataType().(*arrow.TimestampType)
	if rt.Unit == t.Unit || d.Len() == 0 {
		return arrowarray.NewData(t, d.Len(), d.Buffers(), nil, d.NullN(), d.Offset())
	}
	src := arrow.TimestampTraits.CastFromBytes(d.Buffers()[1].Bytes())[d.Offset() : d.Offset()+d.Len()]
	buf := memory.NewResizableBuffer(mem)
	buf.Resize(arrow.TimestampTraits.BytesRequired(d.Len()))
	dst := arrow.TimestampTraits.CastFromBytes(buf.Bytes())
	for k, v := range src {
		dst[k] = v / 1000 // written from whole seconds
	}
	var valid *memory.Buffer
	if d.NullN() > 0 && d.Buffers()[0] != nil {
		valid = memory.NewResizableBuffer(mem)
		valid.Resize(readlimit.BitmapBytes(d.Len()))
		bitutil.CopyBitmap(d.Buffers()[0].Bytes(), d.Offset(), d.Len(), valid.Bytes(), 0)
		defer valid.Release()
	}
	defer buf.Release()
	return arrowarray.NewData(t, d.Len(), []*memory.Buffer{valid, buf}, nil, d.NullN(), 0)
}

// pqOpen is a Parquet file opened for reading: its footer parsed, the
// stored Arrow schema checked, pqarrow's reader over it.
type pqOpen struct {
	pf  *file.Reader
	fr  *pqarrow.FileReader
	lim *readlimit.Allocator
	// scan is the footer as pqscan read it; r the caller's reader.
	scan *pqscan.File
	r    parquet.ReaderAtSeeker
	sel  []int // the row groups read
	// orig is the schema Write was given when it wrote some columns
	// more nullable than they were (stride0:schema), else nil.
	orig *arrow.Schema
}

// openParquet opens r as Read and Info do. On error nothing
// is left open.
func openParquet(what string, r parquet.ReaderAtSeeker, c *readConfig) (*pqOpen, error) {
	if r == nil {
		return nil, fmt.Errorf("%s: %w: nil reader", what, array.ErrNil)
	}
	lim := c.Limiter()
	// The default total limit (WithMaxTotal) grows with the input: here the
	// whole file counts as read.
	size, err := r.Seek(0, io.SeekEnd)
	if err != nil {
		return nil, fmt.Errorf("%s: %w: seeking to the end: %w", what, ErrInvalid, err)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w: seeking to the start: %w", what, ErrInvalid, err)
	}
	lim.Input.Store(size)
	if err := pqMagic(r, size); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	// Our own bounded reading of the footer first: arrow-go's allocates what
	// the footer claims, and builds deep schemas in quadratic time.
	scan, err := pqscan.ReadFooter(r, size, pqLimits(lim))
	if err != nil {
		return nil, pqScanErr(what, err)
	}
	// Pages are decoded into buffers from Go's heap, under the same limits:
	// arrow-go v15 releases a version 2 page only when it reads the next
	// one, so the last page of a column chunk would otherwise stay counted
	// against the caller's allocator. The batches' buffers come from lim.
	pages := &readlimit.Allocator{Mem: memory.NewGoAllocator(), Max: lim.Max, Total: lim.Total}
	pages.Input.Store(size)
	// pqNoClose hides r's Close: file.Reader.Close closes an io.Closer, and
	// r is the caller's.
	pf, err := file.NewParquetReader(pqNoClose{r}, file.WithReadProps(parquet.NewReaderProperties(pages)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w: %w", what, ErrInvalid, err)
	}
	// ReadStream's checks reject the malformed flatbuffers that would make
	// arrow-go allocate without bound when pqarrow parses ARROW:schema.
	if _, err := storedSchema(pf, "ARROW:schema", "stored Arrow schema", c.ipcOptions()); err != nil {
		pf.Close()
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(c.batch)}, lim)
	if err != nil {
		pf.Close()
		return nil, fmt.Errorf("%s: %w: %w", what, ErrInvalid, err)
	}
	o := &pqOpen{pf: pf, fr: fr, lim: lim, scan: scan, r: r}
	if o.orig, err = storedSchema(pf, pqSchemaKey, pqSchemaKey, c.ipcOptions()); err != nil {
		pf.Close()
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if o.orig != nil && o.orig.NumFields() != len(fr.Manifest.Fields) {
		o.orig = nil // not this file's: ignore it
	}
	return o, nil
}

// pqMaxDepth is the deepest nesting of groups a Parquet schema may have.
const pqMaxDepth = pqscan.MaxSchemaDepth

// pqLimits is the limits of lim as pqscan takes them.
func pqLimits(lim *readlimit.Allocator) pqscan.Limits {
	return pqscan.Limits{MaxBuffer: int64(lim.Max), MaxTotal: lim.Limit()}
}

// pqScanErr wraps an error of pqscan in this package's sentinels.
func pqScanErr(what string, err error) error {
	switch {
	case errors.Is(err, pqscan.ErrLimit):
		return fmt.Errorf("%s: %w: %w: %w", what, ErrInvalid, ErrLimit, err)
	case errors.Is(err, pqscan.ErrUnsupported):
		return fmt.Errorf("%s: %w: %w", what, ErrUnsupported, err)
	}
	return fmt.Errorf("%s: %w: %w", what, ErrInvalid, err)
}

// pqNoClose is the caller's reader without its Close method (if it has
// one), so that closing arrow-go's file.Reader leaves it open.
type pqNoClose struct{ parquet.ReaderAtSeeker }

// pqMagic refuses r (of size bytes) unless it starts and ends with
// Parquet's magic "PAR1": a text file, an Arrow file or an empty file is
// not a Parquet file (ErrInvalid), an encrypted footer ("PARE") is
// ErrUnsupported.
func pqMagic(r io.ReaderAt, size int64) error {
	const magic = "PAR1"
	if size < 12 {
		return fmt.Errorf("%w: not a Parquet file (%d bytes, fewer than the 12 of the smallest)", ErrInvalid, size)
	}
	var head, tail [4]byte
	if _, err := r.ReadAt(head[:], 0); err != nil {
		return fmt.Errorf("%w: reading the first 4 bytes: %w", ErrInvalid, err)
	}
	if _, err := r.ReadAt(tail[:], size-4); err != nil {
		return fmt.Errorf("%w: reading the last 4 bytes: %w", ErrInvalid, err)
	}
	switch {
	case string(tail[:]) == "PARE":
		return fmt.Errorf("%w: an encrypted Parquet file (footer magic PARE)", ErrUnsupported)
	case string(head[:]) != magic || string(tail[:]) != magic:
		return fmt.Errorf("%w: not a Parquet file (it does not start and end with %q: %q ... %q)", ErrInvalid, magic, head[:], tail[:])
	}
	return nil
}

// storedSchema decodes the schema stored in the file's metadata under key
// (ARROW:schema or stride0:schema: an IPC stream holding a schema message,
// base64) with arrowio.ReadStream's checks; nil when the file has none. what names
// it in errors.
func storedSchema(pf *file.Reader, key, what string, opts []arrowio.ReadOption) (*arrow.Schema, error) {
	kv := pf.MetaData().KeyValueMetadata()
	if kv == nil {
		return nil, nil
	}
	v := kv.FindValue(key)
	if v == nil {
		return nil, nil
	}
	var dec []byte
	var err error
	if len(*v)%4 == 0 { // as pqarrow decodes it
		dec, err = base64.StdEncoding.DecodeString(*v)
	}
	if len(dec) == 0 || err != nil {
		if dec, err = base64.RawStdEncoding.DecodeString(*v); err != nil {
			return nil, fmt.Errorf("%w: %s: %w", ErrInvalid, what, err)
		}
	}
	rr, err := arrowio.ReadStream(bytes.NewReader(dec), opts...)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	defer rr.Release()
	return rr.Schema(), nil
}

// pqMetadata drops the keys pqarrow adds to a field's metadata: the
// PARQUET:field_id -1 it gives fields without an id, and the extension keys
// of a field whose type is the extension.
func pqMetadata(m arrow.Metadata) arrow.Metadata {
	var keys, vals []string
	for i, k := range m.Keys() {
		v := m.Values()[i]
		if (k == "PARQUET:field_id" && v == "-1") || k == ipc.ExtensionTypeKeyName || k == ipc.ExtensionMetadataKeyName {
			continue
		}
		keys, vals = append(keys, k), append(vals, v)
	}
	if len(keys) == 0 {
		return arrow.Metadata{}
	}
	return arrow.NewMetadata(keys, vals)
}

// pqLeaves adds the Parquet leaf column indices under f to leaves.
func pqLeaves(f *pqarrow.SchemaField, leaves map[int]bool) {
	if len(f.Children) == 0 {
		leaves[f.ColIndex] = true
	}
	for i := range f.Children {
		pqLeaves(&f.Children[i], leaves)
	}
}

// pqReader reads batches column by column (concurrently if parallel), each
// decode under a recover.
type pqReader struct {
	refs     atomic.Int64
	pf       *file.Reader
	lim      *readlimit.Allocator
	schema   *arrow.Schema
	cols     []colSource
	parallel bool
	batch    int64
	rows     int64
	done     int64
	cur      arrow.Record
	err      error

	// the manifest field of each column read, and its leaves; fr the
	// reader of the columns pqarrow reads
	fr       *pqarrow.FileReader
	fieldIdx []int
	leaves   []map[int]bool
	// pqdecode's reading of each column: whether it is used, its spec and
	// leaf (fastread.go); scan and r the footer and file
	fast       []bool
	noFallback bool // withNoFallback
	spec       []pqdecode.Spec
	list       []*pqdecode.ListSpec // a list column's (spec is then unused)
	leaf       []int
	scan       *pqscan.File
	r          parquet.ReaderAtSeeker
	sel        []int // the row groups read

	// with row-group workers (workers >= 1): each row group of groups is
	// decoded whole, by a goroutine of its own, at most workers at once
	// (workers > 1), or by Next (workers == 1, nextGroup the next)
	groups    []int
	workers   int
	nextGroup int
	ahead     *pqAhead
	pending   []arrow.Record // the current row group's batches not yet handed out
}

func (p *pqReader) Retain()               { p.refs.Add(1) }
func (p *pqReader) Schema() *arrow.Schema { return p.schema }
func (p *pqReader) Record() arrow.Record  { return p.cur }
func (p *pqReader) Err() error            { return p.err }

func (p *pqReader) Release() {
	if p.refs.Add(-1) == 0 {
		if p.cur != nil {
			p.cur.Release()
			p.cur = nil
		}
		if p.ahead != nil {
			p.ahead.stop()
		}
		releaseRecords(p.pending)
		p.pending = nil
		for _, c := range p.cols {
			c.Release()
		}
		p.pf.Close()
	}
}

func (p *pqReader) Next() bool {
	if p.cur != nil {
		p.cur.Release()
		p.cur = nil
	}
	if p.err != nil || p.done >= p.rows {
		return false
	}
	switch {
	case p.workers > 1:
		return p.nextAhead()
	case p.workers == 1:
		return p.nextGroups()
	}
	want := p.rows - p.done
	if want > p.batch {
		want = p.batch
	}
	arrs := make([]arrow.Array, len(p.cols))
	errs := make([]error, len(p.cols))
	if p.parallel && len(p.cols) > 1 {
		var wg sync.WaitGroup
		for i := range p.cols {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				arrs[i], errs[i] = p.readColumn(i, want)
			}(i)
		}
		wg.Wait()
	} else {
		for i := range p.cols {
			if arrs[i], errs[i] = p.readColumn(i, want); errs[i] != nil {
				break
			}
		}
	}
	for _, err := range errs {
		if err != nil {
			releaseArrow(arrs)
			p.err = err
			return false
		}
	}
	p.done += want
	p.cur = arrowarray.NewRecord(p.schema, arrs, want)
	releaseArrow(arrs)
	return true
}

// readColumn reads the next n rows of column i as one array of the
// schema's type.
func (p *pqReader) readColumn(i int, n int64) (a arrow.Array, err error) {
	return p.readColumnOf(p.cols[i], i, n)
}

// readColumnOf reads the next n rows of cr, column i, as readColumn does.
func (p *pqReader) readColumnOf(cr colSource, i int, n int64) (a arrow.Array, err error) {
	f := p.schema.Field(i)
	defer func() {
		if r := recover(); r != nil {
			a, err = nil, fmt.Errorf("parquetio.Read: column %q: %w: arrow-go panicked: %v", f.Name, ErrInvalid, r)
		}
	}()
	ch, err := cr.NextBatch(n)
	if err != nil {
		if errors.Is(err, ErrInvalid) && strings.HasPrefix(err.Error(), "parquetio.Read: column ") {
			return nil, err // (fastColumn's, which names the column already)
		}
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", f.Name, ErrInvalid, err)
	}
	defer ch.Release()
	if int64(ch.Len()) != n {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %d rows read, %d expected", f.Name, ErrInvalid, ch.Len(), n)
	}
	var st arrow.Array
	switch len(ch.Chunks()) {
	case 0:
		st = arrowarray.MakeArrayOfNull(p.lim, storageOf(f.Type), 0)
	case 1:
		st = ch.Chunk(0)
		st.Retain()
	default:
		if st, err = arrowarray.Concatenate(ch.Chunks(), p.lim); err != nil {
			return nil, fmt.Errorf("parquetio.Read: column %q: %w: %w", f.Name, ErrInvalid, err)
		}
	}
	defer st.Release()
	d := st.Data()
	if fsl, ok := d.DataType().(*arrow.FixedSizeListType); ok {
		nd, err := fslRowNulls(p.lim, d, int(fsl.Len()))
		if err != nil {
			return nil, fmt.Errorf("parquetio.Read: column %q: %w", f.Name, err)
		}
		defer nd.Release()
		d = nd
	}
	if want := storageOf(f.Type); !arrow.TypeEqual(want, d.DataType()) && sameUpToNulls(want, d.DataType()) {
		rd := retypeData(d, want) // the nullability the writer was given
		defer rd.Release()
		d = rd
	}
	if t, ok := f.Type.(*arrow.TimestampType); ok {
		if _, ok := storedTimestamp(t, d.DataType()); ok {
			rd := retimestamp(p.lim, d, t)
			defer rd.Release()
			d = rd
		}
	}
	if ext, ok := f.Type.(arrow.ExtensionType); ok {
		if !arrow.TypeEqual(ext.StorageType(), d.DataType()) {
			return nil, fmt.Errorf("parquetio.Read: column %q: %w: storage %v read for %v", f.Name, ErrInvalid, d.DataType(), ext)
		}
		sa := arrowarray.MakeFromData(d)
		defer sa.Release()
		return arrowarray.NewExtensionArrayWithStorage(ext, sa), nil
	}
	if !arrow.TypeEqual(f.Type, d.DataType()) {
		return nil, fmt.Errorf("parquetio.Read: column %q: %w: %v read for %v", f.Name, ErrInvalid, d.DataType(), f.Type)
	}
	return arrowarray.MakeFromData(d), nil
}

// fslRowNulls returns d (a FixedSizeList of list size k) retained, or, when
// some rows have all their elements null, a copy of its header with those
// rows null (the values are shared).
func fslRowNulls(mem memory.Allocator, d arrow.ArrayData, k int) (arrow.ArrayData, error) {
	child := d.Children()[0]
	n, off := d.Len(), d.Offset()
	if child.NullN() == 0 || k == 0 || n == 0 {
		d.Retain()
		return d, nil
	}
	if child.Len() < (off+n)*k || child.Buffers()[0] == nil {
		return nil, fmt.Errorf("%w: FixedSizeList of %d rows of %d over a child of %d", ErrInvalid, n, k, child.Len())
	}
	elems := child.Buffers()[0].Bytes()
	base := child.Offset() + off*k
	var rows []byte
	if b := d.Buffers()[0]; b != nil && d.NullN() > 0 {
		rows = b.Bytes()
	}
	bm := memory.NewResizableBuffer(mem)
	bm.Resize(readlimit.BitmapBytes(n))
	out := bm.Bytes()
	for i := range out {
		out[i] = 0
	}
	nulls := 0
	for r := 0; r < n; r++ {
		ok := rows == nil || bitutil.BitIsSet(rows, off+r)
		if ok {
			ok = readlimit.CountZeroBits(elems, base+r*k, k) < k
		}
		if ok {
			bitutil.SetBit(out, r)
		} else {
			nulls++
		}
	}
	sub := arrowarray.NewSliceData(child, int64(off*k), int64((off+n)*k))
	defer sub.Release()
	nd := arrowarray.NewData(d.DataType(), n, []*memory.Buffer{bm}, []arrow.ArrayData{sub}, nulls, 0)
	bm.Release()
	return nd, nil
}

// storageOf is t's storage type when t is an extension type, else t.
func storageOf(t arrow.DataType) arrow.DataType {
	if e, ok := t.(arrow.ExtensionType); ok {
		return e.StorageType()
	}
	return t
}

func releaseRecords(recs []arrow.Record) {
	for _, r := range recs {
		r.Release()
	}
}

// pqAhead decodes row groups ahead of the reader: a dispatcher starts row
// group k once the reader has taken all but workers-1 of those before it,
// so at most workers row groups are decoded or held at once.
type pqAhead struct {
	results []chan pqGroupResult // one per row group, buffered
	tokens  chan struct{}        // a token per row group decoded or held
	done    chan struct{}
	wg      sync.WaitGroup
	next    int // the next row group the reader takes
	once    sync.Once
}

type pqGroupResult struct {
	recs []arrow.Record
	err  error
}

func (p *pqReader) startAhead() {
	a := &pqAhead{results: make([]chan pqGroupResult, len(p.groups)), tokens: make(chan struct{}, p.workers), done: make(chan struct{})}
	for k := range a.results {
		a.results[k] = make(chan pqGroupResult, 1)
	}
	a.wg.Add(1)
	go func() {
		defer a.wg.Done()
		for k := range p.groups {
			select {
			case a.tokens <- struct{}{}:
			case <-a.done:
				return
			}
			a.wg.Add(1)
			go func(k int) {
				defer a.wg.Done()
				recs, err := p.readGroup(p.groups[k], a.done)
				a.results[k] <- pqGroupResult{recs: recs, err: err}
			}(k)
		}
	}()
	p.ahead = a
}

// stop ends the decoding and releases what was decoded and not taken.
func (a *pqAhead) stop() {
	a.once.Do(func() {
		close(a.done)
		a.wg.Wait()
		for _, ch := range a.results {
			select {
			case r := <-ch:
				releaseRecords(r.recs)
			default:
			}
		}
	})
}

// readGroup decodes row group g whole, in batches of p.batch rows.
func (p *pqReader) readGroup(g int, done <-chan struct{}) (_ []arrow.Record, err error) {
	cols := make([]colSource, len(p.fieldIdx))
	var recs []arrow.Record
	defer func() {
		for _, c := range cols {
			if c != nil {
				c.Release()
			}
		}
		if err != nil {
			releaseRecords(recs) // (a return of nil, err leaves recs as it was)
		}
	}()
	for k := range p.fieldIdx {
		if cols[k], err = p.newSource(k, []int{g}); err != nil {
			return nil, err
		}
	}
	rows := p.pf.MetaData().RowGroup(g).NumRows()
	for at := int64(0); at < rows; {
		select {
		case <-done:
			return nil, fmt.Errorf("parquetio.Read: the reader was released")
		default:
		}
		n := min(rows-at, p.batch)
		arrs := make([]arrow.Array, len(cols))
		for k := range cols {
			if arrs[k], err = p.readColumnOf(cols[k], k, n); err != nil {
				releaseArrow(arrs)
				return nil, err
			}
		}
		recs = append(recs, arrowarray.NewRecord(p.schema, arrs, n))
		releaseArrow(arrs)
		at += n
	}
	return recs, nil
}

// nextGroups is Next with one row-group worker: row group by row group in
// the caller's goroutine.
func (p *pqReader) nextGroups() bool {
	for len(p.pending) == 0 {
		if p.nextGroup >= len(p.groups) {
			return false
		}
		recs, err := p.readGroup(p.groups[p.nextGroup], nil)
		p.nextGroup++
		if err != nil {
			p.err = err
			return false
		}
		p.pending = recs
	}
	p.cur = p.pending[0]
	p.pending = p.pending[1:]
	p.done += p.cur.NumRows()
	return true
}

// nextAhead is Next with row-group workers.
func (p *pqReader) nextAhead() bool {
	if p.ahead == nil {
		p.startAhead()
	}
	a := p.ahead
	for len(p.pending) == 0 {
		if a.next >= len(a.results) {
			return false
		}
		r := <-a.results[a.next]
		a.next++
		<-a.tokens // the row group is taken: the next may start
		if r.err != nil {
			releaseRecords(r.recs)
			p.err = r.err
			return false
		}
		p.pending = r.recs
	}
	p.cur = p.pending[0]
	p.pending = p.pending[1:]
	p.done += p.cur.NumRows()
	return true
}
