package beam

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/memfs"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/passert"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/parquetio"
)

func init() {
	abeam.RegisterType(reflect.TypeOf((*rowsFn)(nil)).Elem())
}

// rowsFn emits each row of each batch as text (rowStrings).
type rowsFn struct{}

func (f *rowsFn) ProcessElement(b Batch, emit func(string)) error {
	rec, err := b.Record(nil)
	if err != nil {
		return err
	}
	defer rec.Release()
	for _, r := range rowStrings(rec) {
		emit(r)
	}
	return nil
}

// rowStrings encodes each row of rec as "name=value|..." over its columns,
// with "null" for a null row or element; a tensor row is its elements.
func rowStrings(rec arrow.Record) []string {
	out := make([]string, rec.NumRows())
	for i := range out {
		var sb strings.Builder
		for j, c := range rec.Columns() {
			if j > 0 {
				sb.WriteByte('|')
			}
			sb.WriteString(rec.ColumnName(j) + "=" + cellString(c, i))
		}
		out[i] = sb.String()
	}
	return out
}

func cellString(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "null"
	}
	switch a := a.(type) {
	case *arrowarray.Int64:
		return strconv.FormatInt(a.Value(i), 10)
	case *arrowarray.Int32:
		return strconv.FormatInt(int64(a.Value(i)), 10)
	case *arrowarray.Float32:
		return strconv.FormatFloat(float64(a.Value(i)), 'g', -1, 32)
	case arrowarray.ExtensionArray:
		return a.DataType().(arrow.ExtensionType).ExtensionName() + cellString(a.Storage(), i)
	case *arrowarray.FixedSizeList:
		k := int(a.DataType().(*arrow.FixedSizeListType).Len())
		start := (a.Offset() + i) * k
		parts := make([]string, k)
		for e := range parts {
			parts[e] = cellString(a.ListValues(), start+e)
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	panic(fmt.Sprintf("cellString: %T", a))
}

// pqTestRecord is a batch of n rows from id0: id int64, t a float32 tensor
// [2, 3] column with null rows and null elements, n an int32 column with
// nulls.
func pqTestRecord(t testing.TB, rng *rand.Rand, id0, n int) arrow.Record {
	t.Helper()
	mem := memory.DefaultAllocator
	tt, err := arrowio.NewFixedShapeTensorType(arrow.PrimitiveTypes.Float32, []int{2, 3}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	ib := arrowarray.NewInt64Builder(mem)
	defer ib.Release()
	nb := arrowarray.NewInt32Builder(mem)
	defer nb.Release()
	lb := arrowarray.NewFixedSizeListBuilder(mem, 6, arrow.PrimitiveTypes.Float32)
	defer lb.Release()
	vb := lb.ValueBuilder().(*arrowarray.Float32Builder)
	for r := 0; r < n; r++ {
		ib.Append(int64(id0 + r))
		if rng.IntN(4) == 0 {
			nb.AppendNull()
		} else {
			nb.Append(int32(rng.IntN(1000) - 500))
		}
		if rng.IntN(5) == 0 {
			lb.AppendNull()
			continue
		}
		lb.Append(true)
		for e := 0; e < 6; e++ {
			if e > 0 && rng.IntN(6) == 0 {
				vb.AppendNull()
			} else {
				vb.Append(float32(rng.NormFloat64()))
			}
		}
	}
	ids, ns, st := ib.NewArray(), nb.NewArray(), lb.NewArray()
	defer ids.Release()
	defer ns.Release()
	defer st.Release()
	tc := arrowarray.NewExtensionArrayWithStorage(tt, st)
	defer tc.Release()
	s := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "t", Type: tt, Nullable: true},
		{Name: "n", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}, nil)
	return arrowarray.NewRecord(s, []arrow.Array{ids, tc, ns}, int64(n))
}

