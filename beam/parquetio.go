package beam

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/apache/arrow/go/v15/parquet"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/stride0/stride0/parquetio"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*pqSplit)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*splitParquetFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*readParquetFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*writeParquetFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*writeBundleFn)(nil)).Elem())
}

// DefaultRowGroupsPerSplit is the number of row groups of a local Parquet
// file ReadParquet reads in one work item unless WithRowGroupsPerSplit says
// otherwise.
const DefaultRowGroupsPerSplit = 1

// ParquetReadOption configures ReadParquet.
type ParquetReadOption func(*parquetReadConfig)

type parquetReadConfig struct {
	columns   []string
	batchRows int
	perSplit  int
}

// WithColumns makes ReadParquet read only the named top-level columns, in
// that order (parquetio.WithColumns); the other columns' bytes are not read.
// A name a file does not have fails the pipeline. No names means every
// column.
func WithColumns(names ...string) ParquetReadOption {
	names = append([]string(nil), names...)
	return func(c *parquetReadConfig) { c.columns = names }
}

// WithBatchRows sets the most rows of a Batch ReadParquet emits (n <= 0:
// parquetio.DefaultBatchRows). A batch never spans two work items.
func WithBatchRows(n int) ParquetReadOption {
	return func(c *parquetReadConfig) { c.batchRows = n }
}

// WithRowGroupsPerSplit sets how many consecutive row groups of a local
// file make one work item (n <= 0: DefaultRowGroupsPerSplit).
func WithRowGroupsPerSplit(n int) ParquetReadOption {
	return func(c *parquetReadConfig) { c.perSplit = n }
}

// ReadParquet returns the rows of the Parquet files whose names match glob
// as a PCollection of Batch, read with parquetio.Read
// (arrow.fixed_shape_tensor columns intact, null tensor rows by its rule).
//
// The glob is expanded inside the pipeline, when it runs, by Beam's
// filesystem of its scheme (a plain path is local). Each local file's
// footer is read (parquetio.Info) to split the file into work items of
// WithRowGroupsPerSplit consecutive row groups; the work items are
// redistributed (Reshuffle), and each is read by one DoFn call that emits
// one Batch per parquetio.Read batch (WithBatchRows rows at most). So a pipeline
// is split by file and row group, and no data is embedded in the pipeline
// graph.
//
// Beam's Go SDK gives no random access to files of other filesystems
// (gs://, s3://, memfs://...): such a file is one work item, read whole
// into memory (as many bytes as the file has, the size the filesystem
// reports) and then decoded row group by row group.
//
// A glob that matches nothing gives an empty PCollection; a file that is
// not valid Parquet, or lacks a column of WithColumns, fails the pipeline
// with an error naming it.
func ReadParquet(s abeam.Scope, glob string, opts ...ParquetReadOption) abeam.PCollection {
	s = s.Scope("stride0.ReadParquet")
	var c parquetReadConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.perSplit <= 0 {
		c.perSplit = DefaultRowGroupsPerSplit
	}
	files := abeam.ParDo(s, &expandFn{What: "beam.ReadParquet"}, abeam.Create(s, glob))
	splits := abeam.ParDo(s, &splitParquetFn{PerSplit: c.perSplit}, files)
	splits = abeam.Reshuffle(s, splits)
	return abeam.ParDo(s, &readParquetFn{Columns: c.columns, BatchRows: c.batchRows}, splits)
}

// pqSplit is a work item of ReadParquet: Count row groups of the file
// Name from the row group First, or the whole file when Count < 0 (Beam
// encodes it by its exported fields).
type pqSplit struct {
	Name  string
	First int
	Count int
}

func (sp pqSplit) String() string {
	if sp.Count < 0 {
		return fmt.Sprintf("%q", sp.Name)
	}
	return fmt.Sprintf("%q row groups %d..%d", sp.Name, sp.First, sp.First+sp.Count-1)
}

// splitParquetFn splits a file into work items by its footer.
type splitParquetFn struct{ PerSplit int }

func (f *splitParquetFn) ProcessElement(ctx context.Context, name string, emit func(pqSplit)) error {
	splits, err := splitParquet(ctx, memory.DefaultAllocator, name, f.PerSplit)
	if err != nil {
		return err
	}
	for _, sp := range splits {
		emit(sp)
	}
	return nil
}

