package beam

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"

	"github.com/apache/arrow/go/v15/arrow"
	arrowarray "github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/memory"
	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

// ErrBatch is wrapped by the errors of a Batch that does not hold exactly
// one record batch, and of steps given a malformed Batch.
var ErrBatch = errors.New("invalid batch")

// Batch is one Arrow record batch in transit between pipeline steps: IPC
// holds an Arrow IPC stream of its schema and the batch. Its Beam coder
// (registered by this package) writes IPC unchanged and keeps the bytes it
// decodes, so the coder adds no copy.
type Batch struct {
	IPC []byte
}

func init() {
	abeam.RegisterCoder(reflect.TypeOf(Batch{}), encodeBatch, decodeBatch)
}

func encodeBatch(b Batch) []byte { return b.IPC }

func decodeBatch(p []byte) Batch { return Batch{IPC: p} }

// NewBatch encodes rec as a Batch. It does not release rec.
func NewBatch(rec arrow.Record) (Batch, error) {
	if rec == nil {
		return Batch{}, fmt.Errorf("beam.NewBatch: %w: nil record", array.ErrNil)
	}
	var buf bytes.Buffer
	if err := arrowio.WriteRecords(&buf, false, rec.Schema(), []arrow.Record{rec}); err != nil {
		return Batch{}, fmt.Errorf("beam.NewBatch: %w", err)
	}
	return Batch{IPC: buf.Bytes()}, nil
}

// Reader decodes b with arrowio.ReadStream, its buffers allocated from mem
// (nil: memory.DefaultAllocator). Release the reader when done.
func (b Batch) Reader(mem memory.Allocator) (arrowarray.RecordReader, error) {
	if len(b.IPC) == 0 {
		return nil, fmt.Errorf("beam.Batch.Reader: %w: no bytes", ErrBatch)
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rr, err := arrowio.ReadStream(bytes.NewReader(b.IPC), arrowio.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("beam.Batch.Reader: %w: %w", ErrBatch, err)
	}
	return rr, nil
}

// Record decodes b's record batch; the caller releases it. A Batch whose
// stream holds no batch or more than one is an error wrapping ErrBatch.
func (b Batch) Record(mem memory.Allocator) (arrow.Record, error) {
	rr, err := b.Reader(mem)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	if !rr.Next() {
		if err := rr.Err(); err != nil {
			return nil, fmt.Errorf("beam.Batch.Record: %w: %w", ErrBatch, err)
		}
		return nil, fmt.Errorf("beam.Batch.Record: %w: the stream (%d bytes) holds no record batch", ErrBatch, len(b.IPC))
	}
	rec := rr.Record()
	rec.Retain()
	if rr.Next() {
		rec.Release()
		return nil, fmt.Errorf("beam.Batch.Record: %w: the stream (%d bytes) holds more than one record batch", ErrBatch, len(b.IPC))
	}
	if err := rr.Err(); err != nil {
		rec.Release()
		return nil, fmt.Errorf("beam.Batch.Record: %w: %w", ErrBatch, err)
	}
	return rec, nil
}
