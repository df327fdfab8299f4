package arrowio

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDepsNoParquet: arrowio links neither arrow-go's Parquet packages nor
// what they pull in (Thrift, gRPC, Arrow Flight: ~410 packages before
// Parquet moved to package parquetio). Skipped without the go tool.
func TestDepsNoParquet(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool:", err)
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Skip("go list -deps:", err)
	}
	deps := strings.Fields(string(out))
	for _, d := range deps {
		for _, bad := range []string{
			"github.com/apache/arrow/go/v15/parquet",
			"github.com/apache/arrow/go/v15/arrow/flight",
			"google.golang.org/grpc",
			"github.com/apache/thrift",
		} {
			if d == bad || strings.HasPrefix(d, bad+"/") {
				t.Errorf("arrowio depends on %s (it belongs in parquetio)", d)
			}
		}
	}
	if len(deps) > 300 {
		t.Errorf("arrowio links %d packages, more than 300 (194 after the Parquet split)", len(deps))
	}
}