// writePQFiles writes files Parquet files (with parquetio.Write) of
// batches of random sizes, in row groups of rowGroup rows, and returns
// their names and the rows written (rowStrings).
func writePQFiles(t testing.TB, dir string, seed uint64, files, rowGroup int) ([]string, []string) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	var names, rows []string
	id := 0
	for f := 0; f < files; f++ {
		var recs []arrow.Record
		for b := 0; b < 3; b++ {
			n := 1 + rng.IntN(20)
			rec := pqTestRecord(t, rng, id, n)
			id += n
			rows = append(rows, rowStrings(rec)...)
			recs = append(recs, rec)
		}
		data := pqBytes(t, recs, rowGroup)
		name := filepath.Join(dir, fmt.Sprintf("part-%03d.parquet", f))
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names, rows
}

// pqBytes writes recs (and releases them) as one Parquet file.
func pqBytes(t testing.TB, recs []arrow.Record, rowGroup int) []byte {
	t.Helper()
	defer func() {
		for _, r := range recs {
			r.Release()
		}
	}()
	rr, err := arrowarray.NewRecordReader(recs[0].Schema(), recs)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var buf bytes.Buffer
	if err := parquetio.Write(&buf, rr, parquetio.WithRowGroupRows(rowGroup)); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// pqRows reads the files in one process with parquetio.Read and
// returns their rows (rowStrings) and schema.
func pqRows(t testing.TB, names []string, opts ...parquetio.ReadOption) ([]string, *arrow.Schema) {
	t.Helper()
	var rows []string
	var schema *arrow.Schema
	for _, n := range names {
		f, err := os.Open(n)
		if err != nil {
			t.Fatal(err)
		}
		rr, err := parquetio.Read(f, opts...)
		if err != nil {
			t.Fatal(err)
		}
		schema = rr.Schema()
		for rr.Next() {
			rows = append(rows, rowStrings(rr.Record())...)
		}
		if err := rr.Err(); err != nil {
			t.Fatal(err)
		}
		rr.Release()
		f.Close()
	}
	return rows, schema
}

func sortedStrings(v []string) []string {
	v = append([]string(nil), v...)
	sort.Strings(v)
	return v
}

func stringsAny(v []string) []any {
	out := make([]any, len(v))
	for i, x := range v {
		out[i] = x
	}
	return out
}

// expectedBatches is the number of batches ReadParquet emits for the files
// with these options: per split, its rows in batches of batchRows.
func expectedBatches(t testing.TB, names []string, per, batchRows int) int {
	t.Helper()
	n := 0
	for _, name := range names {
		info := pqInfo(t, name)
		for g := 0; g < len(info.RowGroups); g += per {
			var rows int64
			for _, rg := range info.RowGroups[g:min(g+per, len(info.RowGroups))] {
				rows += rg.Rows
			}
			n += int((rows + int64(batchRows) - 1) / int64(batchRows))
		}
	}
	return n
}

func TestReadParquetPipeline(t *testing.T) {
	dir := t.TempDir()
	names, written := writePQFiles(t, dir, 11, 4, 8)
	all, _ := pqRows(t, names)
	if !reflect.DeepEqual(sortedStrings(all), sortedStrings(written)) {
		t.Fatalf("parquetio.Read gives other rows than were written")
	}
	proj, ps := pqRows(t, names, parquetio.WithColumns("t", "id"))
	if ps.NumFields() != 2 || ps.Field(0).Name != "t" {
		t.Fatalf("projected schema %v", ps)
	}
	glob := filepath.Join(dir, "*.parquet")
	run := func(want, wantProj []string) error {
		p, s := abeam.NewPipelineWithRoot()
		whole := ReadParquet(s, glob)
		passert.Equals(s, abeam.ParDo(s, &rowsFn{}, whole), stringsAny(want)...)
		projected := ReadParquet(s, glob, WithColumns("t", "id"), WithBatchRows(7), WithRowGroupsPerSplit(2))
		passert.Equals(s, abeam.ParDo(s, &rowsFn{}, projected), stringsAny(wantProj)...)
		passert.Count(s, projected, "batches", expectedBatches(t, names, 2, 7))
		return ptest.Run(p)
	}
	if err := run(all, proj); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	// A wrong expected value must fail the pipeline.
	bad := append([]string(nil), proj...)
	bad[len(bad)/2] = strings.Replace(bad[len(bad)/2], "id=", "id=1", 1)
	if err := run(all, bad); err == nil || !strings.Contains(err.Error(), "does not match expected values") {
		t.Fatalf("pipeline with a wrong expected row: err = %v, want passert's mismatch", err)
	}
}

// TestParquetRoundTripPipeline: ReadParquet, then WriteParquet in shards;
// the files written hold the rows read, in row groups of the size asked.
func TestParquetRoundTripPipeline(t *testing.T) {
	dir := t.TempDir()
	names, written := writePQFiles(t, dir, 12, 3, 5)
	_, schema := pqRows(t, names[:1])
	out := filepath.Join(t.TempDir(), "res")
	p, s := abeam.NewPipelineWithRoot()
	files := WriteParquet(s, out, 3, ReadParquet(s, filepath.Join(dir, "*.parquet")), WithRowGroupRows(10))
	passert.Count(s, files, "files", 3)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	got, err := filepath.Glob(out + "-*-of-00003.parquet")
	if err != nil || len(got) != 3 {
		t.Fatalf("written files %v, %v", got, err)
	}
	rows, gs := pqRows(t, got)
	if !gs.Equal(schema) {
		t.Fatalf("written schema %v, want %v", gs, schema)
	}
	if !reflect.DeepEqual(sortedStrings(rows), sortedStrings(written)) {
		t.Fatalf("written rows differ from the input (%d rows, want %d)", len(rows), len(written))
	}
	for _, name := range got {
		info := pqInfo(t, name)
		for i, g := range info.RowGroups {
			if g.Rows > 10 || (i < len(info.RowGroups)-1 && g.Rows != 10) {
				t.Fatalf("%s: row groups %v, want 10 rows each but the last", name, info.RowGroups)
			}
		}
	}
}

// TestParquetPerBundlePipeline: WriteParquet WithFilePerBundle writes
// files (one per bundle) that hold exactly the rows read, with the schema.
func TestParquetPerBundlePipeline(t *testing.T) {
	dir := t.TempDir()
	names, written := writePQFiles(t, dir, 12, 3, 5)
	_, schema := pqRows(t, names[:1])
	out := filepath.Join(t.TempDir(), "res")
	p, s := abeam.NewPipelineWithRoot()
	files := WriteParquet(s, out, 0, ReadParquet(s, filepath.Join(dir, "*.parquet")), WithFilePerBundle(), WithRowGroupRows(10))
	passert.NonEmpty(s, files)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
	got, err := filepath.Glob(out + "-*.parquet")
	if err != nil || len(got) == 0 {
		t.Fatalf("written files %v, %v", got, err)
	}
	rows, gs := pqRows(t, got)
	if !gs.Equal(schema) {
		t.Fatalf("written schema %v, want %v", gs, schema)
	}
	if !reflect.DeepEqual(sortedStrings(rows), sortedStrings(written)) {
		t.Fatalf("written rows differ from the input (%d rows, want %d)", len(rows), len(written))
	}
}

// writeBundleFn run by hand: two bundles make two files, an empty bundle
// none, and a batch of another schema fails the bundle, naming the file.
func TestWriteBundleFn(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(5, 5))
	f := &writeBundleFn{Prefix: filepath.Join(dir, "b")}
	f.Setup()
	var names []string
	emit := func(n string) { names = append(names, n) }
	ctx := context.Background()
	for bundle := 0; bundle < 3; bundle++ {
		for i := 0; i < bundle; i++ { // bundle 0 is empty
			rec := pqTestRecord(t, rng, 10*bundle+i, 4)
			b, err := NewBatch(rec)
			rec.Release()
			if err != nil {
				t.Fatal(err)
			}
			if err := f.ProcessElement(ctx, b, emit); err != nil {
				t.Fatal(err)
			}
		}
		if err := f.FinishBundle(emit); err != nil {
			t.Fatal(err)
		}
	}
	if len(names) != 2 {
		t.Fatalf("files %v, want 2", names)
	}
	rows, _ := pqRows(t, names)
	if len(rows) != 12 {
		t.Fatalf("%d rows written, want 12", len(rows))
	}
	rec := pqTestRecord(t, rng, 100, 2)
	b, err := NewBatch(rec)
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ProcessElement(ctx, b, emit); err != nil {
		t.Fatal(err)
	}
	other := arrowarray.NewRecord(arrow.NewSchema(nil, nil), nil, 3)
	ob, err := NewBatch(other)
	other.Release()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.ProcessElement(ctx, ob, emit); err == nil || !strings.Contains(err.Error(), "-00003.parquet") {
		t.Fatalf("a batch of another schema: err = %v", err)
	}
	if err := f.FinishBundle(emit); err != nil || len(names) != 2 {
		t.Fatalf("after a failed bundle: %v, files %v", err, names)
	}
}

