package beam

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"sort"
	"sync/atomic"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths

	"github.com/stride0/stride0/arrowio"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*expandFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*readIPCFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*shardFn)(nil)).Elem())
	abeam.RegisterType(reflect.TypeOf((*writeIPCFn)(nil)).Elem())
}

// ReadIPC returns the record batches of the Arrow IPC files (the file
// format, as arrowio.WriteFile writes) whose names match glob, one Batch per
// record batch. The glob is expanded inside the pipeline, when it runs, by
// Beam's filesystem of the glob's scheme (a plain path is local); the file
// names are redistributed (Reshuffle) and each file is read by one DoFn
// call, so the work is split by file and no data is embedded in the
// pipeline. A glob that matches nothing gives an empty PCollection; a file
// that is not a valid IPC file fails the pipeline with an error naming it.
func ReadIPC(s abeam.Scope, glob string) abeam.PCollection {
	s = s.Scope("stride0.ReadIPC")
	files := abeam.ParDo(s, &expandFn{What: "beam.ReadIPC"}, abeam.Create(s, glob))
	files = abeam.Reshuffle(s, files)
	return abeam.ParDo(s, &readIPCFn{}, files)
}

// expandFn lists the files matching a glob, sorted. What names the
// transform in errors.
type expandFn struct{ What string }

func (f *expandFn) ProcessElement(ctx context.Context, glob string, emit func(string)) error {
	fs, err := filesystem.New(ctx, glob)
	if err != nil {
		return fmt.Errorf("%s %q: %w", f.What, glob, err)
	}
	defer fs.Close()
	names, err := fs.List(ctx, glob)
	if err != nil {
		return fmt.Errorf("%s %q: listing: %w", f.What, glob, err)
	}
	sort.Strings(names)
	for _, n := range names {
		emit(n)
	}
	return nil
}

// readIPCFn reads one IPC file and emits its batches.
type readIPCFn struct{}

func (f *readIPCFn) ProcessElement(ctx context.Context, name string, emit func(Batch)) error {
	return readIPC(ctx, memory.DefaultAllocator, name, emit)
}

func readIPC(ctx context.Context, mem memory.Allocator, name string, emit func(Batch)) error {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return fmt.Errorf("beam.ReadIPC %q: %w", name, err)
	}
	defer fs.Close()
	rc, err := fs.OpenRead(ctx, name)
	if err != nil {
		return fmt.Errorf("beam.ReadIPC %q: %w", name, err)
	}
	defer rc.Close()
	ra, ok := rc.(ipc.ReadAtSeeker)
	if !ok { // a remote object: read it whole (as many bytes as it has)
		if ra, err = readWhole(ctx, fs, name, rc); err != nil {
			return fmt.Errorf("beam.ReadIPC %q: %w", name, err)
		}
	}
	rr, err := arrowio.ReadFile(ra, arrowio.WithAllocator(mem))
	if err != nil {
		return fmt.Errorf("beam.ReadIPC %q: %w", name, err)
	}
	defer rr.Release()
	for i := 0; rr.Next(); i++ {
		b, err := NewBatch(rr.Record())
		if err != nil {
			return fmt.Errorf("beam.ReadIPC %q: batch %d: %w", name, i, err)
		}
		emit(b)
	}
	if err := rr.Err(); err != nil {
		return fmt.Errorf("beam.ReadIPC %q: %w", name, err)
	}
	return nil
}

// WriteIPC writes the batches of col (a PCollection of Batch, all of one
// schema) as shards Arrow IPC files named prefix-SSSSS-of-NNNNN.arrow
// (fewer when there are fewer batches), through Beam's filesystem of the
// prefix's scheme, and returns the PCollection of the names written.
// Batches are spread over the shards round robin from a random start; the
// order of batches within a file is not specified. A shards below 1 is
// taken as 1.
func WriteIPC(s abeam.Scope, prefix string, shards int, col abeam.PCollection) abeam.PCollection {
	s = s.Scope("stride0.WriteIPC")
	if shards < 1 {
		shards = 1
	}
	keyed := abeam.ParDo(s, &shardFn{N: shards}, col)
	return abeam.ParDo(s, &writeIPCFn{Prefix: prefix, N: shards}, abeam.GroupByKey(s, keyed))
}

// shardFn keys each batch with a shard number.
type shardFn struct {
	N    int
	next atomic.Uint64
}

func (f *shardFn) Setup() { f.next.Store(rand.Uint64()) }

func (f *shardFn) ProcessElement(b Batch) (int, Batch) {
	return int(f.next.Add(1) % uint64(f.N)), b
}

// writeIPCFn writes one shard's batches to one file.
type writeIPCFn struct {
	Prefix string
	N      int
}

func (f *writeIPCFn) ProcessElement(ctx context.Context, shard int, batches func(*Batch) bool, emit func(string)) error {
	name := fmt.Sprintf("%s-%05d-of-%05d.arrow", f.Prefix, shard, f.N)
	if err := writeIPC(ctx, memory.DefaultAllocator, name, batches); err != nil {
		return err
	}
	emit(name)
	return nil
}

func writeIPC(ctx context.Context, mem memory.Allocator, name string, batches func(*Batch) bool) error {
	rr, err := newIterReader(mem, batches)
	if err != nil {
		return fmt.Errorf("beam.WriteIPC %q: %w", name, err)
	}
	defer rr.Release()
	return writeFile(ctx, "beam.WriteIPC", name, func(w io.Writer) error {
		_, err := arrowio.WriteFile(w, rr)
		return err
	})
}

// iterReader is a RecordReader over a Beam iterator of Batch, decoding one
// batch at a time. Its schema is the first batch's.
type iterReader struct {
	mem    memory.Allocator
	next   func(*Batch) bool
	schema *arrow.Schema
	first  arrow.Record
	cur    arrow.Record
	err    error
	n      int
}

func newIterReader(mem memory.Allocator, next func(*Batch) bool) (*iterReader, error) {
	var b Batch
	if !next(&b) {
		return nil, fmt.Errorf("%w: no batch to write", ErrBatch)
	}
	rec, err := b.Record(mem)
	if err != nil {
		return nil, fmt.Errorf("batch 0: %w", err)
	}
	return &iterReader{mem: mem, next: next, schema: rec.Schema(), first: rec}, nil
}

func (r *iterReader) Retain()               {}
func (r *iterReader) Schema() *arrow.Schema { return r.schema }
func (r *iterReader) Record() arrow.Record  { return r.cur }
func (r *iterReader) Err() error            { return r.err }

func (r *iterReader) Release() {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.first != nil {
		r.first.Release()
		r.first = nil
	}
}

func (r *iterReader) Next() bool {
	if r.cur != nil {
		r.cur.Release()
		r.cur = nil
	}
	if r.err != nil {
		return false
	}
	if r.first != nil {
		r.cur, r.first = r.first, nil
		r.n++
		return true
	}
	var b Batch
	if !r.next(&b) {
		return false
	}
	rec, err := b.Record(r.mem)
	if err != nil {
		r.err = fmt.Errorf("batch %d: %w", r.n, err)
		return false
	}
	if !rec.Schema().Equal(r.schema) {
		rec.Release()
		r.err = fmt.Errorf("batch %d: %w: schema %v differs from the first batch's %v", r.n, ErrBatch, rec.Schema(), r.schema)
		return false
	}
	r.cur = rec
	r.n++
	return true
}

var _ arrowarray.RecordReader = (*iterReader)(nil)