// splitParquet returns the work items of the file name: groups of per row
// groups for a local file, the whole file otherwise.
func splitParquet(ctx context.Context, mem memory.Allocator, name string, per int) ([]pqSplit, error) {
	if per <= 0 {
		per = DefaultRowGroupsPerSplit
	}
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("beam.ReadParquet %q: %w", name, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("beam.ReadParquet %q: %w", name, err)
	}
	defer rc.Close()
	ra, ok := rc.(parquet.ReaderAtSeeker)
	if !ok { // no random access: the reading step reads the file whole
		return []pqSplit{{Name: name, Count: -1}}, nil
	}
	info, err := parquetio.Info(ra, parquetio.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("beam.ReadParquet %q: %w", name, err)
	}
	var out []pqSplit
	for g := 0; g < len(info.RowGroups); g += per {
		out = append(out, pqSplit{Name: name, First: g, Count: min(per, len(info.RowGroups)-g)})
	}
	return out, nil
}

// readParquetFn reads one work item.
type readParquetFn struct {
	Columns   []string
	BatchRows int
}

func (f *readParquetFn) ProcessElement(ctx context.Context, sp pqSplit, emit func(Batch)) error {
	return readParquet(ctx, memory.DefaultAllocator, sp, f.Columns, f.BatchRows, emit)
}

