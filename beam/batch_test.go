package beam

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
)

func TestBatchRoundTrip(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rng := rand.New(rand.NewPCG(1, 2))
	rec := testRecord(t, mem, rng, 17)
	defer rec.Release()
	b, err := NewBatch(rec)
	if err != nil {
		t.Fatal(err)
	}
	// The coder passes the bytes through: no copy.
	enc := encodeBatch(b)
	if &enc[0] != &b.IPC[0] {
		t.Fatal("encodeBatch copied the bytes")
	}
	dec := decodeBatch(enc)
	if &dec.IPC[0] != &enc[0] {
		t.Fatal("decodeBatch copied the bytes")
	}
	got, err := dec.Record(mem)
	if err != nil {
		t.Fatal(err)
	}
	defer got.Release()
	if !got.Schema().Equal(rec.Schema()) || got.NumRows() != rec.NumRows() {
		t.Fatalf("schema %v rows %d, want %v rows %d", got.Schema(), got.NumRows(), rec.Schema(), rec.NumRows())
	}
	for i := range rec.Columns() {
		if !equalFloats(floats(got.Column(i)), floats(rec.Column(i))) {
			t.Fatalf("column %d differs after the round trip", i)
		}
	}
}

func TestBatchErrors(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	if _, err := NewBatch(nil); !errors.Is(err, array.ErrNil) {
		t.Fatalf("nil record: %v", err)
	}
	if _, err := (Batch{}).Record(mem); !errors.Is(err, ErrBatch) {
		t.Fatalf("empty batch: %v", err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	rec := testRecord(t, mem, rng, 9)
	b, err := NewBatch(rec)
	rec.Release()
	if err != nil {
		t.Fatal(err)
	}
	// Every truncation before the end-of-stream marker (8 bytes, which a
	// stream may omit) and some corruptions return errors, never panic,
	// and leak nothing.
	for n := 0; n < len(b.IPC)-8; n += 7 {
		if r, err := (Batch{IPC: b.IPC[:n]}).Record(mem); err == nil {
			r.Release()
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(b.IPC))
		} else if !errors.Is(err, ErrBatch) {
			t.Fatalf("truncated to %d bytes: %v does not wrap ErrBatch", n, err)
		}
	}
	for i := 0; i < 200; i++ {
		p := append([]byte(nil), b.IPC...)
		p[rng.IntN(len(p))] ^= byte(1 + rng.IntN(255))
		if r, err := (Batch{IPC: p}).Record(mem); err == nil {
			r.Release()
		}
	}
	// Two batches in one stream are not a Batch.
	r1 := testRecord(t, mem, rng, 3)
	defer r1.Release()
	b1, err := NewBatch(r1)
	if err != nil {
		t.Fatal(err)
	}
	var two bytes.Buffer
	if err := arrowio.WriteRecords(&two, false, r1.Schema(), []arrow.Record{r1, r1}); err != nil {
		t.Fatal(err)
	}
	if r, err := (Batch{IPC: two.Bytes()}).Record(mem); err == nil {
		r.Release()
		t.Fatal("a stream of two batches: no error")
	}
	if r, err := b1.Record(mem); err != nil {
		t.Fatal(err)
	} else {
		r.Release()
	}
}
