package compute_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestGeneratedCurrent: the generated kernels are what gen.go and asmgen.go
// write now (the check CI runs; `go generate ./compute` updates them).
func TestGeneratedCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generators")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	for gen, outs := range map[string][]string{
		"gen.go":    {"kernels_gen.go"},
		"asmgen.go": {"kernels_amd64.s", "kernels_amd64.go"},
	} {
		dir := t.TempDir()
		src, err := os.ReadFile(gen)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, gen), src, 0o644))
		cmd := exec.Command(goBin, "run", gen)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=off")
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "%s: %s", gen, out)
		for _, o := range outs {
			want, err := os.ReadFile(filepath.Join(dir, o))
			require.NoError(t, err)
			got, err := os.ReadFile(o)
			require.NoError(t, err)
			require.True(t, bytes.Equal(want, got), "%s is not what %s writes: run go generate ./compute", o, gen)
		}
	}
}
