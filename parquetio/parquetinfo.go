package parquetio

import (
	"fmt"
	"math"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/parquet"
	"github.com/apache/arrow/go/v15/parquet/metadata"
	"github.com/apache/arrow/go/v15/parquet/schema"

	"github.com/stride0/stride0/internal/readlimit"
)

// FileInfo describes a Parquet file from its footer alone.
type FileInfo struct {
	// Schema is the Arrow schema Read gives for the whole file
	// (arrow.fixed_shape_tensor columns as the extension type).
	Schema *arrow.Schema
	// NumRows is the number of rows of the file.
	NumRows int64
	// RowGroups holds each row group's size, in the file's order (the
	// indices WithRowGroups takes).
	RowGroups []RowGroup
}

// RowGroup is the size of one row group of a Parquet file.
type RowGroup struct {
	// Rows is the number of rows of the row group.
	Rows int64
	// CompressedBytes is the size in the file of its column chunks, as the
	// footer records it (0 when the writer did not record it).
	CompressedBytes int64
	// Stats holds, by column name, the statistics the footer records for
	// the top-level columns of signed integers, floats and utf8 (a column
	// without trustworthy statistics is absent), for a reader that skips
	// row groups a filter cannot match.
	Stats map[string]ColumnStats
}

// ColumnStats are the statistics of one column in one row group. Min and
// Max are int64 (signed integer columns), float64 (floats, NaN not
// counted) or string (utf8); HasMinMax says whether they were recorded.
type ColumnStats struct {
	HasMinMax bool
	Min, Max  any
	// Nulls is the number of nulls, -1 if unrecorded.
	Nulls int64
}

// Info reads the footer of the Parquet file r (the file metadata,
// and the Arrow schema stored in it) and nothing else: no page is read. It
// takes Read's options (the allocator and the limits apply; the
// others are ignored) and is hardened as Read is: a malformed
// footer (its Thrift read by a bounded reader of this package's first;
// a schema nested deeper than 64 groups), negative row counts or row
// groups whose rows do not add up to the file's fail with an error
// wrapping ErrInvalid, never a panic. It does
// not close r, so the same *os.File can then go to Read.
func Info(r parquet.ReaderAtSeeker, opts ...ReadOption) (info FileInfo, err error) {
	const what = "parquetio.Info"
	c := applyReadOptions(opts)
	defer readlimit.Guard(&err, what)
	o, err := openParquet(what, r, &c)
	if err != nil {
		return FileInfo{}, err
	}
	defer o.pf.Close()
	md := o.pf.MetaData()
	info.NumRows = o.pf.NumRows()
	if info.NumRows < 0 {
		return FileInfo{}, fmt.Errorf("%s: %w: the footer says %d rows", what, ErrInvalid, info.NumRows)
	}
	info.RowGroups = make([]RowGroup, o.pf.NumRowGroups())
	var sum int64
	for i := range info.RowGroups {
		rg := md.RowGroup(i)
		g := RowGroup{Rows: rg.NumRows(), CompressedBytes: rg.TotalCompressedSize()}
		if g.Rows < 0 || sum > math.MaxInt64-g.Rows || g.CompressedBytes < 0 {
			return FileInfo{}, fmt.Errorf("%s: %w: row group %d: %d rows, %d compressed bytes", what, ErrInvalid, i, g.Rows, g.CompressedBytes)
		}
		sum += g.Rows
		g.Stats = columnStats(rg, md.Schema)
		info.RowGroups[i] = g
	}
	if sum != info.NumRows {
		return FileInfo{}, fmt.Errorf("%s: %w: the row groups hold %d rows, the file %d", what, ErrInvalid, sum, info.NumRows)
	}
	m := o.fr.Manifest
	fields := make([]arrow.Field, len(m.Fields))
	for i := range m.Fields {
		fields[i] = o.field(i)
	}
	info.Schema = arrow.NewSchema(fields, m.SchemaMeta)
	return info, nil
}

// columnStats reads the trustworthy statistics of a row group's top-level
// columns (arrow-go's StatsSet refuses those of writers known to compute
// them wrong, and sort orders it does not know). Unsigned integers are left
// out: their statistics use the unsigned order, which a signed reading
// would misplace.
func columnStats(rg *metadata.RowGroupMetaData, sc *schema.Schema) map[string]ColumnStats {
	out := map[string]ColumnStats{}
	// a name two top-level columns share has no statistics: a reader
	// filtering by name could be given the other column's
	names := map[string]int{}
	for j := 0; j < rg.NumColumns() && j < sc.NumColumns(); j++ {
		if p := sc.Column(j).ColumnPath(); len(p) >= 1 {
			names[p[0]]++
		}
	}
	defer func() {
		for n, k := range names {
			if k > 1 {
				delete(out, n)
			}
		}
	}()
	for j := 0; j < rg.NumColumns(); j++ {
		cc, err := rg.ColumnChunk(j)
		if err != nil {
			continue
		}
		path := cc.PathInSchema()
		if len(path) != 1 {
			continue // a nested leaf (a tensor column's elements)
		}
		st, err := cc.Statistics()
		if err != nil || st == nil {
			continue
		}
		cs := ColumnStats{Nulls: -1}
		if st.HasNullCount() {
			cs.Nulls = st.NullCount()
		}
		if j >= sc.NumColumns() {
			continue
		}
		lt := sc.Column(j).LogicalType()
		if lt != nil {
			if it, ok := lt.(interface{ IsSigned() bool }); ok && !it.IsSigned() {
				continue
			}
			switch lt.(type) {
			case schema.DecimalLogicalType, *schema.DecimalLogicalType:
				continue // unscaled integers, not the numbers they stand for
			}
		}
		if st.HasMinMax() {
			switch t := st.(type) {
			case *metadata.Int32Statistics:
				cs.Min, cs.Max = int64(t.Min()), int64(t.Max())
			case *metadata.Int64Statistics:
				cs.Min, cs.Max = t.Min(), t.Max()
			case *metadata.Float32Statistics:
				cs.Min, cs.Max = float64(t.Min()), float64(t.Max())
			case *metadata.Float64Statistics:
				cs.Min, cs.Max = t.Min(), t.Max()
			case *metadata.ByteArrayStatistics:
				if !isString(lt) {
					continue
				}
				cs.Min, cs.Max = string(t.Min()), string(t.Max())
			default:
				continue
			}
			cs.HasMinMax = true
		}
		out[path[0]] = cs
	}
	return out
}

func isString(lt schema.LogicalType) bool {
	switch lt.(type) {
	case schema.StringLogicalType, *schema.StringLogicalType:
		return true
	}
	return false
}
