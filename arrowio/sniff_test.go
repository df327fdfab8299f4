package arrowio

import (
	"bytes"
	"compress/gzip"
	"io"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/stride0/stride0/internal/arrowtest"
)

// onlyReader hides every method of a reader but Read (no Len, no Seek).
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// Issue 17 item 7: ReadStream and ReadFile on what is not their input
// (nothing, text, Parquet, the other IPC format, compressed bytes, a
// truncated file) say what the bytes are not and what they look like,
// instead of "...: EOF"; each error wraps ErrInvalid and nothing leaks.
func TestReadWrongInput(t *testing.T) {
	mem := arrowtest.NewMem(t)
	rec := recordFixture(t, mem, 3, 1)
	defer rec.Release()
	var stream, file, pq, gz bytes.Buffer
	require.NoError(t, WriteRecords(&stream, false, rec.Schema(), []arrow.Record{rec}))
	require.NoError(t, WriteRecords(&file, true, rec.Schema(), []arrow.Record{rec}))
	// The start and end of a Parquet file (package parquetio writes real
	// ones; arrowio cannot import it): the sniffing reads the first bytes.
	pq.WriteString("PAR1\x15\x04\x15\x10\x15\x14L\x15\x02\x15\x00\x12\x00\x00PAR1")
	zw := gzip.NewWriter(&gz)
	_, _ = zw.Write(stream.Bytes())
	require.NoError(t, zw.Close())

	cases := []struct {
		name   string
		in     []byte
		stream []string // what ReadStream's error says ("" : reads)
		file   []string
	}{
		{"empty", nil, []string{"not an Arrow IPC stream", "the input is empty"}, []string{"not an Arrow IPC file", "the input is empty"}},
		{"csv", []byte("a,b\n1,2\n"), []string{"not an Arrow IPC stream", "looks like text", `"a,b\n1,2\n"`}, []string{"not an Arrow IPC file", "of 8 bytes looks like text"}},
		{"json", []byte(`{"columns": ["a", "b"], "data": [[1, 2], [3, 4]]}`), []string{"looks like text", `{\"columns\"`, "..."}, []string{"looks like text"}},
		{"parquet", pq.Bytes(), []string{"Parquet", "parquetio.Read"}, []string{"Parquet", "parquetio.Read"}},
		{"file to ReadStream", file.Bytes(), []string{"not an Arrow IPC stream", "looks like an Arrow IPC file", "ReadFile"}, nil},
		{"stream to ReadFile", stream.Bytes(), nil, []string{"not an Arrow IPC file", "looks like an Arrow IPC stream", "ReadStream"}},
		{"gzip", gz.Bytes(), []string{"gzip"}, []string{"gzip"}},
		{"truncated file", file.Bytes()[:file.Len()-10], []string{"looks like an Arrow IPC file"}, []string{"starts like an Arrow IPC file but does not end like one"}},
		{"bytes", []byte{0, 0, 0, 0x80, 1, 2, 3, 4, 5}, []string{"starts with bytes 00 00 00 80"}, []string{"starts with bytes 00 00 00 80"}},
	}
	for _, c := range cases {
		for _, src := range []io.Reader{bytes.NewReader(c.in), onlyReader{bytes.NewReader(c.in)}} {
			r, err := ReadStream(src, WithAllocator(mem))
			if c.stream == nil {
				require.NoError(t, err, c.name)
				r.Release()
			} else {
				require.ErrorIs(t, err, ErrInvalid, c.name)
				for _, w := range c.stream {
					assert.ErrorContains(t, err, w, "ReadStream %s", c.name)
				}
				assert.NotRegexp(t, `EOF$`, err.Error(), c.name)
			}
		}
		r, err := ReadFile(bytes.NewReader(c.in), WithAllocator(mem))
		if c.file == nil {
			require.NoError(t, err, c.name)
			r.Release()
			continue
		}
		require.ErrorIs(t, err, ErrInvalid, c.name)
		for _, w := range c.file {
			assert.ErrorContains(t, err, w, "ReadFile %s", c.name)
		}
	}
}
