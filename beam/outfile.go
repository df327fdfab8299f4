package beam

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// outFile is a file being written through Beam's filesystem of its name's
// scheme (local paths, gs:// and others where their packages are imported).
type outFile struct {
	fs filesystem.Interface
	io.WriteCloser
}

// createFile opens name for writing.
func createFile(ctx context.Context, name string) (*outFile, error) {
	fs, err := filesystem.New(ctx, name)
	if err != nil {
		return nil, err
	}
	wc, err := fs.OpenWrite(ctx, name)
	if err != nil {
		fs.Close()
		return nil, err
	}
	return &outFile{fs: fs, WriteCloser: wc}, nil
}

// Close closes the file, then its filesystem, and returns the file's error.
func (f *outFile) Close() error {
	err := f.WriteCloser.Close()
	f.fs.Close()
	return err
}

// writeFile creates name, lets write fill it and closes it; errors name the
// file after op (the transform).
func writeFile(ctx context.Context, op, name string, write func(io.Writer) error) error {
	f, err := createFile(ctx, name)
	if err != nil {
		return fmt.Errorf("%s %q: %w", op, name, err)
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s %q: %w", op, name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("%s %q: %w", op, name, err)
	}
	return nil
}