func TestSplitParquet(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(3, 3))
	data := pqBytes(t, []arrow.Record{pqTestRecord(t, rng, 0, 23)}, 5) // 5 row groups
	name := filepath.Join(dir, "a.parquet")
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for per, want := range map[int][]pqSplit{
		0: {{name, 0, 1}, {name, 1, 1}, {name, 2, 1}, {name, 3, 1}, {name, 4, 1}},
		2: {{name, 0, 2}, {name, 2, 2}, {name, 4, 1}},
		9: {{name, 0, 5}},
	} {
		got, err := splitParquet(ctx, memory.DefaultAllocator, name, per)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("per %d: %v, %v; want %v", per, got, err, want)
		}
	}
	// no random access: the whole file, one work item
	memfs.Write("memfs://split/a.parquet", data)
	got, err := splitParquet(ctx, memory.DefaultAllocator, "memfs://split/a.parquet", 1)
	if err != nil || !reflect.DeepEqual(got, []pqSplit{{"memfs://split/a.parquet", 0, -1}}) {
		t.Fatalf("memfs: %v, %v", got, err)
	}
	// a file without a valid footer fails, naming it
	bad := filepath.Join(dir, "bad.parquet")
	if err := os.WriteFile(bad, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := splitParquet(ctx, memory.DefaultAllocator, bad, 1); err == nil || !strings.Contains(err.Error(), "bad.parquet") {
		t.Fatalf("truncated file: err = %v", err)
	}
}

