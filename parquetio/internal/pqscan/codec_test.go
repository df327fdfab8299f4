package pqscan

import (
	"bytes"
	"errors"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// zstd pages as other writers make them pass: streaming frames without a
// content size (parquet-mr), several frames, an empty frame; and bodies
// that lie fail.
func TestCheckZstd(t *testing.T) {
	page := bytes.Repeat([]byte("stride0 parquet page "), 50000) // ~1 MiB
	var stream bytes.Buffer
	zw, err := zstd.NewWriter(&stream, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(page); i += 1000 {
		zw.Write(page[i:min(i+1000, len(page))])
	}
	zw.Close()
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	whole := enc.EncodeAll(page, nil)
	two := append(enc.EncodeAll(page[:1000], nil), enc.EncodeAll(page[1000:], nil)...)
	empty := enc.EncodeAll(nil, nil)
	check := func(b []byte, out int64) error {
		return checkZstd(&span{r: bytes.NewReader(b), n: int64(len(b))}, out)
	}
	for name, b := range map[string][]byte{"stream": stream.Bytes(), "whole": whole, "two frames": two} {
		if err := check(b, int64(len(page))); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := check(b, int64(len(page))/2); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s for half the page: %v", name, err)
		}
		if err := check(b[:len(b)/2], int64(len(page))); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s cut in half: %v", name, err)
		}
	}
	if err := check(empty, 0); err != nil {
		t.Errorf("empty: %v", err)
	}
	if err := check(nil, 10); !errors.Is(err, ErrInvalid) {
		t.Errorf("no frame for 10 bytes: %v", err)
	}
}
