package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testdata = "../../internal/conformance/testdata"

func runArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunSpecFile(t *testing.T) {
	code, out, _ := runArgs(filepath.Join(testdata, "spec_doc_shape_cases.json"))
	assert.Equal(t, 0, code)
	assert.Equal(t, "49 passed, 0 failed, 0 skipped\n", out)
}

func TestRunDirectory(t *testing.T) {
	code, out, _ := runArgs("-q", testdata)
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^\d+ passed, 0 failed, 0 skipped\n$`, out)
}

func TestRunFailuresAndSkips(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cases.json")
	require.NoError(t, os.WriteFile(path, []byte(`{"schema": "conformance-case-file/1", "cases": [
		{"id": "ok", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2], "dtype": "f32"}, {"name": "B", "shape": [], "dtype": "f32"}], "expected": {"shape": [2]}},
		{"id": "bad", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2], "dtype": "f32"}, {"name": "B", "shape": [3], "dtype": "f32"}], "expected": {"shape": [3]}},
		{"id": "u2", "kind": "elementwise_numpy", "op": "add", "inputs": [{"name": "A", "shape": [2], "dtype": "u2"}, {"name": "B", "shape": [2], "dtype": "u2"}], "expected": {"shape": [2]}}
	]}`), 0o644))
	code, out, _ := runArgs(path)
	assert.Equal(t, 1, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	assert.Equal(t, []string{
		"FAIL bad: expected shape [3], got error: broadcast multidirectional: cannot broadcast [2] and [3]: dim 0 is 2 in the shapes before and 3 in shape 1",
		"SKIP u2: dtype u2: not supported by the library",
		"1 passed, 1 failed, 1 skipped",
	}, lines)

	code, out, _ = runArgs("-q", "-v", path)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "PASS ok (got [2])\n")
	assert.NotContains(t, out, "SKIP")
}

func TestRunUnreadable(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"cases": [`), 0o644))
	code, out, errs := runArgs(bad, filepath.Join(testdata, "spec_doc_shape_cases.json"))
	assert.Equal(t, 2, code)
	assert.Equal(t, "49 passed, 0 failed, 0 skipped\n", out)
	assert.Contains(t, errs, "bad.json")

	code, _, errs = runArgs(filepath.Join(dir, "missing.json"))
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "missing.json")

	code, _, _ = runArgs()
	assert.Equal(t, 2, code)
	code, _, _ = runArgs("-nosuchflag", bad)
	assert.Equal(t, 2, code)
}