// TestReadParquetMemfs reads files of a filesystem without random access
// (Beam's memfs), each read whole.
func TestReadParquetMemfs(t *testing.T) {
	dir := t.TempDir()
	names, written := writePQFiles(t, dir, 13, 2, 6)
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		memfs.Write("memfs://pqtest/"+filepath.Base(n), data)
	}
	p, s := abeam.NewPipelineWithRoot()
	rows := abeam.ParDo(s, &rowsFn{}, ReadParquet(s, "memfs://pqtest/*.parquet"))
	passert.Equals(s, rows, stringsAny(written)...)
	if err := ptest.Run(p); err != nil {
		t.Fatalf("pipeline: %v", err)
	}
}

func TestReadParquetNoMatch(t *testing.T) {
	p, s := abeam.NewPipelineWithRoot()
	passert.Empty(s, ReadParquet(s, filepath.Join(t.TempDir(), "*.parquet")))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
}

// TestReadParquetBadFile: a file that is not Parquet (failing at the split)
// and a file whose footer is valid but whose first page header is not
// (failing at the read) fail the pipeline with an error naming them.
func TestReadParquetBadFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt func([]byte) []byte
	}{
		{"garbage.parquet", func([]byte) []byte { return []byte("PAR1 not a parquet file PAR1") }},
		{"badpage.parquet", func(b []byte) []byte {
			b = append([]byte(nil), b...)
			for i := 4; i < 24; i++ {
				b[i] = 0xff
			}
			return b
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			names, _ := writePQFiles(t, dir, 14, 1, 100)
			data, err := os.ReadFile(names[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, tc.name), tc.corrupt(data), 0o644); err != nil {
				t.Fatal(err)
			}
			p, s := abeam.NewPipelineWithRoot()
			abeam.ParDo(s, &rowsFn{}, ReadParquet(s, filepath.Join(dir, "*.parquet")))
			err = ptest.Run(p)
			if err == nil || !strings.Contains(err.Error(), tc.name) {
				t.Fatalf("err = %v, want an error naming %s", err, tc.name)
			}
		})
	}
}

// pqInfo is parquetio.Info of the local file name.
func pqInfo(t testing.TB, name string) parquetio.FileInfo {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	info, err := parquetio.Info(f)
	if err != nil {
		t.Fatal(err)
	}
	return info
}
