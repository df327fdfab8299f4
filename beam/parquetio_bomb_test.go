package beam

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	abeam "github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/stride0/stride0/internal/pqbomb"
)

// TestReadParquetBomb: a hostile file (issue 17 item 9: sizes that made
// arrow-go allocate gigabytes or die of "fatal error: out of memory", a
// schema 20,000 groups deep) matched by the glob beside good files fails
// the pipeline with an error naming it, instead of killing the worker.
func TestReadParquetBomb(t *testing.T) {
	for _, b := range pqbomb.Bombs() {
		t.Run(b.Name, func(t *testing.T) {
			dir := t.TempDir()
			writePQFiles(t, dir, 17, 2, 10)
			name := "bomb-" + b.Name + ".parquet"
			if err := os.WriteFile(filepath.Join(dir, name), b.Data, 0o644); err != nil {
				t.Fatal(err)
			}
			p, s := abeam.NewPipelineWithRoot()
			abeam.ParDo(s, &rowsFn{}, ReadParquet(s, filepath.Join(dir, "*.parquet")))
			err := ptest.Run(p)
			if err == nil || !strings.Contains(err.Error(), name) {
				t.Fatalf("err = %v, want an error naming %s", err, name)
			}
		})
	}
}
