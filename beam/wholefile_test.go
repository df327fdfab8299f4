package beam

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// sizeFS is a filesystem whose Size reports size, for readWhole.
type sizeFS struct{ size int64 }

func (f sizeFS) Close() error                                            { return nil }
func (f sizeFS) List(context.Context, string) ([]string, error)          { return nil, nil }
func (f sizeFS) OpenRead(context.Context, string) (io.ReadCloser, error) { return nil, os.ErrNotExist }
func (f sizeFS) OpenWrite(context.Context, string) (io.WriteCloser, error) {
	return nil, os.ErrNotExist
}
func (f sizeFS) Size(context.Context, string) (int64, error) { return f.size, nil }

func TestReadWhole(t *testing.T) {
	ctx := context.Background()
	data := []byte("0123456789")
	r, err := readWhole(ctx, sizeFS{10}, "f", bytes.NewReader(data))
	if err != nil || r.Len() != 10 {
		t.Fatalf("exact size: %v, %v", r, err)
	}
	if _, err := readWhole(ctx, sizeFS{4}, "f", bytes.NewReader(data)); !errors.Is(err, ErrFile) || !strings.Contains(err.Error(), "longer than the 4 bytes") {
		t.Fatalf("reported size too small: %v", err)
	}
	if _, err := readWhole(ctx, sizeFS{11}, "f", bytes.NewReader(data)); err == nil || !strings.Contains(err.Error(), "reading 11 bytes") {
		t.Fatalf("reported size too large: %v", err)
	}
	if _, err := readWhole(ctx, sizeFS{-1}, "f", bytes.NewReader(data)); !errors.Is(err, ErrFile) {
		t.Fatalf("negative size: %v", err)
	}
}