func readParquet(ctx context.Context, mem memory.Allocator, sp pqSplit, cols []string, batchRows int, emit func(Batch)) error {
	fs, err := filesystem.New(ctx, sp.Name)
	if err != nil {
		return fmt.Errorf("beam.ReadParquet %v: %w", sp, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, sp.Name)
	if err != nil {
		return fmt.Errorf("beam.ReadParquet %v: %w", sp, err)
	}
	defer rc.Close()
	ra, ok := rc.(parquet.ReaderAtSeeker)
	if !ok {
		if ra, err = readWhole(ctx, fs, sp.Name, rc); err != nil {
			return fmt.Errorf("beam.ReadParquet %v: %w", sp, err)
		}
	}
	opts := []parquetio.ReadOption{parquetio.WithAllocator(mem), parquetio.WithBatchRows(batchRows)}
	if cols != nil {
		opts = append(opts, parquetio.WithColumns(cols...))
	}
	if sp.Count >= 0 {
		groups := make([]int, sp.Count)
		for i := range groups {
			groups[i] = sp.First + i
		}
		opts = append(opts, parquetio.WithRowGroups(groups...))
	}
	rr, err := parquetio.Read(ra, opts...)
	if err != nil {
		return fmt.Errorf("beam.ReadParquet %v: %w", sp, err)
	}
	defer rr.Release()
	for i := 0; rr.Next(); i++ {
		b, err := NewBatch(rr.Record())
		if err != nil {
			return fmt.Errorf("beam.ReadParquet %v: batch %d: %w", sp, i, err)
		}
		emit(b)
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("beam.ReadParquet %v: %w", sp, err)
	}
	return nil
}

// WriteParquetOption configures WriteParquet.
type WriteParquetOption func(*parquetWriteConfig)

type parquetWriteConfig struct {
	rowGroupRows int
	perBundle    bool
}

// WithRowGroupRows sets the most rows of a row group WriteParquet writes
// (parquetio.WithRowGroupRows; n <= 0: parquetio.DefaultRowGroupRows).
func WithRowGroupRows(n int) WriteParquetOption {
	return func(c *parquetWriteConfig) { c.rowGroupRows = n }
}

// WithFilePerBundle makes WriteParquet write one file per bundle as the
// batches arrive, named prefix-TTTTTTTTTTTTTTTT-SSSSS.parquet (a random
// token of the writing DoFn instance and a bundle number), instead of
// grouping them into shards: nothing is shuffled or held beyond one row
// group, so it fuses with the step before it, which is what a large
// output needs on prism (grouping holds every batch in memory there). The
// number of files is the runner's bundling; shards is ignored. A retried
// bundle may leave the file of its failed attempt.
func WithFilePerBundle() WriteParquetOption {
	return func(c *parquetWriteConfig) { c.perBundle = true }
}

// WriteParquet writes the batches of col (a PCollection of Batch, all of
// one schema) as shards Parquet files named prefix-SSSSS-of-NNNNN.parquet
// (fewer when there are fewer batches) with parquetio.Write, through
// Beam's filesystem of the prefix's scheme, and returns the PCollection of
// the names written. As in WriteIPC, batches are spread over the shards
// round robin from a random start, the order of rows within a file is not
// specified, and shards below 1 is taken as 1. A file's row groups are
// filled across batches (WithRowGroupRows).
func WriteParquet(s abeam.Scope, prefix string, shards int, col abeam.PCollection, opts ...WriteParquetOption) abeam.PCollection {
	s = s.Scope("stride0.WriteParquet")
	if shards < 1 {
		shards = 1
	}
	var c parquetWriteConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	if c.perBundle {
		return abeam.ParDo(s, &writeBundleFn{Prefix: prefix, RowGroupRows: c.rowGroupRows}, col)
	}
	keyed := abeam.ParDo(s, &shardFn{N: shards}, col)
	return abeam.ParDo(s, &writeParquetFn{Prefix: prefix, N: shards, RowGroupRows: c.rowGroupRows}, abeam.GroupByKey(s, keyed))
}

// writeBundleFn writes each bundle's batches to a file of its own, opened
// at the bundle's first batch.
type writeBundleFn struct {
	Prefix       string
	RowGroupRows int

	token  uint64
	bundle int
	name   string
	file   *outFile
	pw     *parquetio.Writer
}

func (f *writeBundleFn) Setup() { f.token = rand.Uint64() }

// ProcessElement emits nothing (Beam wants FinishBundle's emitter here too).
func (f *writeBundleFn) ProcessElement(ctx context.Context, b Batch, _ func(string)) error {
	rec, err := b.Record(memory.DefaultAllocator)
	if err != nil {
		f.abort()
		return fmt.Errorf("beam.WriteParquet: %w", err)
	}
	defer rec.Release()
	if f.pw == nil {
		f.bundle++
		f.name = fmt.Sprintf("%s-%016x-%05d.parquet", f.Prefix, f.token, f.bundle)
		if f.file, err = createFile(ctx, f.name); err != nil {
			return fmt.Errorf("beam.WriteParquet %q: %w", f.name, err)
		}
		f.pw, err = parquetio.NewWriter(f.file, rec.Schema(), parquetio.WithRowGroupRows(f.RowGroupRows))
		if err != nil {
			f.abort()
			return fmt.Errorf("beam.WriteParquet %q: %w", f.name, err)
		}
	}
	if err := f.pw.Write(rec); err != nil {
		f.abort()
		return fmt.Errorf("beam.WriteParquet %q: %w", f.name, err)
	}
	return nil
}

func (f *writeBundleFn) FinishBundle(emit func(string)) error {
	if f.pw == nil {
		return nil
	}
	err := f.pw.Close()
	if cerr := f.file.Close(); err == nil {
		err = cerr
	}
	f.pw, f.file = nil, nil
	if err != nil {
		return fmt.Errorf("beam.WriteParquet %q: %w", f.name, err)
	}
	emit(f.name)
	return nil
}

// abort drops the bundle's file in progress (after an error).
func (f *writeBundleFn) abort() {
	if f.pw != nil {
		f.pw.Close()
	}
	if f.file != nil {
		f.file.Close()
	}
	f.pw, f.file = nil, nil
}

// writeParquetFn writes one shard's batches to one file.
type writeParquetFn struct {
	Prefix       string
	N            int
	RowGroupRows int
}

func (f *writeParquetFn) ProcessElement(ctx context.Context, shard int, batches func(*Batch) bool, emit func(string)) error {
	name := fmt.Sprintf("%s-%05d-of-%05d.parquet", f.Prefix, shard, f.N)
	if err := writeParquet(ctx, memory.DefaultAllocator, name, f.RowGroupRows, batches); err != nil {
		return err
	}
	emit(name)
	return nil
}

func writeParquet(ctx context.Context, mem memory.Allocator, name string, rowGroupRows int, batches func(*Batch) bool) error {
	rr, err := newIterReader(mem, batches)
	if err != nil {
		return fmt.Errorf("beam.WriteParquet %q: %w", name, err)
	}
	defer rr.Release()
	return writeFile(ctx, "beam.WriteParquet", name, func(w io.Writer) error {
		return parquetio.Write(w, rr, parquetio.WithWriteAllocator(mem), parquetio.WithRowGroupRows(rowGroupRows))
	})
}
