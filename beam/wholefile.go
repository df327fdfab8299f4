package beam

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
)

// ErrFile is wrapped by the errors of a file a source cannot read as the
// filesystem describes it (a size that does not match its bytes).
var ErrFile = errors.New("unreadable file")

// readWhole reads the file name, opened as rc, into memory: the bytes the
// filesystem says it has, and an error if it turns out longer or shorter,
// so that no more than the file's size is allocated.
func readWhole(ctx context.Context, fs filesystem.Interface, name string, rc io.Reader) (*bytes.Reader, error) {
	size, err := fs.Size(ctx, name)
	if err != nil {
		return nil, fmt.Errorf("size: %w", err)
	}
	if size < 0 {
		return nil, fmt.Errorf("%w: the filesystem reports a size of %d bytes", ErrFile, size)
	}
	buf := make([]byte, size)
	if _, err := io.ReadFull(rc, buf); err != nil {
		return nil, fmt.Errorf("reading %d bytes: %w", size, err)
	}
	var one [1]byte
	if n, _ := rc.Read(one[:]); n > 0 {
		return nil, fmt.Errorf("%w: the file is longer than the %d bytes the filesystem reports", ErrFile, size)
	}
	return bytes.NewReader(buf), nil
}
