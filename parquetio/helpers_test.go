package parquetio

import (
	"os"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/memory"

	"github.com/stride0/stride0/array"
	"github.com/stride0/stride0/arrowio"
	"github.com/stride0/stride0/internal/arrowtest"
	"github.com/stride0/stride0/internal/npmtest"
)

// recordFixture is arrowtest.RecordFixture with arrowio.ToTensorColumn.
func recordFixture(t testing.TB, mem memory.Allocator, rows int, seed int) arrow.Record {
	return arrowtest.RecordFixture(t, mem, rows, seed, func(mem memory.Allocator, a *array.Array) (arrow.Array, error) {
		return arrowio.ToTensorColumn(mem, a)
	})
}

// npmPackages installs npm packages for an interop test (npmtest.Packages).
func npmPackages(t *testing.T, pkgs ...string) string { return npmtest.Packages(t, pkgs...) }

func TestMain(m *testing.M) {
	code := m.Run()
	npmtest.Cleanup()
	os.Exit(code)
}
