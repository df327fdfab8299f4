package parquetio

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v15/arrow"

	"github.com/stride0/stride0/parquetio/internal/pqscan"
)

// footerSink is the writer's sink: it passes bytes on to w until the file
// is closed, then holds what Close writes (the last pages and the footer)
// so that finish can correct the footer before passing it on.
//
// The correction: arrow-go v15 marks a timestamp column isAdjustedToUTC
// when the Arrow type has no time zone (or "UTC"), and not adjusted when it
// has another zone: the reverse of Arrow C++ and of the Parquet spec, for
// which a zoned Arrow timestamp is an instant (adjusted to UTC) and one
// without a zone is a local date-time. Other readers believe the flag
// (DuckDB reads a naive column as TIMESTAMPTZ, losing nanoseconds, and a
// Europe/Paris column as a naive TIMESTAMP). A compact-protocol boolean is
// a nibble of its field header, so the flag is flipped in place and no
// length in the file changes.
type footerSink struct {
	w      io.Writer
	schema *arrow.Schema // the schema pqarrow writes
	hold   bool
	held   []byte
}

func (s *footerSink) Write(p []byte) (int, error) {
	if s.hold {
		s.held = append(s.held, p...)
		return len(p), nil
	}
	return s.w.Write(p)
}

// finish corrects the held footer's timestamp flags and writes what it
// holds.
func (s *footerSink) finish() error {
	b := s.held
	s.held, s.hold = nil, false
	if len(b) < 8 || !bytes.Equal(b[len(b)-4:], []byte("PAR1")) {
		return fmt.Errorf("%w: the file's end is not a Parquet footer", ErrInvalid)
	}
	n := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	if n > len(b)-8 {
		return fmt.Errorf("%w: the Parquet footer was not written at Close", ErrInvalid)
	}
	footer := b[len(b)-8-n : len(b)-8]
	flags, err := pqscan.TimestampFlags(footer)
	if err != nil {
		return fmt.Errorf("%w: reading the footer written: %w", ErrInvalid, err)
	}
	for _, f := range flags {
		if !f.Top {
			continue
		}
		idx := s.schema.FieldIndices(f.Name)
		if len(idx) != 1 {
			continue
		}
		ts, ok := s.schema.Field(idx[0]).Type.(*arrow.TimestampType)
		if !ok {
			continue
		}
		if want := ts.TimeZone != ""; want != f.Adjusted {
			nib := byte(2) // compact protocol false
			if want {
				nib = 1
			}
			footer[f.Pos] = footer[f.Pos]&0xf0 | nib
		}
	}
	_, err = s.w.Write(b)
	return err
}
